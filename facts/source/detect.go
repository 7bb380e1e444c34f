package source

import (
	"bytes"
	"fmt"
	"strings"
	"unicode/utf8"
)

// format is what a file holds, told from its first bytes.
type format int

const (
	formatEmpty format = iota
	formatText
	formatBinary
	formatTar
	formatGzip
	formatXZ
	formatBzip2
	formatZstd
	formatZip
)

func (f format) String() string {
	return [...]string{"empty", "text", "binary", "tar", "gzip", "xz", "bzip2", "zstd", "zip"}[f]
}

func (f format) isArchive() bool { return f >= formatTar }

// sniffLen is how many leading bytes sniff needs: a tar header block, and enough text to tell
// a capture from binary data.
const sniffLen = 8192

// sniff tells the format from the leading bytes by magic numbers, never by file name.
func sniff(head []byte) format {
	switch {
	case len(head) == 0:
		return formatEmpty
	case bytes.HasPrefix(head, []byte{0x1f, 0x8b}):
		return formatGzip
	case bytes.HasPrefix(head, []byte{0xfd, '7', 'z', 'X', 'Z', 0x00}):
		return formatXZ
	case len(head) >= 4 && bytes.HasPrefix(head, []byte("BZh")) && head[3] >= '1' && head[3] <= '9':
		return formatBzip2
	case bytes.HasPrefix(head, []byte{0x28, 0xb5, 0x2f, 0xfd}):
		return formatZstd
	case bytes.HasPrefix(head, []byte("PK\x03\x04")) || bytes.HasPrefix(head, []byte("PK\x05\x06")):
		return formatZip
	case isTarHeader(head):
		return formatTar
	case IsBinary(head):
		return formatBinary
	}
	return formatText
}

// IsBinary reports whether data, a file or its leading bytes, is binary rather than captured
// text: a NUL byte in its first 8 KiB (UTF-16 text counts as binary), or mostly bytes that are
// neither UTF-8 nor printable. A stray Latin-1 byte ("DMI: Soci\xe9t\xe9") or a UTF-8 BOM is
// text: Text replaces what does not decode. It is the test --input applies, shared so that a
// snapshot's files are held to the same rule.
func IsBinary(data []byte) bool {
	head := trimPartialRune(data[:min(len(data), sniffLen)])
	if bytes.IndexByte(head, 0) >= 0 || bytes.HasPrefix(head, []byte{0xff, 0xfe}) || bytes.HasPrefix(head, []byte{0xfe, 0xff}) {
		return true
	}
	bad := 0
	for i := 0; i < len(head); {
		r, n := utf8.DecodeRune(head[i:])
		if r == utf8.RuneError && n == 1 || r < 0x20 && !strings.ContainsRune("\t\n\r\f\v\x1b\b", r) || r == 0x7f {
			bad++
		}
		i += n
	}
	// One or two stray bytes are a Latin-1 word; more than a tenth of the text is not text.
	return bad > 2 && bad*10 > len(head)
}

// Text is data as parsers read it: without a UTF-8 byte order mark, and with each byte that is
// not UTF-8 replaced by U+FFFD, so one undecodable byte costs that character, not the file.
func Text(data []byte) []byte {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	if utf8.Valid(data) {
		return data
	}
	return bytes.ToValidUTF8(data, []byte("\uFFFD"))
}

// IsCompressed reports whether data starts like a compressed stream or archive (gzip, xz,
// bzip2, zstd, zip): in a snapshot, a rotated log (messages-20240101.gz) rather than a capture.
func IsCompressed(data []byte) bool {
	f := sniff(data[:min(len(data), sniffLen)])
	return f.isArchive() && f != formatTar
}

// isTarHeader reports whether head starts with a tar header block: the ustar/GNU magic, or
// (for old v7 archives) a valid header checksum.
func isTarHeader(head []byte) bool {
	if len(head) < 512 {
		return false
	}
	if bytes.HasPrefix(head[257:], []byte("ustar")) {
		return true
	}
	// Header checksum: sum of the 512 bytes with the 8-byte checksum field counted as spaces.
	field := bytes.TrimRight(bytes.TrimLeft(head[148:156], " "), " \x00")
	if len(field) == 0 {
		return false
	}
	want := 0
	for _, c := range field {
		if c < '0' || c > '7' {
			return false
		}
		want = want*8 + int(c-'0')
	}
	sum := 0
	for i, c := range head[:512] {
		if i >= 148 && i < 156 {
			c = ' '
		}
		sum += int(c)
	}
	return sum == want && head[0] != 0
}

// trimPartialRune drops an incomplete UTF-8 sequence cut off at the end of a sniffed prefix.
func trimPartialRune(b []byte) []byte {
	for i := 1; i < utf8.UTFMax && i <= len(b); i++ {
		if utf8.RuneStart(b[len(b)-i]) {
			if !utf8.FullRune(b[len(b)-i:]) {
				return b[:len(b)-i]
			}
			break
		}
	}
	return b
}

// archiveSuffixes are names that promise an archive; such a file that is not one is refused
// rather than read as a capture.
var archiveSuffixes = []string{".tar", ".tgz", ".txz", ".tbz2", ".gz", ".xz", ".bz2", ".zst"}

func looksLikeArchiveName(name string) bool {
	for _, s := range archiveSuffixes {
		if strings.HasSuffix(strings.ToLower(name), s) {
			return true
		}
	}
	return false
}

// Blank reports whether data, a whole capture, holds nothing to read: 0 bytes, or only
// whitespace (after a UTF-8 byte order mark). A command that failed or printed nothing (an
// `ssh node ibstat` that could not connect) leaves such a file: it says nothing, not "no device".
func Blank(data []byte) bool {
	return len(bytes.TrimSpace(bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")))) == 0
}

// BlankReason is the error of a blank capture of size bytes, e.g. "empty (0 bytes): nothing
// in it to read" or "empty (3 bytes, whitespace only): nothing in it to read".
func BlankReason(size int) string {
	if size == 0 {
		return "empty (0 bytes): nothing in it to read"
	}
	return fmt.Sprintf("empty (%d bytes, whitespace only): nothing in it to read", size)
}
