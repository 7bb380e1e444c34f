package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

// TestMain lets testscript run this binary as the `rdmadoctor` command of the scripts (main,
// as the installed command runs).
func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){"rdmadoctor": main})
}

// TestScript runs the end-to-end scripts in testdata/script (see there for what each covers).
func TestScript(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir: "testdata/script",
		Cmds: map[string]func(*testscript.TestScript, bool, []string){
			"exits": exits,
		},
		Condition: toolCondition,
		Setup: func(env *testscript.Env) error {
			env.Setenv("NO_COLOR", "")
			return nil
		},
	})
}

// toolCondition is the scripts' [tool:NAME] condition: NAME is on PATH. A missing tool is an
// error, not a skip, under RDMADOCTOR_REQUIRE_TOOLS=1 (CI installs them all).
func toolCondition(cond string) (bool, error) {
	name, ok := strings.CutPrefix(cond, "tool:")
	if !ok {
		return false, fmt.Errorf("unknown condition %q", cond)
	}
	if _, err := exec.LookPath(name); err != nil {
		if os.Getenv("RDMADOCTOR_REQUIRE_TOOLS") == "1" {
			return false, fmt.Errorf("%s not installed and RDMADOCTOR_REQUIRE_TOOLS=1", name)
		}
		return false, nil
	}
	return true, nil
}

// exits N command args... runs the command and checks its exit code; its stdout and stderr
// can be checked afterwards like exec's.
func exits(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: exits CODE command [args...]")
	}
	want, err := strconv.Atoi(args[0])
	if err != nil {
		ts.Fatalf("exits: %v", err)
	}
	got := 0
	if err := ts.Exec(args[1], args[2:]...); err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			ts.Fatalf("exits: %v", err)
		}
		got = ee.ExitCode()
	}
	if got != want {
		ts.Fatalf("exit code %d, want %d", got, want)
	}
}
