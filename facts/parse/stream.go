package parse

import (
	"bufio"
	"bytes"
	"io"
	"unsafe"
)

// MaxLineBytes caps the text kept of one line of a streamed input (a kernel log line is at most
// 1 KiB): the rest of a longer line is read and dropped, so a file without newlines cannot make
// a reader hold it whole. The builder never gives a parser a longer line of any input: it names
// it as not read (facts/build/long_lines.go).
const MaxLineBytes = 64 << 10

// EachLine calls fn with every line of r, numbered from 1, without its line ending ("\n" or
// "\r\n"), and cut to MaxLineBytes. It holds one line at a time, and allocates nothing per line:
// the Line's Text is valid only during the call (strings.Clone what is kept). A final newline
// adds no empty line. It returns the read error, if any, other than io.EOF.
func EachLine(r io.Reader, fn func(Line)) error {
	br := bufio.NewReaderSize(r, 64<<10)
	var long []byte // the start of a line longer than the reader's buffer
	for n := 1; ; {
		chunk, err := br.ReadSlice('\n')
		if err == bufio.ErrBufferFull {
			if room := MaxLineBytes - len(long); room > 0 {
				long = append(long, chunk[:min(len(chunk), room)]...)
			}
			continue
		}
		line := chunk
		if long != nil {
			if room := MaxLineBytes - len(long); room > 0 {
				long = append(long, chunk[:min(len(chunk), room)]...)
			}
			line, long = long, nil
		}
		if len(line) > 0 {
			line = bytes.TrimSuffix(bytes.TrimSuffix(line, []byte("\n")), []byte("\r"))
			fn(Line{N: n, Text: unsafe.String(unsafe.SliceData(line), len(line))})
			n++
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}
