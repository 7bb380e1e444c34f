package main

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rdmadoctor/rdmadoctor/internal/golden"
)

// readmeBlock returns the lines of README.md inside the first ``` fence that opens after the line
// heading (its fence line excluded), and the offsets of the block's text in readme.
func readmeBlock(t *testing.T, readme, heading, fence string) (block string, start, end int) {
	t.Helper()
	h := strings.Index("\n"+readme, "\n"+heading+"\n") - 1 // the heading may open the file
	if h < -1 {
		t.Fatalf("README.md has no %q line", heading)
	}
	h = max(h, 0)
	open := strings.Index(readme[h:], "\n"+fence+"\n")
	if open < 0 {
		t.Fatalf("README.md: no %s block after %q", fence, heading)
	}
	start = h + open + len(fence) + 2
	closing := strings.Index(readme[start:], "\n```\n")
	if closing < 0 {
		t.Fatalf("README.md: the block after %q is not closed", heading)
	}
	end = start + closing + 1
	return readme[start:end], start, end
}

// TestReadmeOutput runs the README's first command (the diagnose of the bundled example, in the
// block that opens the README) from the repository root at 100 columns, and checks that "What it
// prints" is its output, line for line. With RDMADOCTOR_UPDATE_GOLDEN=1 (make golden) it writes
// the output into README.md first.
func TestReadmeOutput(t *testing.T) {
	t.Chdir("../..")
	t.Setenv("COLUMNS", "100") // the README shows a 100-column table
	b, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	readme := string(b)
	cmds, _, _ := readmeBlock(t, readme, "# rdmadoctor", "```sh")
	first, _, _ := strings.Cut(cmds, "\n")
	const prefix = "go run ./cmd/rdmadoctor "
	if !strings.HasPrefix(first, prefix) {
		t.Fatalf("README.md's first command %q does not start with %q", first, prefix)
	}
	args := append([]string{"rdmadoctor"}, strings.Fields(strings.TrimPrefix(first, prefix))...)
	var out, errOut bytes.Buffer
	if code := run(args, nil, &out, &errOut); code != 1 {
		t.Errorf("%s: exit %d, want 1 (the README says it finds a critical problem); stderr: %s", first, code, errOut.String())
	}
	shown, start, end := readmeBlock(t, readme, "## What it prints", "```")
	if os.Getenv(golden.UpdateEnv) == "1" {
		readme = readme[:start] + out.String() + readme[end:]
		if err := os.WriteFile("README.md", []byte(readme), 0o644); err != nil {
			t.Fatal(err)
		}
		shown = out.String()
	}
	if diff := cmp.Diff(out.String(), shown); diff != "" {
		t.Errorf("README.md's \"What it prints\" is not what %s prints at 100 columns (-output +README); make golden rewrites it:\n%s", first, diff)
	}
}
