package live

import (
	"archive/tar"
	"compress/gzip"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"testing/fstest"
)

// Write stores the snapshot at dest: a .tar.gz (or .tgz) archive whose members sit under one
// top-level folder named after the archive, or else a directory, created if needed and
// required to be empty so an earlier snapshot is never mixed in.
func Write(tree fstest.MapFS, dest string) error { return WriteTop(tree, dest, nil) }

// WriteTop is Write with the archive's top folder named by top(the name Write gives it, the
// file's name without .tar.gz), e.g. a redactor's Name; nil keeps that name.
func WriteTop(tree fstest.MapFS, dest string, top func(string) string) error {
	if err := CheckDest(dest); err != nil {
		return err
	}
	if isTarGz(dest) {
		name := strings.TrimSuffix(strings.TrimSuffix(filepath.Base(dest), ".tgz"), ".tar.gz")
		if top != nil {
			name = top(name)
		}
		return writeTarGz(tree, dest, name)
	}
	return writeDir(tree, dest)
}

func isTarGz(dest string) bool {
	return strings.HasSuffix(dest, ".tar.gz") || strings.HasSuffix(dest, ".tgz")
}

// otherArchives are names that look like an archive Write cannot make: refused rather than
// silently made a directory of that name.
var otherArchives = []string{".zip", ".tar", ".tar.xz", ".txz", ".xz", ".gz", ".tar.bz2", ".bz2", ".tar.zst"}

// CheckDest says whether Write can store a snapshot at dest, so a gather can refuse a bad -o
// before it runs: a FILE.tar.gz that does not exist yet, or a directory that is new or empty.
func CheckDest(dest string) error {
	if isTarGz(dest) {
		if _, err := os.Lstat(dest); err == nil {
			return fmt.Errorf("write %s: already exists; remove it or choose another name", dest)
		}
		if st, err := os.Stat(filepath.Dir(dest)); err != nil || !st.IsDir() {
			return fmt.Errorf("write %s: no directory %s to write it in", dest, filepath.Dir(dest))
		}
		return nil
	}
	for _, ext := range otherArchives {
		if strings.HasSuffix(dest, ext) {
			return fmt.Errorf("write %s: only a directory or FILE.tar.gz can be written", dest)
		}
	}
	if ents, err := os.ReadDir(dest); err == nil && len(ents) > 0 {
		return fmt.Errorf("write %s: directory is not empty", dest)
	} else if err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("write %s: %w", dest, err)
	}
	return nil
}

func sortedPaths(tree fstest.MapFS) []string {
	ps := make([]string, 0, len(tree))
	for p := range tree {
		ps = append(ps, p)
	}
	sort.Strings(ps)
	return ps
}

func writeDir(tree fstest.MapFS, dir string) error {
	for _, p := range sortedPaths(tree) {
		dst := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return fmt.Errorf("write %s: %w", dir, err)
		}
		if err := os.WriteFile(dst, tree[p].Data, 0o644); err != nil {
			return fmt.Errorf("write %s: %w", dir, err)
		}
	}
	return nil
}

func writeTarGz(tree fstest.MapFS, dest, top string) (err error) {
	f, err := os.Create(dest)
	if err != nil {
		return fmt.Errorf("write %s: %w", dest, err)
	}
	defer func() {
		if cerr := f.Close(); err == nil && cerr != nil {
			err = fmt.Errorf("write %s: %w", dest, cerr)
		}
		if err != nil {
			os.Remove(dest)
		}
	}()
	zw := gzip.NewWriter(f)
	tw := tar.NewWriter(zw)
	dirs := map[string]bool{}
	for _, p := range sortedPaths(tree) {
		mf := tree[p]
		for _, d := range parents(path.Join(top, p)) {
			if dirs[d] {
				continue
			}
			dirs[d] = true
			if err := tw.WriteHeader(&tar.Header{Typeflag: tar.TypeDir, Name: d + "/", Mode: 0o755, ModTime: mf.ModTime}); err != nil {
				return fmt.Errorf("write %s: %w", dest, err)
			}
		}
		hdr := &tar.Header{Typeflag: tar.TypeReg, Name: path.Join(top, p), Mode: 0o644, Size: int64(len(mf.Data)), ModTime: mf.ModTime}
		if err := tw.WriteHeader(hdr); err != nil {
			return fmt.Errorf("write %s: %w", dest, err)
		}
		if _, err := tw.Write(mf.Data); err != nil {
			return fmt.Errorf("write %s: %w", dest, err)
		}
	}
	if err := tw.Close(); err != nil {
		return fmt.Errorf("write %s: %w", dest, err)
	}
	if err := zw.Close(); err != nil {
		return fmt.Errorf("write %s: %w", dest, err)
	}
	return nil
}

// parents returns the folders above p, outermost first: "a/b/c" -> ["a", "a/b"].
func parents(p string) []string {
	var out []string
	for d := path.Dir(p); d != "." && d != "/"; d = path.Dir(d) {
		out = append([]string{d}, out...)
	}
	return out
}
