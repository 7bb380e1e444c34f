package source

import (
	"fmt"
	"io"
	"sync"
)

// readaheadChunk is the size of one chunk a readahead reads ahead; readaheadDepth chunks are
// in flight at most (one being read, the others filled or being filled).
const (
	readaheadChunk = 1 << 20
	readaheadDepth = 3
)

// readahead reads r in a goroutine of its own, up to readaheadDepth chunks ahead of its reader:
// decompressing (gzip, bzip2, xz in-process) or reading the file then runs on one core and the
// tar walk on another, as the xz-utils pipe does for .xz. A panic of the decoder on hostile
// input becomes the read error.
type readahead struct {
	chunks chan []byte // filled chunks, closed after the last one (err is set before)
	free   chan []byte
	done   chan struct{}
	stop   func()
	err    error
	cur    []byte // what is left of the chunk being read
	last   []byte // that chunk, to give back once read
}

func newReadahead(r io.Reader) *readahead {
	ra := &readahead{chunks: make(chan []byte, readaheadDepth), free: make(chan []byte, readaheadDepth), done: make(chan struct{})}
	ra.stop = sync.OnceFunc(func() { close(ra.done) })
	for range readaheadDepth {
		ra.free <- make([]byte, readaheadChunk)
	}
	go ra.fill(r)
	return ra
}

func (ra *readahead) fill(r io.Reader) {
	defer close(ra.chunks)
	defer func() {
		if p := recover(); p != nil {
			ra.err = fmt.Errorf("decoder failed: %v", p)
		}
	}()
	for {
		var buf []byte
		select {
		case buf = <-ra.free:
		case <-ra.done:
			ra.err = io.ErrClosedPipe
			return
		}
		n, err := fillChunk(r, buf)
		if n > 0 {
			select {
			case ra.chunks <- buf[:n]:
			case <-ra.done:
				ra.err = io.ErrClosedPipe
				return
			}
		}
		if err != nil {
			ra.err = err
			return
		}
	}
}

// fillChunk reads r into buf until buf is full or r fails; the error is r's own (io.EOF at the
// end: a truncated stream's io.ErrUnexpectedEOF is kept as it is).
func fillChunk(r io.Reader, buf []byte) (int, error) {
	n := 0
	for n < len(buf) {
		k, err := r.Read(buf[n:])
		n += k
		if err != nil {
			return n, err
		}
	}
	return n, nil
}

func (ra *readahead) Read(p []byte) (int, error) {
	for len(ra.cur) == 0 {
		if ra.last != nil {
			ra.free <- ra.last[:cap(ra.last)]
			ra.last = nil
		}
		buf, ok := <-ra.chunks
		if !ok {
			return 0, ra.err
		}
		ra.cur, ra.last = buf, buf
	}
	n := copy(p, ra.cur)
	ra.cur = ra.cur[n:]
	return n, nil
}
