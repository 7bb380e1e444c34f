package source_test

import (
	"archive/tar"
	"bytes"
	"errors"
	"io/fs"
	"path/filepath"
	"testing"

	"github.com/rdmadoctor/rdmadoctor/facts/source"
)

// FuzzOpenArchive opens arbitrary bytes as a snapshot file: it must return an fs or an error,
// never panic, and every fs it returns must be walkable and readable. It decodes xz in-process
// (the code that could panic; xz-utils runs in its own process).
//
// Each exec must be cheap for the fuzzer to get anywhere: the seeds are small (tar's padding
// and end-of-archive blocks cut off, which the reader accepts), since the fuzzer minimises
// every input that finds new coverage one byte at a time (for up to -fuzzminimizetime, 60 s by
// default: `make fuzz` sets 2 s), and the limits are small.
func FuzzOpenArchive(f *testing.F) {
	sos := fuzzSeed(f, reg("sos_commands/infiniband/ibstat", "CA 'mlx5_0'\n"), dir("sys/class"),
		symlink("lspci", "sos_commands/pci/lspci"), symlink("etc/x.service", "/usr/lib/x.service"))
	for _, seed := range [][]byte{
		sos,
		gzipBytes(f, sos),
		xzBytes(f, sos),
		fuzzSeed(f, reg("ibstat", "CA 'mlx5_0'\n"), symlink("l", "ibstat"), symlink("loop", "loop2"), symlink("loop2", "loop")),
		fuzzSeed(f, symlink("d", "."), reg("d/x", "1")),
		fuzzSeed(f, reg("../x", "1")),
		fuzzSeed(f, member{name: "h", typ: tar.TypeLink, link: "ibstat"}),
		fuzzSeed(f, member{name: "p", typ: tar.TypeFifo}),
		gzipBytes(f, []byte("not a tar\n")),
		[]byte("CA 'mlx5_0'\n\tCA type: MT4115\n"),
		{},
		{0x1f, 0x8b},
		{0xfd, '7', 'z', 'X', 'Z', 0x00},
	} {
		f.Add(seed)
	}
	work := f.TempDir() // one file rewritten by each exec: a new folder each costs more than the exec
	f.Fuzz(func(t *testing.T, data []byte) {
		p := writeFile(t, work, "in", data)
		fsys, _, err := source.OpenWith(p, source.Options{MaxMember: 4 << 10, MaxTotal: 64 << 10, MaxMembers: 64, PureGoXZ: true})
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

// fuzzSeed is a tar of ms without its trailing zero blocks (padding and end of archive).
func fuzzSeed(f *testing.F, ms ...member) []byte {
	return bytes.TrimRight(tarBytes(f, ms...), "\x00")
}
