package source

import (
	"bufio"
	"io"
	"os"
	"path"
	"strings"
	"time"

	"github.com/rdmadoctor/rdmadoctor/internal/xzahead"
	"github.com/rdmadoctor/rdmadoctor/internal/xzutils"
)

// xzStream returns the decompressed stream of r and a function that ends the decoding. It runs
// xz-utils when installed, writing into a pipe (about four times faster than the pure-Go
// decoder; nothing touches the disk), and github.com/ulikunitz/xz otherwise or when pureGo is
// set (the function is then nil: the caller runs the decoder in a goroutine). When file (the
// file r reads from) is regular, xz-utils reads it from its start itself: the one started
// before the program initialised, for the archive the command line names (internal/xzahead),
// when file is that archive, else one started now.
func xzStream(r io.Reader, file *os.File, pureGo bool) (io.Reader, func(kill bool) error, error) {
	if tool := xzutils.Tool(); tool != "" && !pureGo {
		if file != nil {
			if st, err := file.Stat(); err == nil && st.Mode().IsRegular() {
				if p := xzahead.Take(st); p != nil {
					return decoded(p), p.Finish, nil
				}
				if _, err := file.Seek(0, io.SeekStart); err == nil {
					return startXZ(tool, file)
				}
			}
		}
		return startXZ(tool, r)
	}
	xr, err := inProcess(r, formatXZ)
	return xr, nil, err
}

// startXZ runs `xz --decompress --stdout` with r as its input (xzutils.Start). The function it
// returns kills xz when asked (the caller stops early), waits for it, and returns what xz
// complained about.
func startXZ(tool string, r io.Reader) (io.Reader, func(kill bool) error, error) {
	p, err := xzutils.Start(tool, r)
	if err != nil {
		return nil, nil, err
	}
	return decoded(p), p.Finish, nil
}

// decoded reads the output of xz-utils in large chunks: the tar reader asks for 512-byte
// headers.
func decoded(p *xzutils.Process) io.Reader {
	out := p.Output()
	return bufio.NewReaderSize(&batchedPipe{r: out, pause: func() { pipePause(out) }}, 1<<20)
}

// batchedPipe reads xz-utils' output in batches. xz writes 8 KiB at a time, and the tar walk,
// faster than the decoder, waits on the pipe: each write woke it, a park and a wake-up of the
// goroutine in Go's poller per 8 KiB, which cost half as much CPU as the decoding itself (the
// system time of a diagnose of a sosreport of 8,000 files: 0.29 s against 0.02 s for `xz -dc
// > /dev/null`). A read that got less than batchMin pauses batchPause, while the decoder fills
// the pipe (1 MiB, xzutils.Start), and reads on, until it has batchMin, the caller's buffer is
// full or the stream ends: one wake-up per ~100 KiB, at most batchPause later. The pause
// (pipePause) ends early once the decoder has closed the pipe, so that the last batch is read
// as soon as it exits, not up to two pauses later.
type batchedPipe struct {
	r     io.Reader
	pause func() // batchPause, or less
}

const (
	batchMin   = 256 << 10
	batchPause = time.Millisecond
)

func (b *batchedPipe) Read(p []byte) (int, error) {
	n, err := b.r.Read(p)
	for err == nil && n < len(p) && n < batchMin {
		b.pause()
		var k int
		k, err = b.r.Read(p[n:])
		n += k
	}
	if n > 0 && err == io.EOF {
		err = nil // the next Read says it
	}
	return n, err
}

// xzComplaint is what xz-utils wrote on its standard error, msg, in one line without the name
// it gives itself and its input's ("/usr/bin/xz: (stdin): Memory usage limit reached\n/usr/bin/xz:
// 1 MiB of memory is required. The limit is 256 MiB." is "Memory usage limit reached; 1 MiB of
// memory is required. The limit is 256 MiB."): the archive's path names the input.
func xzComplaint(msg string) string {
	var lines []string
	for _, line := range strings.Split(strings.TrimSpace(msg), "\n") {
		if prog, rest, ok := strings.Cut(line, ": "); ok && !strings.ContainsAny(prog, " \t") && path.Base(prog) == "xz" {
			line = rest
		}
		if line = strings.TrimSpace(strings.TrimPrefix(line, "(stdin): ")); line != "" {
			lines = append(lines, line)
		}
	}
	return strings.Join(lines, "; ")
}
