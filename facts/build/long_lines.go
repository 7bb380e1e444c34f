package build

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"sort"

	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/facts/parse"
)

// A line longer than parse.MaxLineBytes (64 KiB; no tool this reads prints one, a kernel log
// line is at most 1 KiB) is not read: a parser would see a cut half-line, or a reader hold
// megabytes of it. It is named, with its number and length, and the source is partial. The
// builder does this for every input, read whole (cutLongLines) or streamed (lineCapper), so no
// parser has to.

// longQuote is how much of a long line its problem quotes.
const longQuote = 120

// longProblem is the problem of line n, of size bytes starting with head; last says the file
// ends in it without a newline.
func longProblem(n int, head []byte, size int64, last bool) facts.Problem {
	why := fmt.Sprintf("a line of %d bytes, longer than the %d bytes one line may have: not read", size, parse.MaxLineBytes)
	if last {
		why += " (the file ends in it, without a newline)"
	}
	return facts.Problem{Line: n, Text: string(head[:min(len(head), longQuote)]), Why: why}
}

// cutLongLines returns b with every line longer than parse.MaxLineBytes emptied (its newline
// kept, so the lines after it keep their numbers) and a problem naming each; b itself, and no
// problem, when no line is that long.
func cutLongLines(b []byte) ([]byte, parse.Problems) {
	if len(b) <= parse.MaxLineBytes {
		return b, nil // most inputs: no line of it can be too long
	}
	var long parse.Problems
	var out []byte // a copy, made at the first long line
	start, kept, n := 0, 0, 1
	for start < len(b) {
		end := len(b)
		if i := bytes.IndexByte(b[start:], '\n'); i >= 0 {
			end = start + i
		}
		if end-start > parse.MaxLineBytes {
			long = append(long, longProblem(n, b[start:end], int64(end-start), end == len(b)))
			if out == nil {
				out = make([]byte, 0, len(b))
			}
			out = append(out, b[kept:start]...)
			kept = end // the newline, if any, is kept
		}
		start, n = end+1, n+1
	}
	if out == nil {
		return b, nil
	}
	return append(out, b[kept:]...), long
}

// lineCapper passes a stream through with its lines longer than parse.MaxLineBytes emptied, as
// cutLongLines does, holding at most one line of parse.MaxLineBytes; Long names them.
type lineCapper struct {
	r       *bufio.Reader
	pending []byte // what is left of the last line read, to hand out
	n       int    // the number of the next line
	err     error
	Long    parse.Problems
}

func newLineCapper(r io.Reader) *lineCapper {
	return &lineCapper{r: bufio.NewReaderSize(r, parse.MaxLineBytes+1), n: 1}
}

func (c *lineCapper) Read(p []byte) (int, error) {
	k := 0
	for k < len(p) {
		if len(c.pending) == 0 {
			if c.err != nil || k > 0 && c.r.Buffered() == 0 {
				break // hand out what is there before waiting on the stream
			}
			c.next()
			continue
		}
		m := copy(p[k:], c.pending)
		c.pending, k = c.pending[m:], k+m
	}
	if k == 0 {
		return 0, c.err
	}
	return k, nil
}

// next reads the next line into pending (valid until the next read of r), or sets err.
func (c *lineCapper) next() {
	line, err := c.r.ReadSlice('\n')
	if err == bufio.ErrBufferFull {
		head := bytes.Clone(line[:longQuote])
		size := int64(len(line))
		for err == bufio.ErrBufferFull {
			line, err = c.r.ReadSlice('\n')
			size += int64(len(line))
		}
		ended := len(line) > 0 && line[len(line)-1] == '\n'
		if ended {
			size--
		}
		c.Long = append(c.Long, longProblem(c.n, head, size, !ended))
		line = line[len(line)-min(len(line), 1):] // its newline, if any
		if !ended {
			line = nil
		}
	}
	if len(line) > 0 || err == nil {
		c.n++
	}
	c.pending, c.err = line, err
}

// withLong adds the long lines to src, a source read without an error: partial, its problems
// in line order.
func withLong(src facts.Source, long parse.Problems) facts.Source {
	if len(long) == 0 || src.Status != facts.StatusOK && src.Status != facts.StatusPartial {
		return src
	}
	all := append(append(parse.Problems{}, long...), src.Problems...)
	sort.SliceStable(all, func(i, j int) bool { return all[i].Line < all[j].Line })
	more := src.MoreProblems
	src.Status = facts.StatusPartial
	src.Problems, src.MoreProblems = capProblems(all)
	src.MoreProblems += more
	summary := parse.Problems(src.Problems)
	src.Error = facts.Clip(partialSummary(summary), facts.MaxMessageBytes)
	if n := len(all) + more; n != len(summary) {
		src.Error = facts.Clip(fmt.Sprintf("%d lines not used: %s", n, summary.Error()), facts.MaxMessageBytes)
	}
	return src
}
