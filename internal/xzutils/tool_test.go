package xzutils

import (
	"os"
	"path/filepath"
	"testing"
)

// TestLookPath: the first folder of PATH that holds an executable xz gives its path, as
// exec.LookPath does; folders without one, a folder or a file without execute permission named
// xz are passed over, and a relative folder that holds one gives "" (LookPath's ErrDot).
func TestLookPath(t *testing.T) {
	root := t.TempDir()
	mk := func(dir string, mode os.FileMode, isDir bool) string {
		d := filepath.Join(root, dir)
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(d, "xz")
		var err error
		if isDir {
			err = os.Mkdir(p, 0o755)
		} else {
			err = os.WriteFile(p, nil, mode)
		}
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	empty, plain, folder, exe, exe2 := filepath.Join(root, "empty"), mk("plain", 0o644, false), mk("folder", 0, true), mk("exe", 0o755, false), mk("exe2", 0o700, false)
	if err := os.MkdirAll(empty, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Chdir(exe)
	sep := string(os.PathListSeparator)
	for _, tc := range []struct{ path, want string }{
		{"", ""},
		{empty, ""},
		{empty + sep + plain + sep + folder + sep + exe + sep + exe2, exe + "/xz"},
		{exe2 + "/" + sep + exe, exe2 + "/xz"},
		{empty + sep + sep + exe, ""}, // "" is ".", which holds xz: relative
		{"." + sep + exe2, ""},
		{empty + sep + "relative" + sep + exe2, exe2 + "/xz"},
	} {
		if got := lookPath("xz", tc.path); got != tc.want {
			t.Errorf("lookPath(xz, %q) = %q, want %q", tc.path, got, tc.want)
		}
	}
}
