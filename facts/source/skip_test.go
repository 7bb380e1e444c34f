package source

import (
	"archive/tar"
	"bufio"
	"bytes"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestSeek: on xz-utils' stream (a bufio.Reader) Seek skips ahead, counting what it skipped,
// stops at the end of the stream without error and at the size limit with errTotal; any other
// stream, and any other whence, cannot seek.
func TestSeek(t *testing.T) {
	data := []byte(strings.Repeat("0123456789", 1000))
	c := &cappedReader{r: bufio.NewReaderSize(bytes.NewReader(data), 16), max: int64(len(data))}
	if pos, err := c.Seek(0, io.SeekCurrent); pos != 0 || err != nil {
		t.Fatalf("Seek(0) = %d, %v; want 0, nil", pos, err)
	}
	b := make([]byte, 3)
	if _, err := io.ReadFull(c, b); err != nil || string(b) != "012" {
		t.Fatalf("read %q, %v", b, err)
	}
	if pos, err := c.Seek(5004, io.SeekCurrent); pos != 5007 || err != nil {
		t.Fatalf("Seek(5004) = %d, %v; want 5007, nil", pos, err)
	}
	if _, err := io.ReadFull(c, b); err != nil || string(b) != "789" || c.n != 5010 {
		t.Fatalf("read %q, %v at %d after the seek; want 789 at 5010", b, err, c.n)
	}
	if pos, err := c.Seek(1<<20, io.SeekCurrent); pos != int64(len(data)) || err != nil {
		t.Fatalf("Seek past the end = %d, %v; want %d, nil", pos, err, len(data))
	}
	if k, err := c.Read(b); k != 0 || err != io.EOF {
		t.Fatalf("read at the end: %d, %v; want 0, EOF", k, err)
	}

	capped := &cappedReader{r: bufio.NewReader(bytes.NewReader(data)), max: 100}
	if pos, err := capped.Seek(1000, io.SeekCurrent); pos != 101 || err != errTotal {
		t.Fatalf("Seek over the limit = %d, %v; want 101, %v", pos, err, errTotal)
	}
	for _, tc := range []struct {
		name   string
		c      *cappedReader
		offset int64
		whence int
	}{
		{"not a bufio.Reader", &cappedReader{r: bytes.NewReader(data), max: 1 << 20}, 10, io.SeekCurrent},
		{"from the start", &cappedReader{r: bufio.NewReader(bytes.NewReader(data)), max: 1 << 20}, 10, io.SeekStart},
		{"backwards", &cappedReader{r: bufio.NewReader(bytes.NewReader(data)), max: 1 << 20}, -1, io.SeekCurrent},
	} {
		if _, err := tc.c.Seek(tc.offset, tc.whence); err != errNoSeek || tc.c.n != 0 {
			t.Errorf("%s: Seek = %v, at %d; want %v at 0", tc.name, err, tc.c.n, errNoSeek)
		}
	}
}

// TestSkipLikeRead: archive/tar walking a stream through cappedReader, skipping every
// member's content, sees the same members, the same error and the same count of bytes read
// (a cut's offset) when it seeks over the content (xz-utils' stream) as when it reads it: for
// the whole stream, the stream cut anywhere, and within a size limit.
func TestSkipLikeRead(t *testing.T) {
	var raw bytes.Buffer
	tw := tar.NewWriter(&raw)
	for i, size := range []int{0, 1, 511, 512, 513, 5000, 70000, 3} {
		if err := tw.WriteHeader(&tar.Header{Name: fmt.Sprintf("m%d", i), Mode: 0o644, Size: int64(size), Typeflag: tar.TypeReg}); err != nil {
			t.Fatal(err)
		}
		if _, err := tw.Write(bytes.Repeat([]byte{'a' + byte(i)}, size)); err != nil {
			t.Fatal(err)
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	whole := raw.Bytes()
	walk := func(r io.Reader, max int64) ([]string, int64) {
		c := &cappedReader{r: r, max: max}
		tr := tar.NewReader(c)
		var seen []string
		for {
			hdr, err := tr.Next()
			if err != nil {
				return append(seen, "error: "+err.Error()), c.n
			}
			seen = append(seen, hdr.Name)
		}
	}
	for cut := 0; cut <= len(whole); cut += 97 {
		for _, max := range []int64{1 << 40, 3000, 9000} {
			read, readN := walk(struct{ io.Reader }{bytes.NewReader(whole[:cut])}, max)
			sought, seekN := walk(bufio.NewReaderSize(bytes.NewReader(whole[:cut]), 1024), max)
			if diff := cmp.Diff(read, sought); diff != "" || readN != seekN {
				t.Errorf("cut at %d of %d, limit %d: read to %d, sought to %d (-read +sought):\n%s", cut, len(whole), max, readN, seekN, diff)
			}
			if cut == len(whole) && max == 1<<40 && read[len(read)-1] != "error: EOF" {
				t.Errorf("the whole stream ends with %q", read[len(read)-1])
			}
		}
	}
}
