package main

import (
	"net"
	"os"
	"os/exec"
	"path/filepath"
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

// rdmadoctorOnPath is the rdmadoctor a script under test runs: this test binary, which
// testscript.Main puts on PATH under that name.
func rdmadoctorOnPath(t *testing.T) string {
	t.Helper()
	path, err := exec.LookPath("rdmadoctor")
	if err != nil {
		t.Fatal(err)
	}
	return path
}

// contribFile is the absolute path of a file under the repository's contrib/.
func contribFile(t *testing.T, parts ...string) string {
	t.Helper()
	path, err := filepath.Abs(filepath.Join(append([]string{"..", "..", "contrib"}, parts...)...))
	if err != nil {
		t.Fatal(err)
	}
	return path
}

// noRDMASnapshot makes dir/empty, a folder of captures with nothing about RDMA in it (diagnose
// exit 3), and returns its path.
func noRDMASnapshot(t *testing.T, dir string) string {
	t.Helper()
	empty := filepath.Join(dir, "empty")
	if err := os.MkdirAll(empty, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(empty, "notes.txt"), []byte("nothing RDMA here\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return empty
}
