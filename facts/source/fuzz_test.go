package source_test

import (
	"archive/tar"
	"errors"
	"io/fs"
	"path/filepath"
	"testing"

	"github.com/rdmadoctor/rdmadoctor/facts/source"
)

// FuzzOpenArchive opens arbitrary bytes as a snapshot file: it must return an fs or an error,
// never panic, and every fs it returns must be walkable and readable. It decodes xz in-process
// (the code that could panic; xz-utils runs in its own process).
func FuzzOpenArchive(f *testing.F) {
	sos := tarBytes(f, sosMembers()...)
	for _, seed := range [][]byte{
		sos,
		gzipBytes(f, sos),
		xzBytes(f, sos),
		tarBytes(f, reg("ibstat", "CA 'mlx5_0'\n"), symlink("l", "ibstat"), symlink("loop", "loop2"), symlink("loop2", "loop")),
		tarBytes(f, symlink("d", "."), reg("d/x", "1")),
		tarBytes(f, reg("../x", "1")),
		tarBytes(f, member{name: "p", typ: tar.TypeFifo}),
		gzipBytes(f, []byte("not a tar\n")),
		[]byte("CA 'mlx5_0'\n\tCA type: MT4115\n"),
		{},
		{0x1f, 0x8b},
		{0xfd, '7', 'z', 'X', 'Z', 0x00},
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		p := writeFile(t, t.TempDir(), "in", data)
		fsys, _, err := source.OpenWith(p, source.Options{MaxMember: 1 << 16, MaxTotal: 1 << 20, MaxMembers: 1000, PureGoXZ: true})
		if err != nil {
			var se *source.Error
			if !errors.As(err, &se) || filepath.Clean(se.Path) != p {
				t.Fatalf("error %v does not name the input", err)
			}
			return
		}
		err = fs.WalkDir(fsys, ".", func(name string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if !fs.ValidPath(name) {
				t.Errorf("invalid path %q", name)
			}
			if !d.IsDir() {
				fs.ReadFile(fsys, name) // may fail (dangling links, loops), must not panic
			}
			return nil
		})
		if err != nil {
			t.Errorf("walk: %v", err)
		}
	})
}
