package source

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// maxLinkHops bounds symlink resolution, like the kernel's ELOOP limit.
const maxLinkHops = 40

var (
	// errLinkLoop is the kernel's error for the same, so that a loop in an archive and one in
	// a folder (os.Root) are told apart alike: errors.Is(err, syscall.ELOOP).
	errLinkLoop   error = syscall.ELOOP
	errLinkEscape       = errors.New("symbolic link leaves the archive")
)

// node is one entry of a memFS: a directory, a regular file or a symbolic link.
type node struct {
	name    string
	mode    fs.FileMode
	modTime time.Time
	size    int64
	data    []byte           // regular files
	packed  chunks           // or, for large ones, their content deflated (packed.go)
	target  string           // symlinks, as stored in the archive
	err     error            // set for a file that was seen but not kept (over the size limit)
	kids    map[string]*node // directories
}

func newDir(name string) *node {
	return &node{name: name, mode: fs.ModeDir | 0o755, kids: map[string]*node{}}
}

func (n *node) isDir() bool     { return n.mode.IsDir() }
func (n *node) isSymlink() bool { return n.mode&fs.ModeSymlink != 0 }

// memFS is a read-only fs.FS over members read from an archive. Symbolic links behave as in
// os.DirFS: ReadDir and WalkDir report them as links, Open and Stat follow them; links are
// resolved inside the tree only.
type memFS struct {
	root    *node
	skipped int  // files of the archive not kept (decided by their path)
	cut     *Cut // where a truncated archive's stream ended (cut.go)
	again   Again
}

// Again counts the kept members of an archive that came more than once (`tar -r` appends a
// member again; the last copy is the one `tar -x` leaves): the earlier copies are not read.
type Again struct {
	// Members is how many members came again; Names the first maxAgainNames of them.
	Members int
	Names   []string
}

// maxAgainNames bounds Again.Names.
const maxAgainNames = 3

// note records that member name came again.
func (g *Again) note(name string) {
	g.Members++
	if len(g.Names) < maxAgainNames {
		g.Names = append(g.Names, name)
	}
}

// String says what the report says of the archive: "2 member(s) come more than once in the
// archive ("node/ibstat", "node/lspci"): the last copy of each is read, ...".
func (g Again) String() string {
	names := make([]string, len(g.Names))
	for i, n := range g.Names {
		names[i] = strconv.Quote(n)
	}
	if g.Members > len(names) {
		names = append(names, fmt.Sprintf("%d more", g.Members-len(names)))
	}
	return fmt.Sprintf("%d member(s) come more than once in the archive (%s): the last copy of each is read, as tar -x leaves it; the earlier copies are not", g.Members, strings.Join(names, ", "))
}

// clone is g with its own Names, which the reading, going on, does not change.
func (g Again) clone() Again { g.Names = slices.Clone(g.Names); return g }

// MembersAgain says which kept members of the archive came more than once: the report names
// them (the archive is read in part: their earlier copies are not).
func (m memFS) MembersAgain() Again { return m.again }

// SkippedFiles is the number of files of the archive that were not kept because nothing reads
// them (decided by their path alone, Decision Skip): the builder counts them with the files it
// does not read itself.
func (m memFS) SkippedFiles() int { return m.skipped }

var (
	_ fs.StatFS     = memFS{}
	_ fs.ReadDirFS  = memFS{}
	_ fs.ReadFileFS = memFS{}
	_ fs.ReadLinkFS = memFS{}
)

// lookup resolves name to its node, following symbolic links in every component and, when
// follow is set, in the last one too.
func (m memFS) lookup(op, name string, follow bool) (*node, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: op, Path: name, Err: fs.ErrInvalid}
	}
	fail := func(err error) (*node, error) { return nil, &fs.PathError{Op: op, Path: name, Err: err} }
	stack := []*node{m.root} // the directories walked so far; the last is the current one
	todo := splitPath(name)
	hops := 0
	for len(todo) > 0 {
		c := todo[0]
		todo = todo[1:]
		switch c {
		case ".":
			continue
		case "..":
			if len(stack) == 1 {
				return fail(errLinkEscape)
			}
			stack = stack[:len(stack)-1]
			continue
		}
		dir := stack[len(stack)-1]
		if !dir.isDir() {
			return fail(fs.ErrNotExist)
		}
		n := dir.kids[c]
		if n == nil {
			return fail(fs.ErrNotExist)
		}
		if n.isSymlink() && (len(todo) > 0 || follow) {
			if hops++; hops > maxLinkHops {
				return fail(errLinkLoop)
			}
			if path.IsAbs(n.target) {
				return fail(errLinkEscape)
			}
			todo = append(splitPath(n.target), todo...)
			continue
		}
		stack = append(stack, n)
	}
	return stack[len(stack)-1], nil
}

func splitPath(p string) []string {
	if p == "." || p == "" {
		return nil
	}
	return strings.Split(p, "/")
}

func (m memFS) Open(name string) (fs.File, error) {
	n, err := m.lookup("open", name, true)
	if err != nil {
		return nil, err
	}
	if n.err != nil {
		return nil, &fs.PathError{Op: "open", Path: name, Err: n.err}
	}
	if n.isDir() {
		return &openDir{node: n, name: name}, nil
	}
	if n.packed != nil {
		return openPacked(n, name), nil
	}
	return &openFile{node: n, name: name}, nil
}

func (m memFS) Stat(name string) (fs.FileInfo, error) {
	n, err := m.lookup("stat", name, true)
	if err != nil {
		return nil, err
	}
	return info{n, path.Base(name)}, nil
}

// Lstat is Stat without following a final symbolic link (fs.ReadLinkFS).
func (m memFS) Lstat(name string) (fs.FileInfo, error) {
	n, err := m.lookup("lstat", name, false)
	if err != nil {
		return nil, err
	}
	return info{n, path.Base(name)}, nil
}

// ReadLink returns a symbolic link's target as stored in the archive (fs.ReadLinkFS).
func (m memFS) ReadLink(name string) (string, error) {
	n, err := m.lookup("readlink", name, false)
	if err != nil {
		return "", err
	}
	if !n.isSymlink() {
		return "", &fs.PathError{Op: "readlink", Path: name, Err: fs.ErrInvalid}
	}
	return n.target, nil
}

func (m memFS) ReadDir(name string) ([]fs.DirEntry, error) {
	n, err := m.lookup("readdir", name, true)
	if err != nil {
		return nil, err
	}
	if !n.isDir() {
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: errors.New("not a directory")}
	}
	return n.entries(), nil
}

// ReadFile returns a copy of the content: callers may modify it (fs.ReadFileFS).
func (m memFS) ReadFile(name string) ([]byte, error) {
	n, err := m.lookup("read", name, true)
	if err != nil {
		return nil, err
	}
	if n.err != nil {
		return nil, &fs.PathError{Op: "read", Path: name, Err: n.err}
	}
	if n.isDir() {
		return nil, &fs.PathError{Op: "read", Path: name, Err: errors.New("is a directory")}
	}
	if n.packed != nil {
		b, err := unpack(n)
		if err != nil {
			return nil, &fs.PathError{Op: "read", Path: name, Err: err}
		}
		return b, nil
	}
	return slices.Clone(n.data), nil
}

// sub returns the tree below dir, or false when dir is not a directory.
func (m memFS) sub(dir string) (memFS, bool) {
	n, err := m.lookup("sub", dir, true)
	if err != nil || !n.isDir() {
		return memFS{}, false
	}
	return memFS{root: n, skipped: m.skipped, cut: m.cut, again: m.again}, true
}

func (n *node) entries() []fs.DirEntry {
	out := make([]fs.DirEntry, 0, len(n.kids))
	for _, k := range n.kids {
		out = append(out, fs.FileInfoToDirEntry(info{k, k.name}))
	}
	slices.SortFunc(out, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	return out
}

// info is the fs.FileInfo of a node, under the name it was opened by.
type info struct {
	n    *node
	name string
}

func (i info) Name() string       { return i.name }
func (i info) Size() int64        { return i.n.size }
func (i info) Mode() fs.FileMode  { return i.n.mode }
func (i info) ModTime() time.Time { return i.n.modTime }
func (i info) IsDir() bool        { return i.n.isDir() }
func (i info) Sys() any           { return nil }

type openFile struct {
	node *node
	name string
	off  int64
}

func (f *openFile) Stat() (fs.FileInfo, error) { return info{f.node, path.Base(f.name)}, nil }
func (f *openFile) Close() error               { return nil }

func (f *openFile) Read(b []byte) (int, error) {
	if f.off >= int64(len(f.node.data)) {
		return 0, io.EOF
	}
	n := copy(b, f.node.data[f.off:])
	f.off += int64(n)
	return n, nil
}

func (f *openFile) ReadAt(b []byte, off int64) (int, error) {
	if off < 0 {
		return 0, &fs.PathError{Op: "read", Path: f.name, Err: fs.ErrInvalid}
	}
	if off >= int64(len(f.node.data)) {
		return 0, io.EOF
	}
	n := copy(b, f.node.data[off:])
	if n < len(b) {
		return n, io.EOF
	}
	return n, nil
}

func (f *openFile) Seek(offset int64, whence int) (int64, error) {
	switch whence {
	case io.SeekCurrent:
		offset += f.off
	case io.SeekEnd:
		offset += int64(len(f.node.data))
	}
	if offset < 0 {
		return 0, &fs.PathError{Op: "seek", Path: f.name, Err: fs.ErrInvalid}
	}
	f.off = offset
	return offset, nil
}

type openDir struct {
	node    *node
	name    string
	entries []fs.DirEntry // nil until the first ReadDir
	off     int
}

func (d *openDir) Stat() (fs.FileInfo, error) { return info{d.node, path.Base(d.name)}, nil }
func (d *openDir) Close() error               { return nil }
func (d *openDir) Read([]byte) (int, error) {
	return 0, &fs.PathError{Op: "read", Path: d.name, Err: errors.New("is a directory")}
}

func (d *openDir) ReadDir(count int) ([]fs.DirEntry, error) {
	if d.entries == nil {
		d.entries = d.node.entries()
	}
	rest := d.entries[d.off:]
	if count <= 0 {
		d.off = len(d.entries)
		return rest, nil
	}
	if len(rest) == 0 {
		return nil, io.EOF
	}
	rest = rest[:min(count, len(rest))]
	d.off += len(rest)
	return rest, nil
}

var (
	errUnderLink = errors.New("is below a symbolic link (writing through links is refused)")
	errUnderFile = errors.New("is below a regular file")
	errOverDir   = errors.New("replaces a directory")
)

// add places n at the cleaned, valid path name, creating parent directories. A member below a
// symbolic link or a file, or a file replacing a directory, is an error; a later file replaces
// an earlier one, as when a tar archive is extracted.
func (m memFS) add(name string, n *node) (again bool, err error) {
	parts := splitPath(name)
	dir := m.root
	for _, c := range parts[:len(parts)-1] {
		k := dir.kids[c]
		switch {
		case k == nil:
			k = newDir(c)
			dir.kids[c] = k
		case k.isSymlink():
			return false, errUnderLink
		case !k.isDir():
			return false, errUnderFile
		}
		dir = k
	}
	last := parts[len(parts)-1]
	n.name = last
	old := dir.kids[last]
	switch {
	case old == nil:
		dir.kids[last] = n
	case old.isDir() && n.isDir():
		old.mode, old.modTime = n.mode, n.modTime
	case old.isDir():
		return false, errOverDir
	default:
		dir.kids[last] = n
		return !old.isDir(), nil
	}
	return false, nil
}

// remove takes the node n out of the tree at the cleaned path name, unless a later member
// replaced it there; it reports whether it did.
func (m memFS) remove(name string, n *node) bool {
	dir := m.root
	parts := splitPath(name)
	for _, c := range parts[:len(parts)-1] {
		if dir = dir.kids[c]; dir == nil || !dir.isDir() {
			return false
		}
	}
	last := parts[len(parts)-1]
	if dir.kids[last] != n {
		return false
	}
	delete(dir.kids, last)
	return true
}
