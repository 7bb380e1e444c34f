package build

import (
	"errors"
	"fmt"
	"io/fs"
	"strings"

	"github.com/rdmadoctor/rdmadoctor/facts"
)

// errNotRegular is why a file of the snapshot that is not a regular file (a FIFO, a socket, a
// device) was not read: opening a FIFO for reading blocks until something writes to it.
type errNotRegular struct{ mode fs.FileMode }

func (e errNotRegular) Error() string { return "not a regular file (" + specialKind(e.mode) + ")" }

// NotRegular is why a file of type m that is not a regular file was not read, as a snapshot's
// source says it: "not a regular file (FIFO)". The live gather (facts/live) words its own the same.
func NotRegular(m fs.FileMode) string { return errNotRegular{m}.Error() }

// specialKind names the type of a file that is not regular: "FIFO", "socket", "device", ...
func specialKind(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "FIFO"
	case m&fs.ModeSocket != 0:
		return "socket"
	case m&fs.ModeCharDevice != 0:
		return "character device"
	case m&fs.ModeDevice != 0:
		return "block device"
	case m.IsDir():
		return "directory"
	}
	return "irregular file"
}

// openRegular opens p for reading only when it is a regular file (after symbolic links): a
// FIFO is never opened, so a snapshot holding one cannot block the run.
func openRegular(fsys fs.FS, p string) (fs.File, error) {
	st, err := fs.Stat(fsys, p)
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, &fs.PathError{Op: "open", Path: p, Err: errNotRegular{st.Mode()}}
	}
	return fsys.Open(p)
}

// leadsOut says whether err is the refusal of a symbolic link, on the path opened, that leads
// out of the snapshot: os.Root's (a folder) or facts/source's memFS's (an archive).
func leadsOut(err error) bool {
	msg := err.Error()
	return strings.Contains(msg, "path escapes from parent") || strings.Contains(msg, "symbolic link leaves the archive")
}

// treeOut is the source of the tree spec sp whose root could not be opened (err) because a
// link on its way leads out of the snapshot, naming the link's target when the root is the
// link; ok is false for any other error (the tree is then missing).
func treeOut(fsys fs.FS, sp *Spec, err error) (facts.Source, bool) {
	if !leadsOut(err) {
		return facts.Source{}, false
	}
	why := unreadable(err)
	if target, err := fs.ReadLink(fsys, sp.Root); err == nil {
		why = linkOutError(target)
	}
	return facts.Source{Name: sp.Name, Origin: sp.Root, Status: facts.StatusError, Error: facts.Clip(why, facts.MaxMessageBytes)}, true
}

// linkOutError is the Error of an input that is a symbolic link to target, out of the snapshot.
func linkOutError(target string) string {
	return "not followed: a symbolic link to " + target + ", which leaves the snapshot"
}

// unreadable is the Error of a source whose file could not be opened or read, err being what
// openRegular or a read returned: "unreadable: permission denied", "not a regular file (FIFO)";
// other errors (a size limit, a link that leaves the snapshot) say themselves, naming the file.
func unreadable(err error) string {
	var nr errNotRegular
	switch {
	case errors.As(err, &nr):
		return nr.Error()
	case errors.Is(err, fs.ErrPermission):
		return "unreadable: permission denied"
	case leadsOut(err):
		return "not followed: a symbolic link on its path leads out of the snapshot"
	}
	return fmt.Sprint(err)
}
