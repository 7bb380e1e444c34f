// Command rdmadoctor finds out why RDMA (InfiniBand or RoCE) is broken or slow on a Linux node and
// says how to fix it.
package main

import (
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strings"

	"github.com/rdmadoctor/rdmadoctor/internal/visible"
	"github.com/rdmadoctor/rdmadoctor/internal/xzahead"
)

func main() {
	if os.Getenv("GOGC") == "" {
		// A run is short and allocates ~20 MB compiling the rules: collecting at twice the
		// default heap growth costs ~10 % less CPU for ~1 MB more (docs/performance.md).
		debug.SetGCPercent(200)
	}
	code := run(os.Args, os.Stdin, os.Stdout, os.Stderr)
	xzahead.Stop() // the decoder started ahead for a --snapshot that was not read
	os.Exit(code)
}

// run executes the CLI and returns the process exit code; tests call it in-process.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	app := newApp(stdin, stdout, stderr)
	app.Metadata = map[string]any{argvKey: args} // what gather records (not os.Args: tests run in-process)
	if err := app.Run(args); err != nil {
		code := exitCode(err)
		if msg := err.Error(); msg != "" { // a silentExit has said everything already
			fmt.Fprintf(stderr, "rdmadoctor: %s\n", escapeLines(msg))
		}
		return code
	}
	return 0
}

// escapeLines makes the control characters of each line of msg visible (an error may quote a
// file name or an input line), keeping the message's own line breaks.
func escapeLines(msg string) string {
	lines := strings.Split(msg, "\n")
	for i, l := range lines {
		lines[i] = visible.Escape(l)
	}
	return strings.Join(lines, "\n")
}
