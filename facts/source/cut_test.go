package source_test

import (
	"fmt"
	"io/fs"
	"os/exec"
	"strings"
	"testing"

	"github.com/rdmadoctor/rdmadoctor/facts/source"
)

// TestTruncatedArchive: an archive cut mid-stream (a copy that stopped) is read as far as it
// goes: the members before the cut are kept, the member it ended in is listed and unreadable
// with the cut as its error, and Truncated names that member and the byte offset.
func TestTruncatedArchive(t *testing.T) {
	hex := hexDigits(64<<10, 3) // cutting the stream in half cuts this member
	const before = "sos_commands/infiniband/ibstat"
	const cutIn = "sos_commands/infiniband/ibnetdiscover"
	valid := tarBytes(t, reg(before, "CA 'mlx5_0'\n"), reg(cutIn, hex), reg("sos_commands/pci/lspci_-nnvv", "00:00.0 x\n"))
	work := t.TempDir()
	for _, tc := range []struct {
		name string
		file string
		data []byte
	}{
		{"tar", "x.tar", valid[:len(valid)/2]},
		{"gz", "x.tar.gz", cut(gzipBytes(t, valid))},
		{"xz", "x.tar.xz", cut(xzBytes(t, valid))},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := exec.LookPath("xz"); err != nil && strings.HasSuffix(tc.file, ".xz") {
				t.Skip("xz-utils not installed (the pure-Go decoder is tested below)")
			}
			p := writeFile(t, work, tc.file, tc.data)
			fsys, _, err := source.Open(p)
			if err != nil {
				t.Fatalf("refused a cut archive whose first member is whole: %v", err)
			}
			tr, ok := fsys.(interface{ Truncated() *source.Cut })
			if !ok || tr.Truncated() == nil {
				t.Fatalf("Truncated() = nil, want the cut named")
			}
			c := tr.Truncated()
			if c.Member != cutIn || !c.Within || c.Offset <= 1024 || c.Offset >= int64(len(valid)) {
				t.Errorf("cut = %+v, want in member %s at an offset inside it", c, cutIn)
			}
			msg := c.String()
			if !strings.Contains(msg, "truncated archive") || !strings.Contains(msg, cutIn) || !strings.Contains(msg, fmt.Sprint(c.Offset)) {
				t.Errorf("String() = %q, want the member and offset named", msg)
			}
			if b, err := fs.ReadFile(fsys, before); err != nil || string(b) != "CA 'mlx5_0'\n" {
				t.Errorf("%s = %q, %v; want it read whole", before, b, err)
			}
			if _, err := fs.ReadFile(fsys, cutIn); err == nil || !strings.Contains(err.Error(), "truncated inside this member") {
				t.Errorf("reading %s: err = %v, want the cut", cutIn, err)
			}
			if _, err := fs.Stat(fsys, "sos_commands/pci/lspci_-nnvv"); err == nil {
				t.Errorf("a member after the cut is in the fs")
			}
		})
	}

	// The pure-Go xz decoder gives nothing of a block it has not read whole: a stream of one
	// block cut anywhere is refused as cut before its first member, which still says so.
	p := writeFile(t, work, "pure.tar.xz", cut(xzBytes(t, valid)))
	if _, _, err := source.OpenWith(p, source.Options{PureGoXZ: true}); err == nil || !strings.Contains(err.Error(), "truncated before the first member") {
		t.Errorf("pure-Go xz of a cut stream: err = %v, want truncated before the first member", err)
	}

	// Only the gzip trailer (its checksum) missing: every member is read, and the cut said.
	p = writeFile(t, work, "trailer.tar.gz", func(b []byte) []byte { return b[:len(b)-4] }(gzipBytes(t, valid)))
	fsys, _, err := source.Open(p)
	if err != nil {
		t.Fatalf("gzip without its trailer: %v", err)
	}
	if c := fsys.(interface{ Truncated() *source.Cut }).Truncated(); c == nil || c.Member != "" || !strings.Contains(c.String(), "every member was read") {
		t.Errorf("gzip without its trailer: cut = %+v, want the compressed stream's end named", c)
	}
	if _, err := fs.Stat(fsys, "sos_commands/pci/lspci_-nnvv"); err != nil {
		t.Errorf("gzip without its trailer: the last member is not read: %v", err)
	}

	// A whole archive names no cut.
	p = writeFile(t, work, "whole.tar.gz", gzipBytes(t, valid))
	fsys, _, err = source.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	if c := fsys.(interface{ Truncated() *source.Cut }).Truncated(); c != nil {
		t.Errorf("whole archive: Truncated() = %+v", c)
	}
}

// cut is the first half of a compressed stream.
func cut(b []byte) []byte { return b[:len(b)/2] }
