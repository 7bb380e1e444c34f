package diagnosis

import (
	"fmt"

	"github.com/rdmadoctor/rdmadoctor/facts"
)

// NothingReadError is the error of a snapshot in which no file could be read: an empty folder
// or archive, or one holding only symbolic links out of it. That is unreadable input (exit 2),
// not a node without RDMA (exit 3): nothing was looked at, so nothing can be said about it.
type NothingReadError struct {
	// Path is the snapshot as given.
	Path string
	// Links is the snapshot's source naming the links out of it ("" when there is none).
	Links string
}

func (e *NothingReadError) Error() string {
	if e.Links != "" {
		return fmt.Sprintf("%s: nothing in it could be read: %s", e.Path, e.Links)
	}
	return fmt.Sprintf("%s: empty: no file in it to read", e.Path)
}

// nothingRead returns a *NothingReadError when every source of s is one looked for and not
// found, or the symbolic links out of the snapshot: no file of it was read, recognised or not.
// A file that could not be read (status error) is not nothing: Unevaluable counts it.
func nothingRead(s *facts.Snapshot) error {
	e := &NothingReadError{Path: s.Source.Path}
	for _, src := range s.Sources {
		switch {
		case src.Status == facts.StatusMissing:
		case src.Name == "symlink" && src.Status == facts.StatusUnrecognized:
			e.Links = src.Error + ": " + src.Origin
		default:
			return nil
		}
	}
	return e
}
