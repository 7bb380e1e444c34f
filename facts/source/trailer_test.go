package source_test

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os/exec"
	"strings"
	"testing"

	"github.com/rdmadoctor/rdmadoctor/facts/source"
)

// TestAfterArchiveEnd: what follows a tar's end-of-archive blocks in the stream, in every
// format (a .tar.gz or .tar.xz decodes `cat a.tar.gz b.tar.gz` as one stream): zero padding of
// any length is the archive's, and it is read whole; a second archive, or any byte that is not
// zero, makes it partial: Truncated names the offset of that byte in the tar stream, how many
// bytes follow and whether they are a tar archive, and the second archive's members are not in
// the fs (it may be another host's).
func TestAfterArchiveEnd(t *testing.T) {
	const first, second = "ibstat", "node29/ibstat" // the second, were it merged, would be in its own folder
	a := tarBytes(t, reg(first, "CA 'mlx5_0'\n"), reg("lspci", hexDigits(3000, 7)))
	b := tarBytes(t, reg(second, "CA 'mlx4_0'\n"))
	zeros := func(n int) []byte { return make([]byte, n) }
	haveXZ := exec.Command("xz", "--version").Run() == nil
	type stream struct {
		name   string
		parts  [][]byte // the tar stream, compressed part by part and concatenated
		offset int      // of the first byte that is not zero; -1 for a whole archive
		after  int      // bytes from there on
		tar    bool     // they start with a tar header
	}
	for _, f := range []struct {
		name, file string
		pack       func(testing.TB, []byte) []byte
		opt        source.Options
		needXZ     bool
	}{
		{"tar", "x.tar", func(_ testing.TB, b []byte) []byte { return b }, source.Options{}, false},
		{"gzip", "x.tar.gz", gzipBytes, source.Options{}, false},
		{"xz-utils", "x.tar.xz", xzBytes, source.Options{}, true},
		{"xz pure Go", "x.tar.xz", xzBytes, source.Options{PureGoXZ: true}, false},
		{"bzip2", "x.tar.bz2", bzip2Bytes, source.Options{}, false},
	} {
		t.Run(f.name, func(t *testing.T) {
			if f.needXZ && !haveXZ {
				t.Skip("xz-utils not installed")
			}
			pad := 10240 - len(a)%10240 // to a 10240-byte record, as GNU tar and sos write
			for _, s := range []stream{
				{"whole", [][]byte{a}, -1, 0, false},
				{"padded to a record", [][]byte{append(a, zeros(pad)...)}, -1, 0, false},
				{"padded over several reads", [][]byte{append(a, zeros(3<<20+5)...)}, -1, 0, false},
				{"padding in a stream of its own", [][]byte{a, zeros(10240)}, -1, 0, false},
				{"concatenated", [][]byte{a, b}, len(a), len(b), true},
				{"concatenated after padding", [][]byte{append(a, zeros(pad)...), append(b, zeros(10240-len(b))...)}, len(a) + pad, 10240, true},
				// The second header spans the first two reads of what follows the end.
				{"second header across reads", [][]byte{append(a, zeros(64<<10-100)...), b}, len(a) + 64<<10 - 100, len(b), true},
				{"one byte after padding", [][]byte{append(a, zeros(1<<20+3)...), []byte("x")}, len(a) + 1<<20 + 3, 1, false},
				{"text after the end", [][]byte{a, []byte("not an archive\n")}, len(a), 15, false},
			} {
				t.Run(s.name, func(t *testing.T) {
					var data []byte
					for _, p := range s.parts {
						data = append(data, f.pack(t, p)...)
					}
					p := writeFile(t, t.TempDir(), f.file, data)
					fsys, _, err := source.OpenWith(p, f.opt)
					if err != nil {
						t.Fatalf("refused: %v", err)
					}
					cut := fsys.(interface{ Truncated() *source.Cut }).Truncated()
					if s.offset < 0 {
						if cut != nil {
							t.Fatalf("Truncated() = %+v (%s), want a whole archive", cut, cut)
						}
					} else {
						if cut == nil || cut.Trailing == nil {
							t.Fatalf("Truncated() = %+v: bytes after the archive's end taken for padding", cut)
						}
						want := source.Trailing{Bytes: int64(s.after), Archive: s.tar}
						if cut.Member != "" || cut.Offset != int64(s.offset) || *cut.Trailing != want || cut.Err != nil {
							t.Errorf("cut = %+v, trailing %+v; want at %d, trailing %+v", cut, *cut.Trailing, s.offset, want)
						}
						msg, size := cut.String(), fmt.Sprintf("(%d bytes)", s.after)
						if !s.tar {
							size = fmt.Sprintf(": %d bytes that", s.after)
						}
						if s.after == 1 {
							size = ": 1 byte that"
						}
						lead := map[bool]string{true: "concatenated archives: a second tar archive (", false: "trailing bytes after the archive: "}[s.tar]
						if !strings.HasPrefix(msg, lead) || !strings.Contains(msg, size) ||
							!strings.Contains(msg, fmt.Sprintf("from byte %d of the tar stream", s.offset)) || !strings.HasSuffix(msg, "give each archive by itself") {
							t.Errorf("String() = %q, want what follows, its size, the offset and what to do", msg)
						}
					}
					if b, err := fs.ReadFile(fsys, first); err != nil || string(b) != "CA 'mlx5_0'\n" {
						t.Errorf("%s = %q, %v; want the first archive read", first, b, err)
					}
					if _, err := fs.Stat(fsys, second); err == nil {
						t.Errorf("%s, of the second archive, is in the fs", second)
					}
				})
			}
		})
	}
}

// TestAfterArchiveEndLimit: what follows the archive's end is read within the size limit: a
// second archive past it is counted to the limit (a partial archive that says "at least"),
// zero padding past it refuses the archive as any stream past the limit is.
func TestAfterArchiveEndLimit(t *testing.T) {
	a := tarBytes(t, reg("node07/ibstat", "CA 'mlx5_0'\n"))
	b := tarBytes(t, reg("node29/ibstat", hexDigits(8000, 9)))
	work := t.TempDir()
	opt := source.Options{MaxStream: int64(len(a) + 4096)}

	p := writeFile(t, work, "both.tar.gz", append(gzipBytes(t, a), gzipBytes(t, b)...))
	fsys, _, err := source.OpenWith(p, opt)
	if err != nil {
		t.Fatalf("refused: %v", err)
	}
	cut := fsys.(interface{ Truncated() *source.Cut }).Truncated()
	if cut == nil || cut.Trailing == nil || !cut.Trailing.AtLeast || !cut.Trailing.Archive || cut.Offset != int64(len(a)) ||
		cut.Trailing.Bytes <= 4096 || cut.Trailing.Bytes >= int64(len(b)) || !strings.Contains(cut.String(), "at least ") {
		t.Fatalf("cut = %+v (%v), want the second archive counted to the limit", cut, cut)
	}

	p = writeFile(t, work, "padded.tar.gz", gzipBytes(t, append(bytes.Clone(a), make([]byte, 8192)...)))
	if _, _, err := source.OpenWith(p, opt); !errors.Is(err, source.ErrLimit) {
		t.Errorf("padding past the size limit: err = %v, want ErrLimit", err)
	}
}

// TestJunkAfterCompressedStream: bytes appended to a compressed archive (`echo junk >>
// x.tar.xz`) after every member was read to the tar's end-of-archive blocks: the archive is
// partial, its members kept, and the cut worded as trailing bytes (or a cut compressed stream:
// xz-utils cannot tell the two apart), not as a truncated archive.
func TestJunkAfterCompressedStream(t *testing.T) {
	a := tarBytes(t, reg("ibstat", "CA 'mlx5_0'\n"), reg("lspci", hexDigits(3000, 7)))
	junk := []byte("hello junk\n")
	haveXZ := exec.Command("xz", "--version").Run() == nil
	for _, f := range []struct {
		name, file string
		pack       func(testing.TB, []byte) []byte
		opt        source.Options
		needXZ     bool
	}{
		{"gzip", "x.tar.gz", gzipBytes, source.Options{}, false},
		{"xz-utils", "x.tar.xz", xzBytes, source.Options{}, true},
		{"xz pure Go", "x.tar.xz", xzBytes, source.Options{PureGoXZ: true}, false},
	} {
		t.Run(f.name, func(t *testing.T) {
			if f.needXZ && !haveXZ {
				t.Skip("xz-utils not installed")
			}
			p := writeFile(t, t.TempDir(), f.file, append(f.pack(t, a), junk...))
			fsys, _, err := source.OpenWith(p, f.opt)
			if err != nil {
				t.Fatalf("refused: %v", err)
			}
			cut := fsys.(interface{ Truncated() *source.Cut }).Truncated()
			if cut == nil {
				t.Fatal("Truncated() = nil: the junk is not named")
			}
			msg := cut.String()
			if cut.Member != "" || !strings.Contains(msg, "trailing bytes after the archive") ||
				!strings.Contains(msg, "every member was read") || strings.Contains(msg, "truncated archive") {
				t.Errorf("cut = %+v, String() = %q: want trailing bytes, every member read", cut, msg)
			}
			for _, m := range []string{"ibstat", "lspci"} {
				if _, err := fs.ReadFile(fsys, m); err != nil {
					t.Errorf("%s not read: %v", m, err)
				}
			}
		})
	}
}
