package main

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/rdmadoctor/rdmadoctor/internal/golden"
)

// promCases are corpus cases whose metrics the tests check: a critical port diagnosis (017), a
// partly read ibstat (002), a switch seen only by its node GUID (024), grouped unused ports and
// a healthy port (013), a link that trains below its cable (027).
var promCases = []string{"002", "013", "017", "024", "027"}

func corpusCase(t *testing.T, number string) string {
	t.Helper()
	dirs, err := filepath.Glob(filepath.Join("..", "..", "fixtures", "corpus", number+"-*"))
	if err != nil || len(dirs) != 1 {
		t.Fatalf("corpus case %s: %v %v", number, dirs, err)
	}
	return dirs[0]
}

// diagnoseToFile runs diagnose in process with -o file and returns its exit code.
func diagnoseToFile(t *testing.T, file string, args ...string) int {
	t.Helper()
	var stderr bytes.Buffer
	code := run(append([]string{"rdmadoctor", "diagnose", "--no-color", "-o", file}, args...), strings.NewReader(""), io.Discard, &stderr)
	if code != 0 && code != exitFindings && code != exitNoFacts {
		t.Fatalf("diagnose %v: exit %d: %s", args, code, stderr.String())
	}
	return code
}

// TestPromtoolChecksMetrics: Prometheus' own linter (promtool check metrics, Debian's prometheus
// package) accepts the metrics of corpus cases and of a node without RDMA.
func TestPromtoolChecksMetrics(t *testing.T) {
	promtool := realTool(t, "promtool", "prometheus")
	dir := t.TempDir()
	snapshots := []string{noRDMASnapshot(t, dir)}
	for _, n := range promCases {
		snapshots = append(snapshots, corpusCase(t, n))
	}
	for _, snap := range snapshots {
		out := filepath.Join(dir, filepath.Base(snap)+".prom")
		diagnoseToFile(t, out, "--snapshot", snap, "--format", "prometheus")
		metrics, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(promtool, "check", "metrics")
		cmd.Stdin = bytes.NewReader(metrics)
		if msg, err := cmd.CombinedOutput(); err != nil || len(msg) > 0 {
			t.Errorf("%s: promtool check metrics: %v\n%s\n%s", filepath.Base(snap), err, msg, metrics)
		}
	}
}

// TestNodeExporterServesMetrics: a real node_exporter (Debian's prometheus-node-exporter) with
// its textfile collector on the folder diagnose -o writes to serves the diagnosis over HTTP on
// 127.0.0.1, with no textfile error; diagnose rewriting the file while node_exporter reads it
// never makes a scrape fail (the file is renamed into place).
func TestNodeExporterServesMetrics(t *testing.T) {
	exporter := realTool(t, "prometheus-node-exporter", "prometheus-node-exporter")
	dir := t.TempDir()
	prom := filepath.Join(dir, "rdmadoctor.prom")
	if code := diagnoseToFile(t, prom, "--snapshot", corpusCase(t, "017"), "--format", "prometheus"); code != exitFindings {
		t.Fatalf("diagnose of corpus 017: exit %d, want %d", code, exitFindings)
	}
	addr := "127.0.0.1:" + freePort(t)
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, exporter, "--web.listen-address="+addr,
		"--collector.disable-defaults", "--collector.textfile", "--collector.textfile.directory="+dir)
	var logs bytes.Buffer
	cmd.Stdout, cmd.Stderr = &logs, &logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cancel()
		_ = cmd.Wait()
		if t.Failed() {
			t.Logf("node_exporter's log:\n%s", logs.String())
		}
	})
	body := scrape(t, "http://"+addr+"/metrics")
	for _, want := range []string{
		`rdmadoctor_diagnosis{confidence="high",device="ibp4s0",explained_by="",id="ib-port-no-subnet-manager",netdev="",node_guid="",pci="",port="1",severity="critical"} 1`,
		`rdmadoctor_diagnoses{severity="critical"} 1`,
		`rdmadoctor_diagnoses{severity="error"} 0`,
		`rdmadoctor_rdma_facts 1`,
		"node_textfile_scrape_error 0",
		`node_textfile_mtime_seconds{file="` + prom + `"}`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("node_exporter's /metrics lacks %q:\n%s", want, grepLines(body, "rdmadoctor|node_textfile"))
		}
	}

	// What an operator sees (docs/integrations.md quotes it), as `curl -s ... | grep -E
	// 'rdmadoctor|node_textfile' | grep -v '^#'`: the folder, times, version and the counts of
	// rules (which change whenever a rule is added) normalized.
	var served []string
	for _, l := range strings.Split(grepLines(body, "rdmadoctor|node_textfile"), "\n") {
		if l != "" && !strings.HasPrefix(l, "#") {
			served = append(served, l)
		}
	}
	norm := (&golden.Normalizer{}).Replace(dir, "$TMP")
	golden.Check(t, "node-exporter-metrics.txt", ruleCounts.ReplaceAllString(versionLabel.ReplaceAllString(
		norm.Apply("$ curl -s 127.0.0.1:PORT/metrics | grep -E 'rdmadoctor|node_textfile' | grep -v '^#'\n"+strings.Join(served, "\n")),
		`version="VERSION"`), "$1 N"))

	// Rewrite the file while scraping: every scrape reads a whole file.
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := 0; i < 3; i++ {
			diagnoseToFile(t, prom, "--snapshot", corpusCase(t, promCases[i%len(promCases)]), "--format", "prometheus")
		}
	}()
	for {
		select {
		case <-done:
			if b := scrape(t, "http://"+addr+"/metrics"); !strings.Contains(b, "node_textfile_scrape_error 0") {
				t.Errorf("after the rewrites: %s", grepLines(b, "node_textfile"))
			}
			return
		default:
			if b := scrape(t, "http://"+addr+"/metrics"); !strings.Contains(b, "node_textfile_scrape_error 0") {
				t.Fatalf("a scrape during a rewrite failed: %s", grepLines(b, "node_textfile"))
			}
		}
	}
}

var (
	versionLabel = regexp.MustCompile(`version="[^"]*"`)
	ruleCounts   = regexp.MustCompile(`(?m)^(rdmadoctor_rules_(?:evaluated|skipped)) \d+$`)
)

// scrape GETs url, retrying for up to 10 s while the exporter starts.
func scrape(t *testing.T, url string) string {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		resp, err := http.Get(url)
		if err == nil {
			b, rerr := io.ReadAll(resp.Body)
			resp.Body.Close()
			if rerr == nil && resp.StatusCode == http.StatusOK {
				return string(b)
			}
			err = rerr
		}
		if time.Now().After(deadline) {
			t.Fatalf("GET %s: %v", url, err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// grepLines returns the lines of s that contain any of the |-separated words.
func grepLines(s, words string) string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		for _, w := range strings.Split(words, "|") {
			if strings.Contains(l, w) {
				out = append(out, l)
				break
			}
		}
	}
	return strings.Join(out, "\n")
}
