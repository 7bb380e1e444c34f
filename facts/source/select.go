package source

import (
	"io/fs"
	"strconv"
	"strings"
	"sync/atomic"
)

// Decision is what becomes of one file of a sosreport, decided from its path alone, before its
// content is read.
type Decision uint8

const (
	// Skip: nothing reads it. It is not read, not kept, and counted in the report's one line
	// about the files that are not relevant to RDMA.
	Skip Decision = iota
	// Keep: no input by itself, but a tree an input reads leads to it (sysfs links into
	// sys/devices): kept, not recognised on its own, counted like Skip.
	Keep
	// List: not read, but listed one by one as unrecognised (a file of an RDMA plugin folder).
	List
	// Read: an input by its path or name, or a file recognised by its content (a folder of
	// captures): read and kept.
	Read
)

func (d Decision) String() string {
	if d > Read {
		return "Decision(" + strconv.Itoa(int(d)) + ")"
	}
	return [...]string{"skip", "keep", "list", "read"}[d]
}

// Selector decides for a file, or a folder when dir is set, at path rel below a sosreport's
// top folder (sos_commands/infiniband/ibstat, etc/hostname).
type Selector func(rel string, dir bool) Decision

var selector atomic.Pointer[Selector]

// SetSelector installs the decision Open applies to the members of a sosreport. facts/build
// installs the one it derives from its input specs (build.Select) when it is initialised, so
// that what an archive keeps is exactly what the builder may read; without one, every member
// is kept.
func SetSelector(s Selector) { selector.Store(&s) }

// Select applies the installed Selector; without one, it keeps everything.
func Select(rel string, dir bool) Decision {
	if s := selector.Load(); s != nil {
		return (*s)(rel, dir)
	}
	return Read
}

// sosOwnTop are folders only a sosreport has at its top.
var sosOwnTop = map[string]bool{"sos_commands": true, "sos_reports": true, "sos_logs": true, "sos_strings": true}

// roots tracks, while an archive streams by, which of its folders are the top of a sosreport,
// so that each member is decided as it comes:
//   - the archive's own root, once a member sos_commands/... is seen;
//   - a top folder named sosreport-*, from its first member (the name sos gives it), or
//     another top folder once a member <folder>/sos_commands/... is seen.
//
// A member whose folder is not known to be a sosreport yet is kept as a capture would be
// (pending); when its folder turns out to be one, it is decided then (resolve).
type roots struct {
	sos     map[string]bool // "" is the archive's root; confirmed by a sos_commands member
	byName  map[string]bool // top folders taken as sosreports by their name alone
	pending []pending
}

// pending is a member kept before its folder was known to be a sosreport.
type pending struct {
	name string
	n    *node
}

// learn notes what member name shows: that the archive's root, or the top folder name is in,
// holds sos_commands. It returns that folder ("" for the root) and true the first time.
func (r *roots) learn(name string) (string, bool) {
	first, rest, _ := strings.Cut(name, "/")
	if first == "sos_commands" {
		return "", r.confirm("")
	}
	if second, _, _ := strings.Cut(rest, "/"); second == "sos_commands" {
		return first, r.confirm(first)
	}
	return "", false
}

// of returns the path of member name below its sosreport folder, or false when name is not
// known to be in one (yet).
func (r *roots) of(name string) (string, bool) {
	if r.sos[""] {
		return name, true
	}
	first, rest, _ := strings.Cut(name, "/")
	switch {
	case rest == "":
		return "", false
	case r.sos[first] || r.byName[first]:
		return rest, true
	case strings.HasPrefix(first, "sosreport"):
		r.byName[first] = true
		return rest, true
	}
	return "", false
}

// confirm records that root holds sos_commands; it reports whether that is news.
func (r *roots) confirm(root string) bool {
	if r.sos[root] {
		return false
	}
	r.sos[root] = true
	return true
}

// under returns, and forgets, the pending members below root ("": all of them).
func (r *roots) under(root string) []pending {
	var out, rest []pending
	for _, p := range r.pending {
		if root == "" || strings.HasPrefix(p.name, root+"/") {
			out = append(out, p)
		} else {
			rest = append(rest, p)
		}
	}
	r.pending = rest
	return out
}

// maxSeenEntries bounds the entries seeFolder lists in a folder that is not a sosreport.
const maxSeenEntries = 4096

// seeFolder calls seen with the path of each file of the folder fsys that a snapshot could
// read, as Options.Seen: in a sosreport, those Select decides Read, below the folders it does
// not skip; in another folder (a gather output, captures), every file, up to maxSeenEntries
// entries listed. It opens no file and reads no content: the paths are diagnose's guess of the
// rules to compile while the folder is read, as those of an archive's members are.
func seeFolder(fsys fs.FS, seen func(rel string)) {
	st, err := fs.Stat(fsys, "sos_commands")
	sos := err == nil && st.IsDir()
	n := 0
	fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		switch n++; {
		case err != nil || p == ".":
			return nil // the reading names what cannot be listed
		case !sos && n > maxSeenEntries:
			return fs.SkipAll
		case d.IsDir():
			if sos && Select(p, true) == Skip {
				return fs.SkipDir
			}
		case !sos || Select(p, false) == Read:
			seen(p)
		}
		return nil
	})
}
