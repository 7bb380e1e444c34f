package source

import (
	"bytes"
	"compress/bzip2"
	"compress/gzip"
	"fmt"
	"io"

	"github.com/rdmadoctor/rdmadoctor/internal/visible"
	"github.com/ulikunitz/xz"
)

// A compressed single file (`gzip ibstat`, a capture someone compressed to mail it) is neither a
// snapshot (no tar inside) nor a capture (compressed): both --snapshot and --input name it as
// what it is and say how to give it, instead of sending the user from one to the other.

// singleFileError is the error of path, compressed in format f (gzip, xz, bzip2), whose content
// is not a tar archive: decompress it and give it to --input, or give --input <(zcat path).
func singleFileError(path string, f format) *Error {
	t := unpackers[f]
	if path == "-" {
		return &Error{Path: path, Kind: ErrFormat, Err: fmt.Errorf(
			"is one file compressed with %s, not a tar archive or a capture: decompress it first (... | %s | rdmadoctor diagnose --input -)", f, t.cat)}
	}
	q := visible.ShellQuote(path)
	return &Error{Path: path, Kind: ErrFormat, Err: fmt.Errorf(
		"is one file compressed with %s, not a tar archive or a capture: decompress it (%s %s) and give it to --input, or give --input <(%s %s)",
		f, t.unpack, q, t.cat, q)}
}

// unpackers are the commands that decompress a file of each format in place, and to stdout.
var unpackers = map[format]struct{ unpack, cat string }{
	formatGzip:  {"gunzip", "zcat"},
	formatXZ:    {"xz -d", "xzcat"},
	formatBzip2: {"bunzip2", "bzcat"},
}

// compressedHead returns up to tarBlock bytes of what r, a stream compressed in format f, holds
// when decompressed: nil when nothing could be decompressed (a corrupt stream, another format).
// It reads from r as the decoder needs (for xz, a block), at most limit bytes of it.
func compressedHead(r io.Reader, f format, limit int64) []byte {
	dr, err := inProcess(io.LimitReader(r, limit), f)
	if err != nil {
		return nil
	}
	head, _ := io.ReadAll(io.LimitReader(dr, tarBlock))
	return head
}

// inProcess returns the decoder of r, compressed in format f, that runs in this process: Go's
// gzip and bzip2 readers, github.com/ulikunitz/xz for xz. Errors: the header the decoder
// refuses, or a format that is not one of the three.
func inProcess(r io.Reader, f format) (io.Reader, error) {
	switch f {
	case formatGzip:
		return gzip.NewReader(r)
	case formatXZ:
		return xz.NewReader(r)
	case formatBzip2:
		return bzip2.NewReader(r), nil
	}
	return nil, fmt.Errorf("%s is not a compression this reads", f)
}

// singleFile reports whether head, the first decompressed bytes of a compressed stream, is the
// start of one file rather than of a tar archive: text or binary data, not a tar header.
func singleFile(head []byte) bool {
	return len(bytes.TrimSpace(head)) > 0 && !isTarHeader(head)
}

// headRecorder passes a stream through, keeping a copy of its first tarBlock bytes.
type headRecorder struct {
	r    io.Reader
	head []byte
}

func (h *headRecorder) Read(p []byte) (int, error) {
	n, err := h.r.Read(p)
	if room := tarBlock - len(h.head); room > 0 {
		h.head = append(h.head, p[:min(n, room)]...)
	}
	return n, err
}
