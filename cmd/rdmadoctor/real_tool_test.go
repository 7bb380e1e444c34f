package main

import (
	"net"
	"os"
	"os/exec"
	"strconv"
	"testing"
)

// realTool is the path of program, a real component an integration test runs (Debian package
// pkg); the test is skipped without it, unless RDMADOCTOR_REQUIRE_TOOLS=1 (CI) makes that a
// failure.
func realTool(t *testing.T, program, pkg string) string {
	t.Helper()
	path, err := exec.LookPath(program)
	if err != nil {
		if os.Getenv("RDMADOCTOR_REQUIRE_TOOLS") == "1" {
			t.Fatalf("%s not installed (package %s) and RDMADOCTOR_REQUIRE_TOOLS=1", program, pkg)
		}
		t.Skipf("%s not installed (package %s)", program, pkg)
	}
	return path
}

// freePort is a TCP port on 127.0.0.1 that nothing listened on a moment ago.
func freePort(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return strconv.Itoa(l.Addr().(*net.TCPAddr).Port)
}
