//go:build !urfave_cli_no_docs

package main

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

const manFile = "../../docs/man/rdmadoctor.1"

// TestManPage fails while docs/man/rdmadoctor.1 is not what the commands generate (`go generate
// ./...` rewrites it), and checks that man(1) renders it with every command in it.
func TestManPage(t *testing.T) {
	want, err := manPage(newApp(nil, io.Discard, io.Discard))
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(manFile)
	if err != nil {
		t.Fatalf("%v; run go generate ./...", err)
	}
	if diff := cmp.Diff(want, string(got)); diff != "" {
		t.Fatalf("docs/man/rdmadoctor.1 is stale; run go generate ./... (-generated +committed):\n%s", diff)
	}
	if _, err := exec.LookPath("man"); err != nil {
		if os.Getenv("RDMADOCTOR_REQUIRE_TOOLS") == "1" {
			t.Fatal("man not installed (package man-db) and RDMADOCTOR_REQUIRE_TOOLS=1")
		}
		t.Skip("man not installed (package man-db)")
	}
	cmd := exec.Command("man", "-l", manFile)
	cmd.Env = append(os.Environ(), "MANWIDTH=100", "MANPAGER=cat", "PAGER=cat")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("man -l %s: %v: %s", manFile, err, stderr.String())
	}
	if stderr.Len() > 0 {
		t.Errorf("man -l %s warns: %s", manFile, stderr.String())
	}
	page := string(out)
	for _, c := range newApp(nil, io.Discard, io.Discard).Commands {
		if !c.Hidden && !strings.Contains(page, "\n"+c.Name+"\n") {
			t.Errorf("the rendered man page has no section for %s:\n%s", c.Name, page)
		}
	}
	for _, want := range []string{"SYNOPSIS", "DESCRIPTION", "--fail-on-incomplete", "rdmadoctor completion bash|zsh|fish"} {
		if !strings.Contains(page, want) {
			t.Errorf("the rendered man page does not say %q", want)
		}
	}
}
