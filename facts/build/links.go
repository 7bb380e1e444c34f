package build

import (
	"errors"
	"io/fs"
	"path"
	"syscall"

	"github.com/rdmadoctor/rdmadoctor/facts/source"
)

// linkFault says why the symbolic link p of fsys is not followed. why is the Error of the input
// the link would be: "" when it reaches a file or folder of the snapshot (which is read under
// its own name), else it leads out of the snapshot (out set), dangles or loops. target is what
// the link points to, as stored. In an archived sosreport (sos set), a link to a file that was
// not kept because nothing reads it (Select) is not a fault: its target is not missing.
func linkFault(fsys fs.FS, p string, sos bool) (why string, out bool, target string) {
	target, err := fs.ReadLink(fsys, p)
	if err != nil {
		return "", false, "" // listed as a link but gone: nothing to name
	}
	if source.LeavesTree(p, target) {
		return linkOutError(target), true, target
	}
	_, err = fs.Stat(fsys, p)
	switch {
	case err == nil:
		return "", false, target
	case leadsOut(err):
		return "not followed: a symbolic link to " + target + ", whose links lead out of the snapshot", true, target
	case errors.Is(err, syscall.ELOOP):
		return "symbolic link loop: the link to " + target + " never reaches a file", false, target
	case errors.Is(err, fs.ErrNotExist):
		if sos && notKept(fsys, path.Join(path.Dir(p), target)) {
			return "", false, target
		}
		return "dangling symbolic link to " + target + ": no such file in the snapshot", false, target
	}
	return unreadable(err), false, target
}

// notKept reports whether the file p (below the top of fsys, a sosreport) may be absent because
// the archive it was read from did not keep it: fsys skipped files and Select skips p.
func notKept(fsys fs.FS, p string) bool {
	c, ok := fsys.(interface{ SkippedFiles() int })
	return ok && c.SkippedFiles() > 0 && Select(p, false) == source.Skip
}
