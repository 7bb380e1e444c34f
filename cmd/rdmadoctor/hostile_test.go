package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/fixtures"
)

// diagnoseDir runs `rdmadoctor diagnose --snapshot dir args...` and returns its exit code,
// stdout and stderr.
func diagnoseDir(t *testing.T, dir string, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	argv := append([]string{"rdmadoctor", "diagnose", "--snapshot", dir}, args...)
	code := run(argv, strings.NewReader(""), &out, &errb)
	return code, out.String(), errb.String()
}

// A bad line of megabytes is quoted in its warning only in part (issue 10: a 33.5 MB warning).
func TestWarningClipped(t *testing.T) {
	dir := t.TempDir()
	ibstat := "CA 'mlx5_0'\n\tCA type: MT4115\n\tNumber of ports: 1\n\tPort 1:\n\t\tState: Active\n\t\tBase lid: " +
		strings.Repeat("9x", 1<<20) + "\n"
	if err := os.MkdirAll(filepath.Join(dir, "sos_commands/infiniband"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "sos_commands/infiniband/ibstat"), []byte(ibstat), 0o644); err != nil {
		t.Fatal(err)
	}
	_, stdout, stderr := diagnoseDir(t, dir, "--format", "json")
	if !strings.Contains(stderr, "rdmadoctor: warning: sos_commands/infiniband/ibstat") {
		t.Fatalf("no warning about the bad line:\n%.2000s", stderr)
	}
	for _, l := range strings.Split(stderr, "\n") {
		if len(l) > facts.MaxMessageBytes+200 {
			t.Errorf("stderr line of %d bytes: %.200s...", len(l), l)
		}
	}
	if len(stdout) > 1<<20 {
		t.Errorf("report of %d bytes: the bad line is quoted whole", len(stdout))
	}
}

// writeIBStat writes b as the ibstat of a new snapshot folder and returns the folder.
func writeIBStat(t *testing.T, b []byte) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "ibstat"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// More CA blocks than are read (parse.MaxDevices): the devices past the limit are unknown, so
// the source is partial and the report incomplete, never a plain healthy verdict. The blocks are
// corpus 017's real ibstat block with the CA renamed; the last one, past the limit, is the one
// without a subnet manager.
func TestIBStatPastDeviceLimitIsIncomplete(t *testing.T) {
	block := fixtures.Read(t, "corpus/017-cx4-back-to-back-linkup-initializing-no-sm-fdr-cable/ibstat")
	var b bytes.Buffer
	for i := range 1100 {
		b.Write(bytes.Replace(block, []byte("CA 'ibp4s0'"), []byte(fmt.Sprintf("CA 'mlx5_%d'", i)), 1))
	}
	code, stdout, _ := diagnoseDir(t, writeIBStat(t, b.Bytes()), "--format", "json", "--fail-on", "none", "--fail-on-incomplete")
	if code != exitFindings || !strings.Contains(stdout, `"complete": false`) || !strings.Contains(stdout, `"status": "partial"`) ||
		!strings.Contains(stdout, "more CA blocks not read") {
		t.Errorf("exit %d, want %d with the ibstat partial and the report incomplete:\n%.1500s", code, exitFindings, stdout)
	}
}

// A CA name with a byte that is not UTF-8 (corpus 017's ibstat, the name edited): the byte is
// replaced when read, so the name in hand names no real device and fix commands keep <device>.
func TestNonUTF8NameKeepsPlaceholder(t *testing.T) {
	b := bytes.Replace(fixtures.Read(t, "corpus/017-cx4-back-to-back-linkup-initializing-no-sm-fdr-cable/ibstat"),
		[]byte("CA 'ibp4s0'"), []byte("CA 'ibp4s0\xe9'"), 1)
	_, stdout, _ := diagnoseDir(t, writeIBStat(t, b), "--format", "json", "--fail-on", "none")
	if !strings.Contains(stdout, `"command": "sminfo -C <device> -P 1"`) || strings.Contains(stdout, `"command": "sminfo -C 'ibp4s0`) {
		t.Errorf("fix commands name the replaced name, or no sminfo command:\n%.3000s", stdout)
	}
}

// A line longer than one line may have (parse.MaxLineBytes), 20 MB here, is named with its file
// and line as not read, and the source is partial: in a kernel log read as a stream (a line of
// the real log fixtures/dmesg/cx6-x4-slot-insufficient-power.txt stretched), and in an lspci
// read whole that is one 20 MB line without a newline. The lines after it are still read.
func TestLongLineNotRead(t *testing.T) {
	dir := t.TempDir()
	lines := strings.SplitAfter(string(fixtures.Read(t, "dmesg/cx6-x4-slot-insufficient-power.txt")), "\n")
	huge := "[    1.438000] mlx5_core 0000:04:00.0: " + strings.Repeat("A", 20_000_000) + "\n"
	dmesg := lines[0] + huge + strings.Join(lines[1:], "")
	if err := os.WriteFile(filepath.Join(dir, "dmesg"), []byte(dmesg), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "lspci_-nnvv"), bytes.Repeat([]byte("B"), 20_000_000), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := diagnoseDir(t, dir, "--format", "json")
	if code != exitFindings {
		t.Errorf("exit %d, want 1 (the PCIe link the log names)", code)
	}
	for _, want := range []string{
		`rdmadoctor: warning: dmesg: partly read: 1 line not used: line 2: "[    1.438000] mlx5_core 0000:04:00.0: AAA`,
		`: a line of 20000039 bytes, longer than the 65536 bytes one line may have: not read (read as dmesg)`,
		`rdmadoctor: warning: lspci_-nnvv: partly read: 1 line not used: line 1: "BBB`,
		`: a line of 20000000 bytes, longer than the 65536 bytes one line may have: not read (the file ends in it, without a newline) (read as lspci)`,
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr does not say %q:\n%.3000s", want, stderr)
		}
	}
	// The line after it is read, numbered as in the file.
	if !strings.Contains(stdout, `"id": "pcie-link-degraded"`) || !regexp.MustCompile(`"path": "dmesg",\s+"line": 4,\s+"text": "\[    1\.438142\] mlx5_core 0000:04:00\.0: 8\.000 Gb/s available PCIe bandwidth`).MatchString(stdout) {
		t.Errorf("the log's lines after the long one are not read, or misnumbered:\n%.3000s", stdout)
	}
	if !strings.Contains(stdout, `"complete": false`) || len(stdout) > 1<<20 {
		t.Errorf("want an incomplete report of bounded size, got %d bytes", len(stdout))
	}
}
