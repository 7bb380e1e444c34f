package source

import (
	"errors"
	"strconv"
)

// Kinds of refusal; test with errors.Is.
var (
	// ErrUnsafe: a member that would leave the archive (absolute path, "..", a hard link
	// pointing outside), a member below a symbolic link, or a device or FIFO member. A symbolic
	// link pointing outside is kept but never followed.
	ErrUnsafe = errors.New("unsafe archive member")
	// ErrLimit: the archive has more members, or more uncompressed bytes, than the limits allow.
	ErrLimit = errors.New("archive limit reached")
	// ErrFormat: the input is not a readable archive or capture (garbage, truncated, corrupt,
	// empty, binary).
	ErrFormat = errors.New("unreadable input")
)

// Error names the input (and the member) that was refused.
type Error struct {
	// Path is the file given by the user.
	Path string
	// Member is the archive member at fault, if one is.
	Member string
	// Kind is ErrUnsafe, ErrLimit or ErrFormat.
	Kind error
	// Err says what is wrong.
	Err error
}

func (e *Error) Error() string {
	s := e.Path
	if e.Member != "" {
		s += ": member " + strconv.Quote(e.Member)
	}
	return s + ": " + e.Err.Error()
}

func (e *Error) Unwrap() []error { return []error{e.Kind, e.Err} }
