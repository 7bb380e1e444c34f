package source_test

import (
	"archive/tar"
	"archive/zip"
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/rdmadoctor/rdmadoctor/facts/source"
)

// noWrites fails the test if anything appeared in the working directory or in sentinel while
// hostile inputs were opened: archives are never extracted to disk.
func noWrites(t *testing.T, sentinel string) {
	t.Helper()
	before := listDir(t, ".")
	t.Cleanup(func() {
		if got := listDir(t, sentinel); len(got) != 0 {
			t.Errorf("files written to the sentinel folder: %v", got)
		}
		if after := listDir(t, "."); strings.Join(after, ",") != strings.Join(before, ",") {
			t.Errorf("working directory changed: before %v, after %v", before, after)
		}
	})
}

func listDir(t *testing.T, d string) []string {
	t.Helper()
	es, err := os.ReadDir(d)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range es {
		names = append(names, e.Name())
	}
	return names
}

func TestOpenHostile(t *testing.T) {
	tmp := t.TempDir()
	sentinel := filepath.Join(tmp, "sentinel")
	if err := os.Mkdir(sentinel, 0o755); err != nil {
		t.Fatal(err)
	}
	noWrites(t, sentinel)
	// The archives live two levels below tmp, so "../../sentinel/x" would land in the sentinel.
	work := filepath.Join(tmp, "a", "b")
	if err := os.MkdirAll(work, 0o755); err != nil {
		t.Fatal(err)
	}

	rng := rand.New(rand.NewPCG(1, 2))
	garbage := make([]byte, 8192)
	for i := range garbage {
		garbage[i] = byte(rng.Uint32())
	}
	// Hex digits barely compress, so cutting the compressed stream in half cuts this member.
	var hex strings.Builder
	for range 32 << 10 {
		fmt.Fprintf(&hex, "%x", rng.Uint32()&0xf)
	}
	valid := tarBytes(t, reg("sos_commands/infiniband/ibstat", hex.String()))
	validXZ, validGZ := xzBytes(t, valid), gzipBytes(t, valid)
	zeros := tarBytes(t, reg("sos_commands/logs/journal", strings.Repeat("\x00", 4<<20)))
	// A member nothing keeps still counts against the stream limit, not against the kept one.
	skippedZeros := tarBytes(t, reg("var/log/journal/big", strings.Repeat("\x00", 4<<20)))
	skipVar := func(name string) bool { return !strings.HasPrefix(name, "var/") }

	for _, tc := range []struct {
		name      string
		file      string
		data      []byte
		opt       source.Options
		kind      error  // ErrUnsafe, ErrLimit, ErrFormat
		member    string // named in the error, when one is at fault
		anyMember bool   // the decoder decides how far it gets before it fails
		msg       string // part of the message
	}{
		{name: "path traversal", file: "x.tar", data: tarBytes(t, reg("ok", "1"), reg("../../sentinel/pwned", "x")),
			kind: source.ErrUnsafe, member: "../../sentinel/pwned", msg: "leaves the archive"},
		{name: "traversal inside a path", file: "x.tar.gz", data: gzipBytes(t, tarBytes(t, reg("a/../../../sentinel/pwned", "x"))),
			kind: source.ErrUnsafe, member: "a/../../../sentinel/pwned", msg: "leaves the archive"},
		{name: "absolute path", file: "x.tar", data: tarBytes(t, reg(sentinel+"/pwned", "x")),
			kind: source.ErrUnsafe, member: sentinel + "/pwned", msg: "absolute path"},
		{name: "write below an absolute symlink", file: "x.tar", data: tarBytes(t, symlink("d", "/tmp"), reg("d/pwned", "x")),
			kind: source.ErrUnsafe, member: "d/pwned", msg: "below a symbolic link"},
		{name: "write through a symlink", file: "x.tar", data: tarBytes(t, symlink("d", "."), reg("d/pwned", "x")),
			kind: source.ErrUnsafe, member: "d/pwned", msg: "below a symbolic link"},
		{name: "hard link escape", file: "x.tar", data: tarBytes(t, member{name: "h", typ: tar.TypeLink, link: "../../sentinel/x"}),
			kind: source.ErrUnsafe, member: "h", msg: "leaves the archive"},
		{name: "fifo member", file: "x.tar", data: tarBytes(t, member{name: "sos_commands/pipe", typ: tar.TypeFifo}),
			kind: source.ErrUnsafe, member: "sos_commands/pipe", msg: "FIFO"},
		{name: "char device member", file: "x.tar.gz", data: gzipBytes(t, tarBytes(t, member{name: "dev/null", typ: tar.TypeChar})),
			kind: source.ErrUnsafe, member: "dev/null", msg: "character device"},
		{name: "block device member", file: "x.tar", data: tarBytes(t, member{name: "sda", typ: tar.TypeBlock}),
			kind: source.ErrUnsafe, member: "sda", msg: "block device"},
		{name: "expands past the stream limit (gz)", file: "bomb.tar.gz", data: gzipBytes(t, zeros), opt: source.Options{MaxStream: 1 << 20},
			kind: source.ErrLimit, member: "sos_commands/logs/journal", msg: "more than 1048576 bytes uncompressed"},
		{name: "expands past the stream limit (xz)", file: "bomb.tar.xz", data: xzBytes(t, zeros), opt: source.Options{MaxStream: 1 << 20},
			kind: source.ErrLimit, member: "sos_commands/logs/journal", msg: "more than 1048576 bytes uncompressed"},
		{name: "kept members past the kept limit", file: "big.tar.gz", data: gzipBytes(t, tarBytes(t, reg("sos_commands/infiniband/ibstat", strings.Repeat("x", 2<<20)))), opt: source.Options{MaxTotal: 1 << 20},
			kind: source.ErrLimit, member: "sos_commands/infiniband/ibstat", msg: "more than 1048576 bytes uncompressed kept"},
		{name: "skipped member past the stream limit (gz)", file: "bomb.tar.gz", data: gzipBytes(t, skippedZeros), opt: source.Options{MaxStream: 1 << 20, Want: skipVar},
			kind: source.ErrLimit, member: "var/log/journal/big", msg: "more than 1048576 bytes uncompressed"},
		{name: "skipped member past the stream limit (xz)", file: "bomb.tar.xz", data: xzBytes(t, skippedZeros), opt: source.Options{MaxStream: 1 << 20, Want: skipVar},
			kind: source.ErrLimit, member: "var/log/journal/big", msg: "more than 1048576 bytes uncompressed"},
		{name: "too many members", file: "many.tar", data: tarBytes(t, reg("a", ""), reg("b", ""), reg("c", "")), opt: source.Options{MaxMembers: 2},
			kind: source.ErrLimit, msg: "more than 2 members"},
		{name: "xz header only", file: "x.tar.xz", data: validXZ[:14], kind: source.ErrFormat},
		{name: "gzip header only", file: "x.tar.gz", data: validGZ[:12], kind: source.ErrFormat, msg: "truncated before the first member"},
		{name: "gzip of text, not tar", file: "x.tar.gz", data: gzipBytes(t, []byte(strings.Repeat("CA 'mlx5_0'\n", 100))), kind: source.ErrFormat, msg: "is one file compressed with gzip, not a tar archive or a capture: decompress it (gunzip "},
		{name: "gzip of a short text, not tar", file: "ibstat.gz", data: gzipBytes(t, []byte("CA 'mlx5_0'\n")), kind: source.ErrFormat, msg: "give it to --input, or give --input <(zcat "},
		{name: "xz of text, not tar", file: "ibstat.xz", data: xzBytes(t, []byte(strings.Repeat("CA 'mlx5_0'\n", 100))), kind: source.ErrFormat, msg: "is one file compressed with xz, not a tar archive or a capture: decompress it (xz -d "},
		{name: "bzip2 of text, not tar", file: "ibstat.bz2", data: bzip2Bytes(t, []byte(strings.Repeat("CA 'mlx5_0'\n", 100))), kind: source.ErrFormat, msg: "(bunzip2 "},
		{name: "garbage named as archive", file: "garbage.tar.gz", data: garbage, kind: source.ErrFormat, msg: "not a tar, gzip, xz or bzip2 archive"},
		{name: "garbage", file: "garbage.bin", data: garbage, kind: source.ErrFormat, msg: "binary data"},
		{name: "zstd", file: "x.tar.zst", data: []byte{0x28, 0xb5, 0x2f, 0xfd, 0, 0, 0, 0}, kind: source.ErrFormat, msg: "zstd compression is not supported"},
		{name: "zip", file: "sosreport.zip", data: zipBytes(t), kind: source.ErrFormat, msg: "zip compression is not supported"},
		{name: "empty file", file: "empty.tar.xz", data: []byte{}, kind: source.ErrFormat, msg: "empty (0 bytes)"},
	} {
		for _, pureGo := range []bool{false, true} {
			name := tc.name
			if strings.HasSuffix(tc.file, ".xz") {
				name += map[bool]string{false: " (xz-utils)", true: " (pure Go)"}[pureGo]
			} else if pureGo {
				continue
			}
			t.Run(name, func(t *testing.T) {
				p := writeFile(t, work, tc.file, tc.data)
				opt := tc.opt
				opt.PureGoXZ = pureGo
				fsys, _, err := source.OpenWith(p, opt)
				if err == nil {
					t.Fatalf("opened, with members %v; want a refusal", walk(t, fsys))
				}
				if !errors.Is(err, tc.kind) {
					t.Errorf("err = %v, want kind %v", err, tc.kind)
				}
				var se *source.Error
				if !errors.As(err, &se) || se.Path != p || (se.Member != tc.member && !tc.anyMember) {
					t.Errorf("err = %v, want path %s and member %q", err, p, tc.member)
				}
				if !strings.Contains(err.Error(), p) || !strings.Contains(err.Error(), tc.msg) {
					t.Errorf("message %q does not name the archive or say %q", err, tc.msg)
				}
				t.Log(err)
			})
		}
	}
}

// TestSkippedBytesAreNotKept: the members nothing reads (gigabytes of journals in a real
// sosreport) pass the stream by without counting against the limit on what is kept in memory.
func TestSkippedBytesAreNotKept(t *testing.T) {
	data := gzipBytes(t, tarBytes(t, reg("var/log/journal/big", strings.Repeat("\x00", 4<<20)), reg("sos_commands/infiniband/ibstat", "CA 'mlx5_0'\n")))
	p := writeFile(t, t.TempDir(), "sos.tar.gz", data)
	fsys, _, err := source.OpenWith(p, source.Options{MaxTotal: 1 << 20, Want: func(name string) bool { return !strings.HasPrefix(name, "var/") }})
	if err != nil {
		t.Fatalf("refused an archive whose kept members are 12 bytes: %v", err)
	}
	if b, err := fs.ReadFile(fsys, "sos_commands/infiniband/ibstat"); err != nil || string(b) != "CA 'mlx5_0'\n" {
		t.Errorf("ibstat = %q, %v", b, err)
	}
}

func TestOpenMissingOrUnreadable(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "no-such-dir")
	_, _, err := source.Open(missing)
	if !errors.Is(err, fs.ErrNotExist) || !strings.Contains(err.Error(), missing) {
		t.Errorf("missing: err = %v, want not-exist naming %s", err, missing)
	}

	if os.Geteuid() == 0 {
		t.Skip("root reads files whatever their mode")
	}
	p := writeFile(t, t.TempDir(), "x.tar", tarBytes(t, reg("a", "1")))
	if err := os.Chmod(p, 0); err != nil {
		t.Fatal(err)
	}
	_, _, err = source.Open(p)
	if !errors.Is(err, fs.ErrPermission) || !strings.Contains(err.Error(), p) {
		t.Errorf("unreadable: err = %v, want permission error naming %s", err, p)
	}
}

// TestOpenMillionMembers streams a tar of 1,000,000 empty members (512 MB of headers,
// gzip-compressed on disk) and checks the member-count limit refuses it early; it logs the time
// and memory it took.
func TestOpenMillionMembers(t *testing.T) {
	if testing.Short() {
		t.Skip("writes a 1,000,000-member archive")
	}
	p := filepath.Join(t.TempDir(), "million.tar.gz")
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	bw := bufio.NewWriterSize(f, 1<<20)
	zw, _ := gzip.NewWriterLevel(bw, gzip.BestSpeed)
	tw := tar.NewWriter(zw)
	start := time.Now()
	for i := range 1_000_000 {
		if err := tw.WriteHeader(&tar.Header{Name: fmt.Sprintf("f%07d", i), Typeflag: tar.TypeReg, Mode: 0o644}); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []interface{ Close() error }{tw, zw} {
		if err := c.Close(); err != nil {
			t.Fatal(err)
		}
	}
	if err := bw.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	st, _ := os.Stat(p)
	t.Logf("wrote %d members, %d bytes compressed, in %v", 1_000_000, st.Size(), time.Since(start))

	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	start = time.Now()
	_, _, err = source.Open(p)
	elapsed := time.Since(start)
	runtime.ReadMemStats(&after)
	if !errors.Is(err, source.ErrLimit) || !strings.Contains(err.Error(), "more than 200000 members") {
		t.Fatalf("err = %v, want the member-count limit", err)
	}
	t.Logf("refused after %v, %d MB allocated, peak heap %d MB: %v", elapsed,
		(after.TotalAlloc-before.TotalAlloc)>>20, after.HeapSys>>20, err)
}

// zipBytes is a real zip archive (archive/zip) of one capture.
func zipBytes(t *testing.T) []byte {
	var b bytes.Buffer
	zw := zip.NewWriter(&b)
	w, err := zw.Create("ibstat")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write([]byte("CA 'mlx5_0'\n")); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}
