package source_test

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"

	"github.com/rdmadoctor/rdmadoctor/facts/source"
)

// linkTree is a folder with what os.Root has rules for: symbolic links to files and folders
// inside it (relative, through "..", absolute into it, chained), links leaving it (relative and
// absolute), a dangling link, a link loop, a FIFO, nested folders, an empty file and a file
// past the first read.
func linkTree(t *testing.T) string {
	t.Helper()
	d := t.TempDir()
	outside := t.TempDir()
	writeFile(t, outside, "secret", []byte("secret\n"))
	for name, body := range map[string]string{
		"ibstat":                             "CA 'mlx5_0'\n",
		"empty":                              "",
		"big":                                strings.Repeat("0123456789abcdef\n", 1000),
		"sys/class/infiniband/mlx5_0/fw_ver": "28.39.1002\n",
		"sys/class/infiniband/mlx5_0/ports/1/rate":      "400 Gb/sec (4X NDR)\n",
		"sys/devices/pci0000:00/0000:17:00.0/numa_node": "0\n",
	} {
		p := filepath.Join(d, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		writeFile(t, filepath.Dir(p), filepath.Base(p), []byte(body))
	}
	for link, target := range map[string]string{
		"sys/class/infiniband/mlx5_0/device": "../../../devices/pci0000:00/0000:17:00.0",
		"ibstat-link":                        "ibstat",
		"chain":                              "ibstat-link",
		"to-sys":                             "sys",
		"absolute-inside":                    filepath.Join(d, "ibstat"),
		"escape":                             filepath.Join(outside, "secret"),
		"escape-relative":                    "../" + filepath.Base(outside) + "/secret",
		"escape-dir":                         outside,
		"dangling":                           "nothing-here",
		"loop-a":                             "loop-b",
		"loop-b":                             "loop-a",
	} {
		if err := os.Symlink(target, filepath.Join(d, filepath.FromSlash(link))); err != nil {
			t.Fatal(err)
		}
	}
	if err := syscall.Mkfifo(filepath.Join(d, "fifo"), 0o644); err != nil {
		t.Fatal(err)
	}
	return d
}

// TestDirectoryFSIsOSRoot: every operation on every path of linkTree (and on paths that are
// not there, invalid or through links) gives what os.Root's fs.FS gives, errors included.
func TestDirectoryFSIsOSRoot(t *testing.T) {
	d := linkTree(t)
	fsys, _, err := source.Open(d)
	if err != nil {
		t.Fatal(err)
	}
	defer fsys.(io.Closer).Close()
	root, err := os.OpenRoot(d)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	want := root.FS()

	var names []string
	err = filepath.WalkDir(d, func(p string, _ fs.DirEntry, err error) error {
		rel, _ := filepath.Rel(d, p)
		names = append(names, filepath.ToSlash(rel))
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	names = append(names, "missing", "sys/missing", "sys/class/infiniband/mlx5_0/device/numa_node",
		"to-sys/class/infiniband/mlx5_0/fw_ver", "ibstat/under-a-file", "escape-dir/secret",
		"dangling/x", "loop-a/x", "/ibstat", "sys/../ibstat", "./ibstat", "sys/", "")
	for _, name := range names {
		if name == "fifo" {
			continue // opening (or listing) a FIFO waits for a writer, with os.Root as without
		}
		if diff := cmp.Diff(describe(want, name), describe(fsys, name)); diff != "" {
			t.Errorf("%q (-os.Root +source.Open):\n%s", name, diff)
		}
	}
	fifo := describe(fsys, "fifo", "stat", "lstat")
	if diff := cmp.Diff(describe(want, "fifo", "stat", "lstat"), fifo); diff != "" {
		t.Errorf("fifo (-os.Root +source.Open):\n%s", diff)
	}
	// The rest of the tree holds links out of it and a FIFO, which fstest would open.
	sys, err := fs.Sub(fsys, "sys")
	if err != nil {
		t.Fatal(err)
	}
	if err := fstest.TestFS(sys, "class/infiniband/mlx5_0/ports/1/rate"); err != nil {
		t.Error(err)
	}
}

// describe is what each of fs's operations (all when none are given) says of name: the content
// read, the file info, the listing, the link target, or the error.
func describe(fsys fs.FS, name string, ops ...string) map[string]string {
	if len(ops) == 0 {
		ops = []string{"open", "readfile", "stat", "lstat", "readdir", "readlink"}
	}
	info := func(fi fs.FileInfo, err error) string {
		if err != nil {
			return "error: " + err.Error()
		}
		s := fmt.Sprintf("%s %v %v", fi.Name(), fi.Mode(), fi.IsDir())
		if fi.Mode().IsRegular() {
			s += fmt.Sprintf(" %d %v", fi.Size(), fi.ModTime().UnixNano())
		}
		return s
	}
	out := map[string]string{}
	for _, op := range ops {
		var s string
		switch op {
		case "open":
			f, err := fsys.Open(name)
			if err != nil {
				s = "error: " + err.Error()
				break
			}
			st := info(f.Stat())
			if fi, _ := f.Stat(); fi != nil && fi.IsDir() {
				s = st
			} else {
				b, err := io.ReadAll(f)
				s = fmt.Sprintf("%s %q %v", st, b, err)
			}
			if err := f.Close(); err != nil {
				s += " close: " + err.Error()
			}
			if err := f.Close(); err == nil {
				s += " closed twice"
			}
		case "readfile":
			b, err := fs.ReadFile(fsys, name)
			s = fmt.Sprintf("%q %v", b, err)
		case "stat":
			s = info(fs.Stat(fsys, name))
		case "lstat":
			s = info(fs.Lstat(fsys, name))
		case "readdir":
			entries, err := fs.ReadDir(fsys, name)
			s = fmt.Sprint(err)
			for _, e := range entries {
				s += fmt.Sprintf(" %s:%v:%v", e.Name(), e.Type(), e.IsDir())
				fi, err := e.Info()
				s += "/" + info(fi, err)
			}
		case "readlink":
			target, err := fs.ReadLink(fsys, name)
			s = fmt.Sprintf("%q %v", target, err)
		}
		out[op] = s
	}
	return out
}

// TestDirectoryFSHoldsFewFolders: walking and reading 300 folders keeps a bounded number of
// descriptors open, and Close releases them all.
func TestDirectoryFSHoldsFewFolders(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("counts /proc/self/fd")
	}
	d := t.TempDir()
	for i := range 300 {
		dir := filepath.Join(d, "sys", fmt.Sprintf("d%03d", i), "ports", "1")
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		writeFile(t, dir, "state", []byte("4: ACTIVE\n"))
	}
	writeFile(t, d, "ibstat", []byte("CA 'mlx5_0'\n"))
	openFDs := func() int { // the descriptors open on d (other tests' folders may be closed meanwhile)
		entries, err := os.ReadDir("/proc/self/fd")
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, e := range entries {
			if target, err := os.Readlink(filepath.Join("/proc/self/fd", e.Name())); err == nil && (target == d || strings.HasPrefix(target, d+"/")) {
				n++
			}
		}
		return n
	}
	before := openFDs()
	fsys, _, err := source.Open(d)
	if err != nil {
		t.Fatal(err)
	}
	most := 0
	err = fs.WalkDir(fsys, ".", func(p string, e fs.DirEntry, err error) error {
		if err == nil && !e.IsDir() {
			if _, err = fs.ReadFile(fsys, p); err == nil {
				_, err = fs.Stat(fsys, p)
			}
		}
		most = max(most, openFDs()-before)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if most > 64+32+4 {
		t.Errorf("%d descriptors open at most while reading 300 folders, want at most 100", most)
	}
	if err := fsys.(io.Closer).Close(); err != nil {
		t.Fatal(err)
	}
	if n := openFDs() - before; n != 0 {
		t.Errorf("%d descriptors still open after Close", n)
	}
	if _, err := fs.ReadFile(fsys, "ibstat"); err == nil {
		t.Error("read after Close")
	}
}
