package source

import (
	"errors"
	"fmt"
	"io"
	"strings"
)

// Cut says where the stream of an archive read in part ended: cut short (a .tar.gz or .tar.xz
// cut mid-stream, a copy that stopped), or failing (corrupt: the decoder's or the tar reader's
// complaint is Err) after at least one member was read. The members before it were read; the
// member it ended in is listed, its content not kept; nothing after it is in the snapshot. A
// stream that fails before its first member is refused instead (an *Error of Kind ErrFormat,
// with the decoder's complaint).
type Cut struct {
	// Member is the member the stream ended in (Within) or after; "" when the tar's members
	// were read whole to its end-of-archive blocks and the compressed stream's end is missing
	// (cut short, or bytes appended after it, which xz-utils cannot tell apart), or (Err) what
	// follows them is not what the decoder reads: trailing bytes, or a corrupt end of the
	// compressed stream; "" too when bytes that are not zero padding follow them in the tar
	// stream (Trailing).
	Member string
	// Within is set when the stream ended inside Member's content.
	Within bool
	// Offset is how many bytes of the tar stream (uncompressed) were read when it ended.
	Offset int64
	// Err is why a stream that did not merely stop failed ("gzip: invalid checksum", xz-utils'
	// "xz: Compressed data is corrupt", "archive/tar: invalid tar header"); nil for a stream cut
	// short.
	Err error
	// Trailing, when set, says what follows the tar's end-of-archive blocks, from Offset (its
	// first byte that is not zero padding) on: every member before it was read, nothing from
	// Offset on is (trailer.go). Member is "" then.
	Trailing *Trailing
}

func (c *Cut) String() string {
	switch {
	case c.Trailing != nil:
		return c.trailing()
	case c.Err != nil && c.Within:
		return fmt.Sprintf("corrupt archive: the stream fails in member %q at byte %d of the tar stream (uncompressed) (%v): that member and any after it are not read; those before it are kept, and may be corrupt too", c.Member, c.Offset, c.Err)
	case c.Err != nil && c.Member != "":
		return fmt.Sprintf("corrupt archive: the stream fails after member %q at byte %d of the tar stream (uncompressed) (%v): any member after it is not read; those before it are kept, and may be corrupt too", c.Member, c.Offset, c.Err)
	case c.Err != nil:
		return fmt.Sprintf("corrupt or trailing bytes after the archive's end: every member was read, to the tar's end-of-archive blocks (%d bytes of the tar stream, uncompressed), then the decoder failed (%v): bytes that are no part of the archive follow it, or the compressed stream is corrupt and what was read may be too", c.Offset, c.Err)
	case c.Within:
		return fmt.Sprintf("truncated archive: the stream ends in member %q at byte %d of the tar stream (uncompressed): that member and any after it are not read", c.Member, c.Offset)
	case c.Member != "":
		return fmt.Sprintf("truncated archive: the stream ends after member %q at byte %d of the tar stream (uncompressed): any member after it is not read", c.Member, c.Offset)
	}
	// The tar was read whole: xz-utils says "Unexpected end of input" both for a stream
	// whose last bytes are missing and for bytes appended after it.
	return fmt.Sprintf("trailing bytes after the archive or a cut compressed stream: every member was read, to the tar's end-of-archive blocks (%d bytes of the tar stream, uncompressed), but the compressed stream does not end where it should: bytes that are no part of the archive follow it, or its last bytes are missing (a copy that stopped short); the members are kept", c.Offset)
}

// trailing is String for a Cut with Trailing set.
func (c *Cut) trailing() string {
	t := c.Trailing
	size := fmt.Sprintf("%d bytes", t.Bytes)
	if t.Bytes == 1 {
		size = "1 byte"
	}
	if t.AtLeast {
		size = "at least " + size + " (the size limit stopped the count)"
	}
	msg := fmt.Sprintf("trailing bytes after the archive: %s that are not zero padding follow its end-of-archive blocks, from byte %d of the tar stream (uncompressed), and are not read: its members are kept; give each archive by itself", size, c.Offset)
	if t.Archive {
		msg = fmt.Sprintf("concatenated archives: a second tar archive (%s) follows the first's end-of-archive blocks, from byte %d of the tar stream (uncompressed), and is not read (it may be another host's: hosts are never merged): the first's members are kept; give each archive by itself", size, c.Offset)
	}
	if c.Err != nil {
		msg += fmt.Sprintf(" (the decoder then failed: %v)", c.Err)
	}
	return msg
}

// Truncated returns where the archive's stream ended before its end, or nil when it was read
// whole (or is no archive).
func (m memFS) Truncated() *Cut { return m.cut }

// errCutMember is the error of the member a truncated stream ended in; errCorruptMember of
// the member a corrupt stream failed in.
var (
	errCutMember     = errors.New("not read: the archive is truncated inside this member")
	errCorruptMember = errors.New("not read: the archive's stream is corrupt inside this member")
)

// broken says whether err, met reading an archive's stream, is the stream failing: cut short,
// corrupt, or not tar where a header should be. Limits and refusals are not.
func broken(err error) bool {
	return err != nil && !errors.Is(err, errTotal) && !isRefusal(err)
}

// cutAt records that the stream failed with err in (within) or after member, at the offset
// read so far; n, when set, is that member's node, listed unread with the cut as its error.
func (a *archive) cutAt(member string, within bool, err error, n *node) {
	a.cut, a.cutNode = &Cut{Member: member, Within: within, Offset: a.stream.n}, n
	a.blame(err)
}

// blame records err as why the stream ended where a.cut says, unless err is the stream being
// cut short (isCut); it sets the error of the member the stream ended in.
func (a *archive) blame(err error) {
	if err != nil && !isCut(err) && a.cut.Err == nil {
		a.cut.Err = err
	}
	if a.cutNode != nil {
		a.cutNode.err = errCutMember
		if a.cut.Err != nil {
			a.cutNode.err = errCorruptMember
		}
	}
}

// outcome is what the reading of an archive comes to, from the tar walk's error err (nil when
// it read members up to a cut, or read the stream whole: whole) and the decoder's complaint at
// its end, derr:
//   - a stream that ended before the tar's end, after a member was read, is read in part (the
//     cut: derr, the complaint of xz-utils, says it is corrupt rather than cut short);
//   - a tar read whole to its end-of-archive blocks after which the decoder failed is read in
//     part too (Cut without Member), every member read: trailing bytes, or the compressed
//     stream's end missing or corrupt;
//   - a tar read whole to its end-of-archive blocks and followed by bytes that are not zero
//     padding is read in part (Cut with Trailing, set by readEnd), derr or not;
//   - a stream that failed before its first member is refused with the decoder's complaint,
//     when it has one (an xz header asking more memory than xzutils.MemLimit: xz-utils says
//     so), not with what the tar reader made of the stream's end.
func (a *archive) outcome(last string, whole bool, err, derr error) error {
	var e *Error
	switch {
	case a.cut != nil:
		a.blame(derr)
		return nil
	case whole && last != "" && broken(err):
		a.cut = &Cut{Offset: a.stream.n}
		a.blame(err)
		return nil
	case whole && last != "" && err == nil && derr != nil:
		a.cut = &Cut{Offset: a.stream.n}
		a.blame(derr)
		return nil
	case whole && err != nil:
		return a.streamError(last, err) // a limit, or the decoder failing after an empty tar
	case derr == nil:
		return err
	case err == nil || last == "" && (!isCut(derr) || a.stream.n == 0):
		return a.fail("", ErrFormat, "%w", derr)
	case errors.As(err, &e) && e.Kind == ErrFormat:
		e.Err = fmt.Errorf("%w (%w)", e.Err, derr)
	}
	return err
}

// isCut says whether err (of the tar reader, or of the decoder at its end) is the stream ending
// before its end: Go's readers' io.ErrUnexpectedEOF, or xz-utils' complaint.
func isCut(err error) bool {
	return errors.Is(err, io.ErrUnexpectedEOF) || strings.Contains(fmt.Sprint(err), "Unexpected end of input")
}
