package diagnosis

import (
	"fmt"
	"strings"

	"github.com/rdmadoctor/rdmadoctor/facts"
)

// NothingReadError is the error of a snapshot in which no file could be read: an empty folder
// or archive, one holding only empty captures (0 bytes or whitespace: the commands that were to
// fill them failed), or one holding only symbolic links out of it. That is unreadable input
// (exit 2), not a node without RDMA (exit 3): nothing was looked at, so nothing can be said
// about it.
type NothingReadError struct {
	// Path is the snapshot as given.
	Path string
	// Links is the snapshot's source naming the links out of it ("" when there is none).
	Links string
	// Empty are the snapshot's empty captures, each "ibstat (0 bytes)", in snapshot order.
	Empty []string
}

func (e *NothingReadError) Error() string {
	var why []string
	if len(e.Empty) > 0 {
		why = append(why, "only empty captures: "+strings.Join(e.Empty, ", "))
	}
	if e.Links != "" {
		why = append(why, e.Links)
	}
	if len(why) > 0 {
		return fmt.Sprintf("%s: nothing in it could be read: %s", e.Path, strings.Join(why, "; "))
	}
	return fmt.Sprintf("%s: no file in it to read", e.Path)
}

// nothingRead returns a *NothingReadError when every source of s is one looked for and not
// found, an empty capture, or the symbolic links out of the snapshot: no file of it was read,
// recognised or not. A file that could not be read (status error) is not nothing: Unevaluable
// counts it.
func nothingRead(s *facts.Snapshot) error {
	e := &NothingReadError{Path: s.Source.Path}
	for _, src := range s.Sources {
		switch {
		case src.Status == facts.StatusMissing:
		case src.Status == facts.StatusEmpty:
			e.Empty = append(e.Empty, emptyName(src))
		case src.Name == "symlink" && src.Status == facts.StatusUnrecognized:
			e.Links = src.Error + ": " + src.Origin
		default:
			return nil
		}
	}
	return e
}

// emptyName names an empty capture by its file and size: "ibstat (0 bytes)".
func emptyName(src facts.Source) string {
	size := strings.TrimSuffix(strings.TrimPrefix(src.Error, "empty ("), "): nothing in it to read")
	return src.Origin + " (" + size + ")"
}
