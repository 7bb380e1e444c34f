package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestHostileFileNames: a file whose name holds a newline and a terminal sequence (which a
// testscript cannot name), and a folder named with a carriage return and a title sequence, are
// listed escaped in the table and Markdown footers and in the warnings on stderr; no raw control
// byte reaches either stream.
func TestHostileFileNames(t *testing.T) {
	ibstat, err := os.ReadFile(filepath.Join("testdata", "script", "injection.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	_, capture, _ := strings.Cut(string(ibstat), "-- hostile/ibstat --\n")
	capture, _, _ = strings.Cut(capture, "-- ")
	dir := t.TempDir()
	for name, body := range map[string]string{
		"ibstat":                  capture,
		"notes\n\x1b[2Jrow.txt":   "hello world\n",
		"x\r\x1b]0;pwned\a/lsmod": "Module Size Used by\nmlx5_ib abc 0\n",
	} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, format := range []string{"table", "markdown"} {
		var stdout, stderr bytes.Buffer
		run([]string{"rdmadoctor", "diagnose", "--snapshot", dir, "--format", format}, nil, &stdout, &stderr)
		for stream, out := range map[string]string{"stdout": stdout.String(), "stderr": stderr.String()} {
			if i := strings.IndexFunc(out, func(r rune) bool { return r < 0x20 && r != '\n' && r != '\t' || r == 0x7f }); i >= 0 {
				t.Errorf("%s %s: raw control character %q at %d:\n%s", format, stream, out[i], i, out)
			}
		}
		if !strings.Contains(stdout.String(), `notes\n\x1b[2Jrow.txt`) {
			t.Errorf("%s: the unrecognised file is not listed escaped:\n%s", format, stdout.String())
		}
		if !strings.Contains(stderr.String(), `warning: x\r\x1b]0;pwned\a/lsmod: line 2`) {
			t.Errorf("%s: the unreadable file is not named escaped on stderr:\n%s", format, stderr.String())
		}
		if !strings.Contains(stdout.String(), `sminfo -C 'x;reboot;$(id)' -P 1`) {
			t.Errorf("%s: no quoted fix command:\n%s", format, stdout.String())
		}
	}
}
