package main

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rdmadoctor/rdmadoctor/facts"
)

// tarGz writes a .tar.gz of name/body pairs and returns its path.
func tarGz(t *testing.T, pairs ...string) string {
	t.Helper()
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	tw := tar.NewWriter(zw)
	for i := 0; i < len(pairs); i += 2 {
		if err := tw.WriteHeader(&tar.Header{Name: pairs[i], Mode: 0o644, Size: int64(len(pairs[i+1])), Typeflag: tar.TypeReg}); err != nil {
			t.Fatal(err)
		}
		if _, err := tw.Write([]byte(pairs[i+1])); err != nil {
			t.Fatal(err)
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "in.tar.gz")
	if err := os.WriteFile(p, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestInputFlags(t *testing.T) {
	sosArchive := tarGz(t, "sosreport-n1-2024/sos_commands/kernel/uname_-a", "Linux n1 6.8.0 #1 SMP x86_64 GNU/Linux\n")
	hostile := tarGz(t, "ok", "1", "../../etc/cron.d/pwned", "x")
	missing := filepath.Join(t.TempDir(), "nope.tar.xz")
	for _, tc := range []struct {
		name   string
		args   []string
		stdin  string
		code   int
		stderr string           // part of the error message
		source facts.SourceInfo // on success
	}{
		{name: "both", args: []string{"--snapshot", sosArchive, "--input", "x"}, code: exitUsage, stderr: "not both"},
		{name: "missing snapshot", args: []string{"--snapshot", missing}, code: exitUsage, stderr: missing + ": no such file"},
		{name: "hostile archive", args: []string{"--snapshot", hostile}, code: exitUsage, stderr: hostile + `: member "../../etc/cron.d/pwned": path leaves the archive`},
		{name: "missing capture", args: []string{"--input", missing}, code: exitUsage, stderr: missing},
		{name: "sosreport archive", args: []string{"--snapshot", sosArchive}, source: facts.SourceInfo{Kind: "sosreport", Path: sosArchive}},
		{name: "stdin capture", args: []string{"--input", "-"}, stdin: "CA 'mlx5_0'\n", source: facts.SourceInfo{Kind: "captures", Path: "-"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := run(append([]string{"rdmadoctor", "facts"}, tc.args...), strings.NewReader(tc.stdin), &stdout, &stderr)
			if code != tc.code {
				t.Fatalf("exit code %d, want %d; stderr: %s", code, tc.code, stderr.String())
			}
			if !strings.Contains(stderr.String(), tc.stderr) {
				t.Errorf("stderr %q does not say %q", stderr.String(), tc.stderr)
			}
			if code != exitOK {
				return
			}
			var s facts.Snapshot
			if err := json.Unmarshal(stdout.Bytes(), &s); err != nil {
				t.Fatalf("facts output: %v", err)
			}
			if s.Source != tc.source {
				t.Errorf("source = %+v, want %+v", s.Source, tc.source)
			}
		})
	}
}
