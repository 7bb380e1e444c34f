package packaging

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestNPDPlugin runs contrib/npd/rdmadoctor-npd-plugin as NPD does (its stdout and exit status
// are the plugin contract: 0 OK, 1 NonOK, 2 Unknown) on corpus cases: a sysfs tree with a
// saturated link_downed (005) is a problem, a healthy one (038) is OK, a sosreport whose ibstat
// aborted (002) and a root without RDMA are "could not check", never OK.
func TestNPDPlugin(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	rd := goInstalled(t)
	needPrometheusFormat(t, rd)
	plugin, err := filepath.Abs(npdPlugin)
	if err != nil {
		t.Fatal(err)
	}
	if sc, err := exec.LookPath("shellcheck"); err == nil {
		if out, err := exec.Command(sc, "--shell=sh", plugin).CombinedOutput(); err != nil {
			t.Errorf("shellcheck --shell=sh %s: %v\n%s", plugin, err, out)
		}
	}
	empty := t.TempDir()
	for _, tc := range []struct {
		name string
		env  []string
		args []string
		exit int
		out  string
	}{
		{"problem", nil, []string{"--root", "../fixtures/corpus/005-h100-ib-ndr-sysfs-tree-link-downed-255"}, 1,
			"ib-link-flapping mlx5_1/1 (error)"},
		// With warnings too: the most severe first, the others counted.
		{"problem-and-warnings", []string{"RDMADOCTOR_FAIL_ON=warning"}, []string{"--root", "../fixtures/corpus/005-h100-ib-ndr-sysfs-tree-link-downed-255"}, 1,
			"ib-link-flapping mlx5_1/1 (error) +16 more"},
		// NPD's max_output_length: the plugin cuts its line itself.
		{"cut", []string{"RDMADOCTOR_MAX_OUTPUT=20"}, []string{"--root", "../fixtures/corpus/005-h100-ib-ndr-sysfs-tree-link-downed-255"}, 1,
			"ib-link-flapping mlx"},
		{"healthy", nil, []string{"--root", "../fixtures/corpus/038-supermicro-onboard-cx3-qdr-dual-port-old-fw-sysfs"}, 0,
			"rdmadoctor: no RDMA problem at or above error"},
		{"partial-input", nil, []string{"--snapshot", "../fixtures/corpus/002-azure-a100-ibstat-ibpanic-missing-device"}, 2,
			"rdmadoctor: could not check fully, not read whole: ibstat"},
		{"no-rdma", []string{"RDMADOCTOR_MAX_OUTPUT=200"}, []string{"--root", empty}, 2,
			"rdmadoctor: nothing about RDMA could be evaluated: " + empty + " has no RDMA device"},
		{"usage", nil, []string{"--root", "/nonexistent"}, 2, "rdmadoctor: exit 2: --root /nonexistent: not a directory"},
		{"no-binary", []string{"RDMADOCTOR=/nonexistent/rdmadoctor"}, nil, 2, "rdmadoctor: /nonexistent/rdmadoctor not found"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cmd := exec.Command(plugin, tc.args...)
			cmd.Env = append(os.Environ(), append([]string{"RDMADOCTOR=" + rd}, tc.env...)...)
			out, err := cmd.Output()
			code := 0
			var ee *exec.ExitError
			if errors.As(err, &ee) {
				code = ee.ExitCode()
			} else if err != nil {
				t.Fatal(err)
			}
			got := strings.TrimSuffix(string(out), "\n")
			if code != tc.exit || !strings.HasPrefix(got, tc.out) || strings.Contains(got, "\n") {
				t.Errorf("exit %d, stdout %q; want exit %d, one line beginning %q", code, got, tc.exit, tc.out)
			}
		})
	}
}

// needPrometheusFormat skips, saying why, when rd has no `diagnose --format prometheus` (issue
// 13 item 3, another change), which the plugin reads.
func needPrometheusFormat(t *testing.T, rd string) {
	t.Helper()
	out, err := exec.Command(rd, "diagnose", "--format", "prometheus", "--snapshot", "../fixtures/corpus/038-supermicro-onboard-cx3-qdr-dual-port-old-fw-sysfs").CombinedOutput()
	if err != nil && strings.Contains(string(out), `--format "prometheus"`) {
		t.Skipf("this rdmadoctor has no diagnose --format prometheus, which the NPD plugin reads: %s", out)
	}
}
