package source

import (
	"errors"
	"fmt"
	"io"
	"strings"
)

// Cut says where the stream of a truncated archive (a .tar.gz or .tar.xz cut mid-stream, a
// copy that stopped) ended. The members before it were read; the member it ended in is listed,
// its content not kept; nothing after it is in the snapshot.
type Cut struct {
	// Member is the member the stream ended in (Within) or after; "" when the decoder found the
	// compressed stream's end missing after the tar's members were read whole.
	Member string
	// Within is set when the stream ended inside Member's content.
	Within bool
	// Offset is how many bytes of the tar stream (uncompressed) were read when it ended.
	Offset int64
}

func (c *Cut) String() string {
	switch {
	case c.Within:
		return fmt.Sprintf("truncated archive: the stream ends in member %q at byte %d of the tar stream (uncompressed): that member and any after it are not read", c.Member, c.Offset)
	case c.Member != "":
		return fmt.Sprintf("truncated archive: the stream ends after member %q at byte %d of the tar stream (uncompressed): any member after it is not read", c.Member, c.Offset)
	}
	return fmt.Sprintf("truncated archive: the compressed stream ends at byte %d of the tar stream (uncompressed) before its end: the members read are kept, any after them is not read", c.Offset)
}

// Truncated returns where the archive's stream ended before its end, or nil when it was read
// whole (or is no archive).
func (m memFS) Truncated() *Cut { return m.cut }

// errCutMember is the error of the member a truncated stream ended in.
var errCutMember = errors.New("not read: the archive is truncated inside this member")

// isCut says whether err (of the tar reader, or of the decoder at its end) is the stream ending
// before its end: Go's readers' io.ErrUnexpectedEOF, or xz-utils' complaint.
func isCut(err error) bool {
	return errors.Is(err, io.ErrUnexpectedEOF) || strings.Contains(fmt.Sprint(err), "Unexpected end of input")
}
