package source

import (
	"bytes"
	"compress/flate"
	"fmt"
	"io"
	"io/fs"
	"path"
)

// packAbove is the member size above which an archive member is kept deflated in memory
// (compress/flate, BestSpeed: about 15x smaller for a kernel log, at ~200 MB/s), and inflated
// again as it is read: 16 kernel logs of 60 MB then hold ~70 MB, not 960 MB. Smaller members,
// most of a sosreport, are kept as they are.
const packAbove = 1 << 20

// pack reads size bytes of r into n, deflated.
func pack(n *node, r io.Reader, size int64) error {
	var buf chunks
	zw, err := flate.NewWriter(&buf, flate.BestSpeed)
	if err != nil {
		return err
	}
	if k, err := io.Copy(zw, io.LimitReader(r, size)); err != nil {
		return err
	} else if k < size {
		return io.ErrUnexpectedEOF
	}
	if err := zw.Close(); err != nil {
		return err
	}
	n.packed = buf
	return nil
}

// chunkBytes is the size of one chunk of packed content.
const chunkBytes = 256 << 10

// chunks is packed content in pieces of chunkBytes: a buffer grown by doubling would hold up to
// twice the content, and copy it at each step.
type chunks [][]byte

func (c *chunks) Write(b []byte) (int, error) {
	n := len(b)
	for len(b) > 0 {
		if len(*c) == 0 || len((*c)[len(*c)-1]) == chunkBytes {
			*c = append(*c, make([]byte, 0, chunkBytes))
		}
		last := &(*c)[len(*c)-1]
		k := min(len(b), chunkBytes-len(*last))
		*last = append(*last, b[:k]...)
		b = b[k:]
	}
	return n, nil
}

// reader reads the chunks in order.
func (c chunks) reader() io.Reader {
	rs := make([]io.Reader, len(c))
	for i, b := range c {
		rs[i] = bytes.NewReader(b)
	}
	return io.MultiReader(rs...)
}

// unpack returns the content of a packed node.
func unpack(n *node) ([]byte, error) {
	b := make([]byte, n.size)
	if _, err := io.ReadFull(flate.NewReader(n.packed.reader()), b); err != nil {
		return nil, fmt.Errorf("inflate: %w", err)
	}
	return b, nil
}

// packedFile reads a packed node, inflating it as it goes; it does not seek.
type packedFile struct {
	node *node
	name string
	r    io.ReadCloser
}

func openPacked(n *node, name string) *packedFile {
	return &packedFile{node: n, name: name, r: flate.NewReader(n.packed.reader())}
}

func (f *packedFile) Stat() (fs.FileInfo, error) { return info{f.node, path.Base(f.name)}, nil }
func (f *packedFile) Close() error               { return f.r.Close() }

func (f *packedFile) Read(b []byte) (int, error) {
	n, err := f.r.Read(b)
	if err != nil && err != io.EOF {
		err = &fs.PathError{Op: "read", Path: f.name, Err: err}
	}
	return n, err
}
