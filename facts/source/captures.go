package source

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/rdmadoctor/rdmadoctor/facts"
)

// StdinName is the name a capture read from standard input ("-") gets.
const StdinName = "stdin"

// Captures reads single captured outputs (--input FILE, repeatable; "-" is stdin) into an fs
// that holds each at its root under its base name, so gather recognises it by name or, failing
// that, by content. Two captures with the same base name are told apart as name__2, name__3
// (before a .txt/.out/.log suffix). Archives, directories, binary files and files over
// DefaultMaxMember are refused with an error naming the file.
func Captures(paths []string, stdin io.Reader) (fs.FS, facts.SourceInfo, error) {
	info := facts.SourceInfo{Kind: "captures", Path: strings.Join(paths, ", ")}
	m := memFS{root: newDir(".")}
	seenStdin := false
	for _, p := range paths {
		name := filepath.Base(p)
		var r io.Reader
		if p == "-" {
			if seenStdin {
				return nil, info, &Error{Path: p, Kind: ErrFormat, Err: errors.New("standard input given twice")}
			}
			if stdin == nil {
				return nil, info, &Error{Path: p, Kind: ErrFormat, Err: errors.New("no standard input")}
			}
			seenStdin, name, r = true, StdinName, stdin
		} else {
			f, err := openRegular(p)
			if err != nil {
				return nil, info, err
			}
			defer f.Close()
			r = f
		}
		data, err := readCapture(p, r, DefaultMaxMember)
		if err != nil {
			return nil, info, err
		}
		addCapture(m, name, data)
	}
	return m, info, nil
}

// readCapture reads one capture, refusing what is not text.
func readCapture(p string, r io.Reader, limit int64) ([]byte, error) {
	br := bufio.NewReaderSize(r, sniffLen)
	head, err := br.Peek(sniffLen)
	if err != nil && err != io.EOF && err != bufio.ErrBufferFull {
		return nil, fmt.Errorf("read %s: %w", p, err)
	}
	switch f := sniff(head); {
	case f.isArchive():
		if _, ok := unpackers[f]; ok && singleFile(compressedHead(br, f, limit)) {
			return nil, singleFileError(p, f) // refused: br may be read on
		}
		return nil, &Error{Path: p, Kind: ErrFormat, Err: fmt.Errorf("is a %s archive, not a capture: open it as a snapshot", f)}
	case f == formatBinary:
		return nil, &Error{Path: p, Kind: ErrFormat, Err: errors.New("binary data, not a captured text output")}
	}
	data, err := io.ReadAll(io.LimitReader(br, limit+1))
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", p, err)
	}
	if int64(len(data)) > limit {
		return nil, &Error{Path: p, Kind: ErrLimit, Err: fmt.Errorf("larger than %d bytes: not a single capture", limit)}
	}
	if Blank(data) {
		// The command feeding it failed or printed nothing: unreadable input, never "no RDMA".
		if p == "-" {
			p = "standard input (-)"
		}
		return nil, &Error{Path: p, Kind: ErrFormat, Err: errors.New(BlankReason(len(data)))}
	}
	return data, nil
}

// captureSuffixes are the extensions gather strips from capture names; a "__N" that tells two
// captures apart goes before them.
var captureSuffixes = []string{".txt", ".out", ".log"}

// addCapture places data at the root under name, or under name__N when name is taken.
func addCapture(m memFS, name string, data []byte) {
	stem, ext := name, ""
	for _, s := range captureSuffixes {
		if strings.HasSuffix(name, s) && len(name) > len(s) {
			stem, ext = strings.TrimSuffix(name, s), s
			break
		}
	}
	for i := 2; m.root.kids[name] != nil; i++ {
		name = stem + "__" + strconv.Itoa(i) + ext
	}
	m.root.kids[name] = &node{name: name, mode: 0o644, size: int64(len(data)), data: data}
}
