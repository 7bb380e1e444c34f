package source

import (
	"bufio"
	"errors"
	"io"
)

// errNoSeek answers archive/tar's probe (Seek(0, io.SeekCurrent)) when the stream can only be
// read: it then reads what it skips.
var errNoSeek = errors.New("stream cannot skip")

// Seek skips offset bytes of the stream (whence io.SeekCurrent, offset >= 0) without copying
// them, when it reads from a *bufio.Reader (xz-utils' pipe: decoded), and returns the count of
// bytes read through c so far. archive/tar skips a member's content so (its discard), seeking to
// its last byte and reading that: a stream that ends early is found by that read, as when the
// skipped bytes are read (Seek stops at the end, without error). Past max it stops at max+1 and
// fails with errTotal, as Read does.
func (c *cappedReader) Seek(offset int64, whence int) (int64, error) {
	br, ok := c.r.(*bufio.Reader)
	if !ok || whence != io.SeekCurrent || offset < 0 {
		return 0, errNoSeek
	}
	if c.n > c.max {
		return c.n, errTotal
	}
	k, err := br.Discard(int(min(offset, c.max-c.n+1)))
	c.n += int64(k)
	switch {
	case c.n > c.max:
		return c.n, errTotal
	case err == io.EOF:
		err = nil // the read of the last byte says it
	}
	return c.n, err
}
