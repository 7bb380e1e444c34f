package packaging

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/rdmadoctor/rdmadoctor/internal/golden"
)

// npdVersion is the node-problem-detector the test builds from the Go module proxy
// (scripts/build-npd.sh; the proxy serves this exact version, not a version list).
const npdVersion = "v0.8.20"

const (
	npdConfig = "../contrib/npd/rdmadoctor-plugin-monitor.json"
	npdPlugin = "../contrib/npd/rdmadoctor-npd-plugin"
)

// npdBinary is the node-problem-detector binary, built once per version into the user cache
// (.ci/run builds it before the tests). A build that fails skips the test, saying why, unless
// RDMADOCTOR_REQUIRE_TOOLS=1.
func npdBinary(t *testing.T) string {
	t.Helper()
	cache, err := os.UserCacheDir()
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(cache, "rdmadoctor", "npd", npdVersion, "node-problem-detector")
	if _, err := os.Stat(bin); err == nil {
		return bin
	}
	start := time.Now()
	out, err := exec.Command("sh", "../scripts/build-npd.sh", npdVersion, bin).CombinedOutput()
	if err != nil {
		why := fmt.Sprintf("node-problem-detector %s cannot be built here (scripts/build-npd.sh): %v\n%s", npdVersion, err, out)
		if os.Getenv("RDMADOCTOR_REQUIRE_TOOLS") == "1" {
			t.Fatalf("%s\nand RDMADOCTOR_REQUIRE_TOOLS=1", why)
		}
		t.Skip(why)
	}
	t.Logf("built node-problem-detector %s in %v", npdVersion, time.Since(start).Round(time.Second))
	return bin
}

// TestNPD runs the real node-problem-detector standalone (no Kubernetes exporter) with the
// shipped custom plugin config, its plugin pointed at a fake root, and reads NPD's Prometheus
// metrics on 127.0.0.1: a sysfs tree whose port says link_downed 255 (corpus case 005) sets
// problem_gauge{type="RDMAProblem",reason="RDMADiagnosis"} to 1 and counts the problem; a
// healthy one (corpus case 038) leaves the condition at its default reason, no problem_gauge at
// 1, and counts none.
func TestNPD(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs node-problem-detector")
	}
	npd := npdBinary(t)
	rd := goInstalled(t)
	needPrometheusFormat(t, rd)
	// What docs/integrations.md quotes: per case, NPD's log lines about the plugin's result and
	// the status it made of it (from the source file name on: glog's date, time and thread id
	// left out), and its problem_ metrics; times, Go pointers and the config's folder normalized.
	var seen strings.Builder
	defer func() {
		if !t.Failed() {
			golden.Check(t, "npd.txt", seen.String())
		}
	}()
	for _, tc := range []struct {
		name, root string
		exit       int    // the plugin's exit status NPD logs
		message    string // the condition message NPD keeps (the plugin's stdout)
		gauge      string // the problem_gauge sample NPD exports
		counter    string // the problem_counter sample
	}{
		{"link-downed", "../fixtures/corpus/005-h100-ib-ndr-sysfs-tree-link-downed-255", 1,
			"ib-link-flapping mlx5_1/1 (error)",
			`problem_gauge{reason="RDMADiagnosis",type="RDMAProblem"} 1`,
			`problem_counter{reason="RDMADiagnosis"} 1`},
		{"healthy", "../fixtures/corpus/038-supermicro-onboard-cx3-qdr-dual-port-old-fw-sysfs", 0,
			"rdmadoctor: no RDMA problem at or above error",
			`problem_gauge{reason="RDMAIsHealthy",type="RDMAProblem"} 0`,
			`problem_counter{reason="RDMADiagnosis"} 0`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root, err := filepath.Abs(tc.root)
			if err != nil {
				t.Fatal(err)
			}
			cfg := npdTestConfig(t, root)
			port := freePort(t)
			ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
			defer cancel()
			cmd := exec.CommandContext(ctx, npd, "--enable-k8s-exporter=false", "--port=0",
				"--prometheus-address=127.0.0.1", fmt.Sprintf("--prometheus-port=%d", port),
				"--config.custom-plugin-monitor="+cfg, "--hostname-override=node01", "--logtostderr", "--v=3")
			cmd.Env = append(os.Environ(), "RDMADOCTOR="+rd)
			log := &syncBuffer{}
			cmd.Stdout, cmd.Stderr = log, log
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			defer func() {
				cancel()
				_ = cmd.Wait()
				if t.Failed() {
					t.Logf("node-problem-detector log:\n%s", log.String())
				}
			}()
			// "Receive new plugin result for CONFIG: {Rule:... ExitStatus:1 Message:...}"
			result := regexp.MustCompile(`Receive new plugin result for \S+: \{Rule:.*? ExitStatus:(\d+) Message:(.*)\}`)
			var m []string
			for m == nil {
				if ctx.Err() != nil {
					t.Fatalf("no plugin result from node-problem-detector in time")
				}
				time.Sleep(500 * time.Millisecond)
				m = result.FindStringSubmatch(log.String())
			}
			if m[1] != fmt.Sprint(tc.exit) || m[2] != tc.message {
				t.Errorf("plugin result: exit %s, message %q; want exit %d, %q", m[1], m[2], tc.exit, tc.message)
			}
			// NPD sets its metrics just after it logs the result.
			url := fmt.Sprintf("http://127.0.0.1:%d/metrics", port)
			var metrics string
			for range 20 {
				metrics = scrape(t, url)
				if strings.Contains(metrics, "\n"+tc.gauge+"\n") && strings.Contains(metrics, "\n"+tc.counter+"\n") {
					break
				}
				time.Sleep(500 * time.Millisecond)
			}
			for _, want := range []string{tc.gauge, tc.counter} {
				if !strings.Contains(metrics, "\n"+want+"\n") {
					t.Errorf("NPD's metrics have no %s:\n%s", want, grepLines(metrics, "problem_"))
				}
			}
			if tc.exit == 0 {
				if l := regexp.MustCompile(`(?m)^problem_gauge\{.*\} 1$`).FindString(metrics); l != "" {
					t.Errorf("a healthy node shows a problem: %s", l)
				}
			}
			t.Logf("plugin result: exit %s, message %q\nNPD metrics:\n%s", m[1], m[2], grepLines(metrics, "problem_"))
			norm := (&golden.Normalizer{}).Replace(filepath.Dir(cfg)+"/", ".../")
			seen.WriteString("# " + tc.root[len("../fixtures/"):] + "\n")
			// The plugin's result and the first status made of it (NPD logs the status twice
			// when the condition changes: once as made, once as sent on).
			want := "Receive new plugin result"
			for _, l := range strings.Split(log.String(), "\n") {
				if i := strings.Index(l, "custom_plugin_monitor.go:"); i >= 0 && strings.Contains(l, want) {
					l = npdPointer.ReplaceAllString(npdTime.ReplaceAllString(norm.Apply(l[i:]), "TIME"), "${1}0xADDR")
					seen.WriteString(l + "\n")
					if want = "New status generated"; strings.Contains(l, want) {
						break
					}
				}
			}
			seen.WriteString("$ curl -s http://127.0.0.1:PORT/metrics | grep ^problem_\n")
			for _, l := range strings.Split(metrics, "\n") {
				if strings.HasPrefix(l, "problem_") {
					seen.WriteString(l + "\n")
				}
			}
		})
	}
}

// npdTime is a time as NPD's log prints a Go time.Time: "2026-12-02 04:18:05.123456789 +0000
// UTC m=+3.014159265" (the monotonic part only in a time taken by this process).
var npdTime = regexp.MustCompile(`\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(\.\d+)? [+-]\d{4} \w+( m=[+-]\d+\.\d+)?`)

// npdPointer is the address of the plugin's rule that NPD prints in its result ("{Rule:0xc0003a2b40 ...").
var npdPointer = regexp.MustCompile(`(Rule:)0x[0-9a-f]+`)

// npdTestConfig writes the shipped config with the rule's path set to the checkout's plugin
// and its --root to root; everything else is as shipped.
func npdTestConfig(t *testing.T, root string) string {
	t.Helper()
	b, err := os.ReadFile(npdConfig)
	if err != nil {
		t.Fatal(err)
	}
	var cfg map[string]any
	if err := json.Unmarshal(b, &cfg); err != nil {
		t.Fatalf("%s: %v", npdConfig, err)
	}
	plugin, err := filepath.Abs(npdPlugin)
	if err != nil {
		t.Fatal(err)
	}
	rules := cfg["rules"].([]any)
	if len(rules) != 1 {
		t.Fatalf("%s has %d rules, want 1", npdConfig, len(rules))
	}
	rule := rules[0].(map[string]any)
	rule["path"] = plugin
	args := rule["args"].([]any)
	for i := range args {
		if args[i] == "--root" && i+1 < len(args) {
			args[i+1] = root
		}
	}
	out, err := json.Marshal(cfg)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "rdmadoctor-plugin-monitor.json")
	if err := os.WriteFile(path, out, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestNPDDaemonSetConfig: the DaemonSet's ConfigMap carries the same plugin config as
// contrib/npd/rdmadoctor-plugin-monitor.json, and mounts what the config's path and --root need.
func TestNPDDaemonSetConfig(t *testing.T) {
	b, err := os.ReadFile("../contrib/npd/rdmadoctor-npd-daemonset.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var configMap struct {
		Kind string
		Data map[string]string
	}
	dec := yaml.NewDecoder(bytes.NewReader(b))
	if err := dec.Decode(&configMap); err != nil || configMap.Kind != "ConfigMap" {
		t.Fatalf("first document: kind %q, %v; want the ConfigMap", configMap.Kind, err)
	}
	shipped, err := os.ReadFile(npdConfig)
	if err != nil {
		t.Fatal(err)
	}
	var want, got any
	if err := json.Unmarshal(shipped, &want); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(configMap.Data["rdmadoctor-plugin-monitor.json"]), &got); err != nil {
		t.Fatalf("the ConfigMap's rdmadoctor-plugin-monitor.json: %v", err)
	}
	if fmt.Sprint(want) != fmt.Sprint(got) {
		t.Errorf("the ConfigMap's config differs from %s:\n%v\n%v", npdConfig, got, want)
	}
	for _, mount := range []string{"mountPath: /host/sys", "mountPath: /host/proc", "mountPath: /usr/bin/rdmadoctor",
		"mountPath: /usr/share/rdmadoctor/contrib", "--config.custom-plugin-monitor=/config/rdmadoctor-plugin-monitor.json"} {
		if !bytes.Contains(b, []byte(mount)) {
			t.Errorf("the DaemonSet has no %q", mount)
		}
	}
}

func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// scrape GETs url, retrying while the server starts.
func scrape(t *testing.T, url string) string {
	t.Helper()
	var last error
	for range 40 {
		resp, err := http.Get(url)
		if err == nil {
			b, err := io.ReadAll(resp.Body)
			resp.Body.Close()
			if err == nil && resp.StatusCode == http.StatusOK {
				return string(b)
			}
			last = fmt.Errorf("status %s, %v", resp.Status, err)
		} else {
			last = err
		}
		time.Sleep(250 * time.Millisecond)
	}
	t.Fatalf("GET %s: %v", url, last)
	return ""
}

func grepLines(s, prefix string) string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if strings.HasPrefix(l, prefix) {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

// syncBuffer is a bytes.Buffer a process writes while the test reads it.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
