package source_test

import (
	"bytes"
	"errors"
	"io/fs"
	"os/exec"
	"strings"
	"testing"

	"github.com/rdmadoctor/rdmadoctor/facts/source"
)

// TestCorruptArchiveFormats: every format behaves alike when its stream fails after a member
// was read: corrupted mid-file, the archive is read in part (Truncated names the failure and
// the decoder's complaint), never refused, never whole; with bytes after a whole archive
// (trailing garbage), every member is read and the archive is partial with the complaint. A
// decoder that gives nothing of a block it has not checked whole (bzip2, pure-Go xz: this
// archive is one block) may fail before the first member: then the archive is refused with
// the decoder's complaint, as nothing was read.
func TestCorruptArchiveFormats(t *testing.T) {
	hex := hexDigits(64<<10, 5) // the middle of the stream is this member
	const first, last = "sos_commands/infiniband/ibstat", "sos_commands/pci/lspci_-nnvv"
	valid := tarBytes(t, reg(first, "CA 'mlx5_0'\n"), reg("sos_commands/infiniband/ibnetdiscover", hex), reg(last, "00:00.0 x\n"))
	haveXZ := exec.Command("xz", "--version").Run() == nil
	work := t.TempDir()
	for _, tc := range []struct {
		name, file string
		pack       func(testing.TB, []byte) []byte
		opt        source.Options
		needXZ     bool
		blocks     bool // decodes a block whole before giving any of it
	}{
		{"gzip", "x.tar.gz", gzipBytes, source.Options{}, false, false},
		{"xz-utils", "x.tar.xz", xzBytes, source.Options{}, true, false},
		{"xz pure Go", "x.tar.xz", xzBytes, source.Options{PureGoXZ: true}, false, true},
		{"bzip2", "x.tar.bz2", bzip2Bytes, source.Options{}, false, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.needXZ && !haveXZ {
				t.Skip("xz-utils not installed")
			}
			packed := tc.pack(t, valid)
			bad := bytes.Clone(packed)
			copy(bad[len(bad)/2:], bytes.Repeat([]byte{0xff}, 16))
			for _, c := range []struct {
				name     string
				data     []byte
				wantLast bool // every member read
			}{
				{"corrupt mid-file", bad, false},
				{"trailing garbage", append(bytes.Clone(packed), "not an archive: trailing bytes\n"...), true},
			} {
				t.Run(c.name, func(t *testing.T) {
					p := writeFile(t, work, tc.file, c.data)
					fsys, _, err := source.OpenWith(p, tc.opt)
					if err != nil && tc.blocks && !c.wantLast {
						if !errors.Is(err, source.ErrFormat) || !strings.HasPrefix(err.Error(), p+": ") ||
							strings.Contains(err.Error(), "truncated") || strings.Contains(err.Error(), "not a tar archive") {
							t.Errorf("refused with %v, want the decoder's complaint and the file named", err)
						}
						return
					}
					if err != nil {
						t.Fatalf("refused an archive whose first member was read: %v", err)
					}
					cut := fsys.(interface{ Truncated() *source.Cut }).Truncated()
					if cut == nil {
						t.Fatalf("Truncated() = nil: a failing stream taken for a whole archive")
					}
					if cut.Err == nil || !strings.Contains(cut.String(), cut.Err.Error()) {
						t.Errorf("cut = %+v (%s): want the decoder's complaint named", cut, cut)
					}
					if b, err := fs.ReadFile(fsys, first); err != nil || string(b) != "CA 'mlx5_0'\n" {
						t.Errorf("%s = %q, %v; want it read", first, b, err)
					}
					_, err = fs.Stat(fsys, last)
					if got := err == nil; got != c.wantLast || c.wantLast != (cut.Member == "") {
						t.Errorf("last member read: %v (%v), cut %+v; want %v", got, err, cut, c.wantLast)
					}
				})
			}
		})
	}
}

// TestXZComplaintBeforeFirstMember: an xz stream that xz-utils refuses before any of it is
// decoded (its header asks for more memory than xzutils.MemLimit) is refused with xz-utils'
// complaint and the file named, not as a stream that "holds no tar archive".
func TestXZComplaintBeforeFirstMember(t *testing.T) {
	if exec.Command("xz", "--version").Run() != nil {
		t.Skip("xz-utils not installed")
	}
	cmd := exec.Command("xz", "-c", "-6", "--lzma2=dict=512MiB")
	cmd.Stdin = bytes.NewReader(tarBytes(t, reg("sos_commands/infiniband/ibstat", "CA 'mlx5_0'\n")))
	data, err := cmd.Output()
	if err != nil {
		t.Skipf("xz cannot write a 512 MiB dictionary here: %v", err)
	}
	p := writeFile(t, t.TempDir(), "big-dict.tar.xz", data)
	_, _, err = source.Open(p)
	if err == nil || !errors.Is(err, source.ErrFormat) || !strings.Contains(err.Error(), p+": xz: ") ||
		!strings.Contains(err.Error(), "Memory usage limit") || strings.Contains(err.Error(), "holds no tar archive") {
		t.Errorf("err = %v, want the file named and xz-utils' memory limit complaint", err)
	}
}

// TestCorruptPastFirstBlock: a decoder that gives a block (bzip2: up to 900 kB of the tar
// stream) or an LZMA2 chunk (pure-Go xz) only once it is decoded whole gives the blocks before a
// corrupt one: an archive corrupt past its first block is read in part like a gzip one (the
// members before the block kept, the decoder's complaint named), never refused. Corrupt in its
// first block, nothing of it was decoded, and it is refused (TestCorruptArchiveFormats).
func TestCorruptPastFirstBlock(t *testing.T) {
	const first, big, last = "sos_commands/infiniband/ibstat", "sos_commands/infiniband/ibnetdiscover", "sos_commands/pci/lspci_-nnvv"
	valid := tarBytes(t, reg(first, "CA 'mlx5_0'\n"), reg(big, hexDigits(1200<<10, 11)), reg(last, "00:00.0 x\n"))
	for _, tc := range []struct {
		name, file string
		pack       func(testing.TB, []byte) []byte
	}{
		{"xz pure Go", "x.tar.xz", xzBytes},
		{"bzip2", "x.tar.bz2", bzip2Bytes},
	} {
		t.Run(tc.name, func(t *testing.T) {
			bad := tc.pack(t, valid)
			copy(bad[len(bad)*3/4:], bytes.Repeat([]byte{0xff}, 16)) // past 900 kB of the tar stream
			p := writeFile(t, t.TempDir(), tc.file, bad)
			fsys, _, err := source.OpenWith(p, source.Options{PureGoXZ: true})
			if err != nil {
				t.Fatalf("refused an archive corrupt past its first block: %v", err)
			}
			cut := fsys.(interface{ Truncated() *source.Cut }).Truncated()
			if cut == nil || cut.Err == nil || cut.Member != big || !cut.Within || !strings.Contains(cut.String(), "corrupt archive") {
				t.Fatalf("cut = %+v (%v), want corrupt in %s with the decoder's complaint", cut, cut, big)
			}
			if b, err := fs.ReadFile(fsys, first); err != nil || string(b) != "CA 'mlx5_0'\n" {
				t.Errorf("%s = %q, %v; want it read", first, b, err)
			}
			if _, err := fs.Stat(fsys, last); err == nil {
				t.Errorf("%s, after the corrupt block, is in the fs", last)
			}
		})
	}
}
