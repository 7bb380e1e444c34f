package main

import (
	"bytes"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rdmadoctor/rdmadoctor/facts/live"
	"github.com/rdmadoctor/rdmadoctor/facts/live/livetest"
	"github.com/rdmadoctor/rdmadoctor/internal/golden"
)

// nhcHarness is the part of LBNL NHC (github.com/mej/nhc) that a check file sees, as its
// README ("Writing Checks") and its nhc script define it: check files are sourced by bash; a
// failing check calls `die CODE "message"` and then returns CODE; die records the message and
// ends NHC with CODE, except with NHC_CHECK_ALL=1, where it counts the failure and returns 0 so
// the next check runs; $TIMEOUT is NHC's own time limit (30 s by default). NHC is not packaged
// in Debian, so this harness stands in for it.
const nhcHarness = `
TIMEOUT=${TIMEOUT:-30}
FAIL_CNT=0
die() {
    local RET="$1"
    shift
    echo "die $RET $*"
    if [[ "$NHC_CHECK_ALL" == "1" ]]; then
        ((FAIL_CNT++))
        return 0
    fi
    exit "$RET"
}
source "$CHECK_FILE"
check_rdmadoctor "$@"
echo "returned $?"
`

// TestNHCCheck: contrib/nhc/rdmadoctor.nhc's check_rdmadoctor on corpus cases, under the NHC
// harness: a node without a subnet manager (017) dies with the rule id and port; three
// diagnoses (056) name the first and count the others; a healthy node (018: warnings only)
// passes; rdmadoctor unable to run (exit 2, not installed) fails the check with what broke it;
// finding no RDMA (exit 3) passes, with -N it fails; bad options die as NHC's own checks do.
func TestNHCCheck(t *testing.T) {
	bash := realTool(t, "bash", "bash")
	rdmadoctor := rdmadoctorOnPath(t)
	check := contribFile(t, "nhc", "rdmadoctor.nhc")
	dir := t.TempDir()
	hung := livetest.New(t, "", hungStubs()) // a node whose tools all hang
	// What docs/integrations.md quotes: the calls of the cases marked doc, and what NHC's die
	// was given (the harness prints "die CODE MESSAGE"); the repository's path left out.
	norm := (&golden.Normalizer{}).Replace(dir, "$TMP", golden.Root()+"/", "", "../../fixtures/", "fixtures/")
	var seen strings.Builder
	docCases := map[string]bool{"three diagnoses": true, "warnings below -s error": true, "warnings at -s warning": true,
		"rdmadoctor cannot read its input: the check is broken and fails": true, "no RDMA": true, "missing argument": true}
	for _, tc := range []struct {
		name     string
		env      []string
		args     []string
		want     string // stdout; one ending in a space is its start (what follows names commands)
		wantCode int
		stderr   string
	}{
		{"no subnet manager", nil, []string{"--", "--snapshot", corpusCase(t, "017")},
			"die 1 rdmadoctor: ib-port-no-subnet-manager ibp4s0/1\n", 1, ""},
		{"NHC_CHECK_ALL: die returns, the check returns 1", []string{"NHC_CHECK_ALL=1"}, []string{"--", "--snapshot", corpusCase(t, "017")},
			"die 1 rdmadoctor: ib-port-no-subnet-manager ibp4s0/1\nreturned 1\n", 0, ""},
		{"three diagnoses", nil, []string{"--", "--snapshot", corpusCase(t, "056")},
			"die 1 rdmadoctor: ib-port-no-subnet-manager mlx5_0/1 (+2 more)\n", 1, ""},
		{"warnings below -s error", nil, []string{"--", "--snapshot", corpusCase(t, "018")}, "returned 0\n", 0, ""},
		{"warnings at -s warning", nil, []string{"-s", "warning", "--", "--snapshot", corpusCase(t, "018")},
			"die 1 rdmadoctor: module-speed-below-port-capability node (+1 more)\n", 1, ""},
		{"rdmadoctor cannot read its input: the check is broken and fails", nil, []string{"--", "--snapshot", "/nonexistent/snapshot"},
			"die 1 rdmadoctor: check could not run (exit 2: stat /nonexistent/snapshot: no such file or directory)\n", 1, ""},
		{"rdmadoctor not installed", []string{"RDMADOCTOR=" + filepath.Join(dir, "no-rdmadoctor")}, nil,
			"die 1 rdmadoctor: check could not run (" + filepath.Join(dir, "no-rdmadoctor") + " not found or not executable)\n", 1, ""},
		{"no RDMA", nil, []string{"--", "--input", check},
			"returned 0\n", 0, "check_rdmadoctor:  nothing about RDMA could be evaluated (rdmadoctor exit 3); passing"},
		{"live gather timed out: the check is broken and fails", []string{live.ToolPathEnv + "=" + hung.Bin}, []string{"-t", "5", "--", "--root", hung.Root},
			"die 1 rdmadoctor: check could not run (exit 3: nothing about RDMA could be evaluated: 19 commands timed out on ", 1, ""},
		{"no RDMA with -N", nil, []string{"-N", "--", "--input", check},
			"die 1 rdmadoctor: no RDMA device or RDMA tool output\n", 1, ""},
		{"timeout above NHC's", nil, []string{"-t", "60"},
			"die 1 check_rdmadoctor:  Command timeout 60 exceeds NHC timeout 30\n", 1, ""},
		{"bad severity", nil, []string{"-s", "fatal"},
			"die 1 check_rdmadoctor:  Severity fatal is not critical, error, warning or info\n", 1, ""},
		{"missing argument", nil, []string{"-t"},
			"die 1 check_rdmadoctor:  Option -t requires an argument.\n", 1, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cmd := exec.Command(bash, append([]string{"-c", nhcHarness, "nhc"}, tc.args...)...)
			cmd.Env = append(append(cmd.Environ(), "CHECK_FILE="+check, "RDMADOCTOR="+rdmadoctor), tc.env...)
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			err := cmd.Run()
			code := 0
			if ee, ok := err.(*exec.ExitError); ok {
				code = ee.ExitCode()
			} else if err != nil {
				t.Fatal(err)
			}
			if got := stdout.String(); !(got == tc.want || strings.HasSuffix(tc.want, " ") && strings.HasPrefix(got, tc.want)) || code != tc.wantCode {
				t.Errorf("stdout %q, exit %d; want %q, exit %d; stderr:\n%s", stdout.String(), code, tc.want, tc.wantCode, stderr.String())
			}
			if !strings.Contains(stderr.String(), tc.stderr) {
				t.Errorf("stderr %q lacks %q", stderr.String(), tc.stderr)
			}
			if docCases[tc.name] {
				seen.WriteString("# " + tc.name + "\n$ check_rdmadoctor " + shellWords(tc.args) + "\n" + stdout.String() + stderr.String())
			}
		})
	}
	golden.Check(t, "nhc-check.txt", norm.Apply(seen.String()))
}

// TestChecksShellcheckClean: the Slurm wrapper (POSIX sh) and the NHC check file (bash, as NHC
// sources it) pass shellcheck.
func TestChecksShellcheckClean(t *testing.T) {
	shellcheck := realTool(t, "shellcheck", "shellcheck")
	for file, shell := range map[string]string{
		contribFile(t, "slurm", "rdmadoctor-healthcheck"): "sh",
		contribFile(t, "nhc", "rdmadoctor.nhc"):           "bash",
	} {
		if out, err := exec.Command(shellcheck, "--shell="+shell, file).CombinedOutput(); err != nil {
			t.Errorf("shellcheck --shell=%s %s: %v\n%s", shell, file, err, out)
		}
	}
}
