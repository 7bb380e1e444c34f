package source

import (
	"bytes"
	"errors"
	"io"
)

// Trailing is what follows a tar archive's end-of-archive blocks in its stream other than zero
// padding: a second archive (`cat a.tar.gz b.tar.gz > both.tar.gz`, which gzip and xz decode as
// one stream), or bytes that are no part of any. None of it is read: a second archive may be
// another host's, and two hosts are never merged.
type Trailing struct {
	// Bytes is how many bytes of the tar stream (uncompressed) follow, from the first that is
	// not zero (Cut.Offset) to the stream's end; a lower bound when AtLeast is set.
	Bytes int64
	// Archive is set when those bytes start with a tar header (isTarHeader).
	Archive bool
	// AtLeast is set when the size limit (Options.MaxStream) stopped the count.
	AtLeast bool
}

// endChunk is how much of the stream after the tar's end is checked at a time against
// zeroChunk.
const endChunk = 64 << 10

var zeroChunk [endChunk]byte

// readEnd reads what follows the tar's end-of-archive blocks in r (the tar stream, a.stream,
// just after them) to the stream's end, so that the decoder checks the whole stream, within
// the size limit. Zero padding of any length (GNU tar and sos pad to 10240-byte records) is
// the archive's; at the first byte that is not zero the archive is read in part: a.cut has no
// Member, its Offset is that byte's, its Trailing says what follows (counted to the end), and
// its Err is the decoder's complaint, if it failed after that byte. The error is the stream's:
// nil at its end, errTotal past the size limit, or the decoder's failure.
func (a *archive) readEnd(r io.Reader) error {
	buf := make([]byte, endChunk)
	var head []byte // the first tarBlock bytes from the first that is not zero
	for {
		n, err := r.Read(buf)
		chunk := buf[:n]
		if a.cut == nil && n > 0 && !bytes.Equal(chunk, zeroChunk[:n]) {
			i := 0
			for chunk[i] == 0 {
				i++
			}
			a.cut = &Cut{Offset: a.stream.n - int64(n-i), Trailing: &Trailing{}}
			chunk = chunk[i:]
		}
		if a.cut != nil && len(head) < tarBlock {
			head = append(head, chunk[:min(len(chunk), tarBlock-len(head))]...)
		}
		if err == nil {
			continue
		}
		if err == io.EOF {
			err = nil
		}
		if a.cut != nil {
			t := a.cut.Trailing
			t.Bytes, t.Archive, t.AtLeast = a.stream.n-a.cut.Offset, isTarHeader(head), errors.Is(err, errTotal)
			if broken(err) {
				a.blame(err)
			}
		}
		return err
	}
}
