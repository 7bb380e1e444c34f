package source

import (
	"io/fs"

	"github.com/rdmadoctor/rdmadoctor/facts"
)

// settleAfter is how many members in a row the stream goes on without changing what is kept
// before Options.Settled is offered a view: a plugin folder's commands (sos_commands/<plugin>/)
// come one after another, so a view is not taken between two of them.
const settleAfter = 32

// settling counts, as an archive streams by, the members since what is kept last changed.
type settling struct {
	gen    int // changes to the tree so far
	quiet  int // members read since the last change
	viewed int // gen of the last view taken, +1 (0: none)
}

// changed records a change to the tree: a member added, or one kept pending taken out again
// or emptied (resolve).
func (s *settling) changed() { s.gen, s.quiet = s.gen+1, -1 } // the member that changed it is not past it

// offerView calls Options.Settled after a member was read, once the tree has stayed the same
// for settleAfter members and while no view of it was taken.
func (a *archive) offerView() {
	st := &a.settle
	if st.quiet++; a.opt.Settled == nil || st.quiet < settleAfter || st.viewed == st.gen+1 {
		return
	}
	a.opt.Settled(a.view)
}

// view returns what OpenWith would return were the archive to end here, on a copy of the tree;
// false when the archive would be read again whole (rereads) or has no report root.
func (a *archive) view() (fs.FS, facts.SourceInfo, bool) {
	a.settle.viewed = a.settle.gen + 1
	if a.rereads() {
		return nil, facts.SourceInfo{}, false
	}
	fsys, info, err := a.result(memFS{root: a.tree.root.clone(), skipped: a.skipped, again: a.again.clone()})
	return fsys, info, err == nil
}

// rereads reports whether OpenWith reads the archive again, keeping every member: a top folder
// taken for a sosreport by its name (sosreport-*) holds no sos_commands/, so it is a folder of
// captures, whose every file is read.
func (a *archive) rereads() bool { return a.skipped > 0 && len(a.roots.sos) == 0 }

// result is what OpenWith returns of the tree m read from a: m below its report's top folder,
// if it has one, and Kind "sosreport" when that holds sos_commands/.
func (a *archive) result(m memFS) (fs.FS, facts.SourceInfo, error) {
	info := facts.SourceInfo{Path: a.path}
	if dir, err := reportRoot(m); err != nil {
		return nil, info, &Error{Path: a.path, Kind: ErrFormat, Err: err}
	} else if sub, ok := m.sub(dir); ok {
		m = sub
	}
	if _, err := m.Stat("sos_commands"); err == nil {
		info.Kind = "sosreport"
	}
	return m, info, nil
}

// clone copies n and, for a folder, everything below it: a tree that the reading, which goes
// on, does not change. Content is shared: it is never written once read.
func (n *node) clone() *node {
	c := *n
	if n.kids != nil {
		c.kids = make(map[string]*node, len(n.kids))
		for name, kid := range n.kids {
			c.kids[name] = kid.clone()
		}
	}
	return &c
}
