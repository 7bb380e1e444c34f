package source_test

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/facts/source"
)

// contents maps every file of fsys to its content.
func contents(t *testing.T, fsys fs.FS) map[string]string {
	t.Helper()
	got := map[string]string{}
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(fsys, p)
		got[p] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return got
}

func TestCaptures(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	p1 := writeFile(t, a, "ibstat.txt", []byte("CA 'mlx5_0'\n"))
	p2 := writeFile(t, b, "ibstat.txt", []byte("CA 'mlx5_1'\n"))
	p3 := writeFile(t, a, "lspci_-nnvv", []byte("81:00.0 Infiniband controller\n"))
	paths := []string{p1, "-", p2, p3}
	fsys, info, err := source.Captures(paths, strings.NewReader("Infiniband device 'mlx5_0' port 1 status:\n"))
	if err != nil {
		t.Fatal(err)
	}
	if want := (facts.SourceInfo{Kind: "captures", Path: strings.Join(paths, ", ")}); info != want {
		t.Errorf("info = %+v, want %+v", info, want)
	}
	want := map[string]string{
		"ibstat.txt":    "CA 'mlx5_0'\n",
		"stdin":         "Infiniband device 'mlx5_0' port 1 status:\n",
		"ibstat__2.txt": "CA 'mlx5_1'\n",
		"lspci_-nnvv":   "81:00.0 Infiniband controller\n",
	}
	if diff := cmp.Diff(want, contents(t, fsys)); diff != "" {
		t.Errorf("captures (-want +got):\n%s", diff)
	}
}

func TestCapturesRefused(t *testing.T) {
	d := t.TempDir()
	archive := writeFile(t, d, "report.tar.gz", gzipBytes(t, tarBytes(t, reg("a", "1"))))
	binary := writeFile(t, d, "core", []byte("\x7fELF\x02\x01\x01\x00\x00"))
	capture := strings.Repeat("CA 'mlx5_0'\n", 100)
	gz := writeFile(t, d, "ibstat.gz", gzipBytes(t, []byte(capture)))
	bz := writeFile(t, d, "ibstat.bz2", bzip2Bytes(t, []byte(capture)))
	xzFile := writeFile(t, d, "ibstat node1.xz", xzBytes(t, []byte(capture)))
	single := func(p, f, unpack, cat string) string {
		q := "'" + p + "'"
		if !strings.Contains(p, " ") {
			q = p
		}
		return p + ": is one file compressed with " + f + ", not a tar archive or a capture: decompress it (" + unpack + " " + q +
			") and give it to --input, or give --input <(" + cat + " " + q + ")"
	}
	for _, tc := range []struct {
		name  string
		paths []string
		msg   string
	}{
		{"archive", []string{archive}, archive + ": is a gzip archive, not a capture"},
		{"directory", []string{d}, d + ": is a directory: give a folder with --snapshot DIR"},
		{"gzip of a capture", []string{gz}, single(gz, "gzip", "gunzip", "zcat")},
		{"bzip2 of a capture", []string{bz}, single(bz, "bzip2", "bunzip2", "bzcat")},
		{"xz of a capture, quoted", []string{xzFile}, single(xzFile, "xz", "xz -d", "xzcat")},
		{"binary", []string{binary}, binary + ": binary data"},
		{"missing", []string{filepath.Join(d, "nope")}, filepath.Join(d, "nope") + ": no such file"},
		{"stdin twice", []string{"-", "-"}, "-: standard input given twice"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := source.Captures(tc.paths, strings.NewReader("x\n"))
			if err == nil || !strings.Contains(err.Error(), tc.msg) {
				t.Errorf("err = %v, want %q", err, tc.msg)
			}
		})
	}
}

func TestOpenSingleCapture(t *testing.T) {
	p := writeFile(t, t.TempDir(), "ibstat_node01", []byte("CA 'mlx5_0'\n"))
	fsys, info, err := source.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	if want := (facts.SourceInfo{Kind: "captures", Path: p}); info != want {
		t.Errorf("info = %+v, want %+v", info, want)
	}
	if diff := cmp.Diff(map[string]string{"ibstat_node01": "CA 'mlx5_0'\n"}, contents(t, fsys)); diff != "" {
		t.Errorf("captures (-want +got):\n%s", diff)
	}
}

func TestOpenDirectory(t *testing.T) {
	mk := func(t *testing.T, files map[string]string) string {
		t.Helper()
		d := t.TempDir()
		for name, body := range files {
			p := filepath.Join(d, filepath.FromSlash(name))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			writeFile(t, filepath.Dir(p), filepath.Base(p), []byte(body))
		}
		return d
	}

	t.Run("report folder inside", func(t *testing.T) {
		d := mk(t, map[string]string{
			"sosreport-node01-2024/sos_commands/infiniband/ibstat": "CA 'mlx5_0'\n",
			"sosreport-node01-2024.tar.xz.md5":                     "0123\n",
		})
		fsys, info, err := source.Open(d)
		if err != nil {
			t.Fatal(err)
		}
		if want := (facts.SourceInfo{Path: d}); info != want {
			t.Errorf("info = %+v, want %+v", info, want)
		}
		if diff := cmp.Diff(map[string]string{"sos_commands/infiniband/ibstat": "CA 'mlx5_0'\n"}, contents(t, fsys)); diff != "" {
			t.Errorf("files (-want +got):\n%s", diff)
		}
	})

	t.Run("folder of captures", func(t *testing.T) {
		files := map[string]string{"ibstat": "CA 'mlx5_0'\n", "node02/ibstatus": "Infiniband device 'mlx5_0'\n"}
		fsys, _, err := source.Open(mk(t, files))
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(files, contents(t, fsys)); diff != "" {
			t.Errorf("files (-want +got):\n%s", diff)
		}
	})

	t.Run("two reports", func(t *testing.T) {
		d := mk(t, map[string]string{"a/sos_commands/x": "1", "b/rdmadoctor.yaml": "2"})
		_, _, err := source.Open(d)
		if err == nil || !strings.Contains(err.Error(), d+": holds 2 reports (a, b)") {
			t.Errorf("err = %v, want two reports named", err)
		}
	})

	t.Run("symlink leaving the folder", func(t *testing.T) {
		outside := writeFile(t, t.TempDir(), "secret", []byte("secret\n"))
		d := mk(t, map[string]string{"ibstat": "CA 'mlx5_0'\n"})
		if err := os.Symlink(outside, filepath.Join(d, "escape")); err != nil {
			t.Fatal(err)
		}
		fsys, _, err := source.Open(d)
		if err != nil {
			t.Fatal(err)
		}
		if b, err := fs.ReadFile(fsys, "escape"); err == nil {
			t.Errorf("read %q through a link leaving the folder", b)
		}
	})
}

func TestOpenNotARegularFile(t *testing.T) {
	_, _, err := source.Open("/dev/null")
	if !errors.Is(err, source.ErrFormat) || !strings.Contains(err.Error(), "/dev/null: not a regular file") {
		t.Errorf("err = %v, want not a regular file", err)
	}
}
