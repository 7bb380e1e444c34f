package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rdmadoctor/rdmadoctor/fixtures"
)

// The first user's false complete (fresh findings, 1): a sosreport whose ibstat sos killed at its
// timeout (return_code 124 in sos_reports/manifest.json; the file holds corpus 003's real ibstat
// cut after 4 of its 12 CAs). diagnose says the ibstat timed out, the report is incomplete, and
// --fail-on-incomplete exits 1; without the manifest's 124 (sos's real manifest) it exits 0.
func TestSosTimeoutIsIncomplete(t *testing.T) {
	lines := bytes.SplitAfter(fixtures.Read(t, "ibstat/h100-ndr-eth-disabled.txt"), []byte("\n"))
	for _, tc := range []struct {
		manifest string
		code     int
	}{{"ibstat-timeout.json", exitFindings}, {"infiniband-pci-processor.json", 0}} {
		dir := t.TempDir()
		for name, b := range map[string][]byte{
			"sos_commands/infiniband/ibstat": bytes.Join(lines[:68], nil),
			"sos_reports/manifest.json":      fixtures.Read(t, "sos_manifest/"+tc.manifest),
		} {
			p := filepath.Join(dir, filepath.FromSlash(name))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		code, table, _ := diagnoseDir(t, dir, "--fail-on-incomplete")
		timedOut := strings.Contains(table, "timed out (sos: return code 124 after its timeout") &&
			strings.Contains(table, "1 input not (fully) read: results may be incomplete")
		if code != tc.code || timedOut != (tc.code != 0) {
			t.Errorf("%s: exit %d, want %d; timed out said: %v\n%s", tc.manifest, code, tc.code, timedOut, table)
		}
		_, js, _ := diagnoseDir(t, dir, "--format", "json")
		if complete := strings.Contains(js, `"complete": true`); complete != (tc.code == 0) {
			t.Errorf("%s: complete %v in the JSON, want %v", tc.manifest, complete, tc.code == 0)
		}
	}
}

// An ibstat sos killed before it printed anything (empty, return_code 124), on a sosreport with
// nothing else about RDMA: exit 3 with advice about sos's timeout, never rdmadoctor's --timeout,
// which cannot help a snapshot (fresh findings, second pass, F1).
func TestSosTimeoutAdvice(t *testing.T) {
	dir := t.TempDir()
	for name, b := range map[string][]byte{
		"sos_commands/infiniband/ibstat": nil,
		"sos_reports/manifest.json":      fixtures.Read(t, "sos_manifest/ibstat-timeout.json"),
	} {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	code, _, stderr := diagnoseDir(t, dir)
	want := "rdmadoctor: nothing about RDMA could be evaluated: 1 command timed out on " + dir + " (sos_commands/infiniband/ibstat, at sos's timeout): run sos again with longer timeouts (sos report --plugin-timeout SECONDS"
	if code != exitNoFacts || !strings.HasPrefix(stderr, want) || strings.Contains(stderr, "--timeout 30s") {
		t.Errorf("exit %d, stderr:\n%s\nwant exit %d and a line starting %q", code, stderr, exitNoFacts, want)
	}
}
