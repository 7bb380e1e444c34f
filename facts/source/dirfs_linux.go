package source

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// Bounds of a dirFS's cache of open folders: at most maxDirFDs are kept (then all are closed
// and the cache starts again), and a path deeper than maxFastDepth folders is left to os.Root.
const (
	maxDirFDs    = 64
	maxFastDepth = 32
)

// dirFS reads a snapshot folder as os.Root does (nothing outside the folder is reached, a
// symbolic link inside it is followed only within it), with a third to a fifth of the system
// calls: os.Root opens and closes every folder of a path for each file, and lists a folder
// with one lstat per entry. dirFS keeps the folders it has opened (by path below the root,
// each opened relative to its parent with O_NOFOLLOW|O_DIRECTORY) and opens, stats, lists and
// reads relative to them, never following a symbolic link. Whatever that does not cover — a
// path through or to a symbolic link, anything that fails (missing, a loop, permission
// denied), a folder opened as a file, a FIFO or device, an invalid or very deep path — is
// done by the os.Root itself, so results and errors are os.Root's. Safe for concurrent use;
// Close (or, failing that, the garbage collector) closes the folders.
type dirFS struct {
	root  *os.Root
	fsys  fs.FS // root.FS()
	name  string
	cache *dirCache
}

// dirCache is the open folders of a dirFS, apart from it so that a cleanup can close them.
type dirCache struct {
	mu     sync.Mutex
	rootFD int
	dirs   map[string]int // below the root; "." is rootFD, not in the map
	closed bool
}

// newDirFS opens the folder path, or returns the error os.OpenRoot returns for it.
func newDirFS(path string) (*dirFS, error) {
	root, err := os.OpenRoot(path)
	if err != nil {
		return nil, err
	}
	fd, err := openat(unix.AT_FDCWD, path, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC)
	if err != nil {
		root.Close()
		return nil, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	f := &dirFS{root: root, fsys: root.FS(), name: root.Name(), cache: &dirCache{rootFD: fd, dirs: map[string]int{}}}
	runtime.AddCleanup(f, func(c *dirCache) { c.close() }, f.cache)
	return f, nil
}

// Close closes the folders dirFS holds open; it must not be used afterwards.
func (f *dirFS) Close() error {
	f.cache.close()
	return f.root.Close()
}

func (c *dirCache) close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return
	}
	c.closed = true
	c.flush()
	unix.Close(c.rootFD)
}

// flush closes the folders below the root; c.mu is held.
func (c *dirCache) flush() {
	for _, fd := range c.dirs {
		unix.Close(fd)
	}
	clear(c.dirs)
}

// dir returns the open folder dir ("." or a valid path below the root); false when dir is not
// a folder reached without a symbolic link (or anything failed). c.mu is held.
func (c *dirCache) dir(dir string) (int, bool) {
	if dir == "." {
		return c.rootFD, true
	}
	if fd, ok := c.dirs[dir]; ok {
		return fd, true
	}
	parent, ok := c.dir(path.Dir(dir))
	if !ok {
		return -1, false
	}
	fd, err := openat(parent, path.Base(dir), unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC)
	if err != nil {
		return -1, false
	}
	c.dirs[dir] = fd
	return fd, true
}

// at runs op with the open folder holding name and name's last element, under c.mu; false
// when the fast path does not apply (see dirFS), op then not run.
func (c *dirCache) at(name string, op func(dirfd int, base string) bool) bool {
	if name == "." || !fs.ValidPath(name) || strings.Count(name, "/") >= maxFastDepth {
		return false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return false
	}
	if len(c.dirs) >= maxDirFDs {
		c.flush()
	}
	dfd, ok := c.dir(path.Dir(name))
	return ok && op(dfd, path.Base(name))
}

// openFile opens name when it is a regular file reached without a symbolic link, with its
// fstat; O_NONBLOCK so that a FIFO is not waited on (it is left to os.Root).
func (f *dirFS) openFile(name string) (int, unix.Stat_t, bool) {
	fd, st := -1, unix.Stat_t{}
	ok := f.cache.at(name, func(dfd int, base string) bool {
		var err error
		if fd, err = openat(dfd, base, unix.O_RDONLY|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_CLOEXEC); err != nil {
			return false
		}
		if err := unix.Fstat(fd, &st); err != nil || st.Mode&unix.S_IFMT != unix.S_IFREG {
			unix.Close(fd)
			return false
		}
		return true
	})
	return fd, st, ok
}

// Open opens a regular file itself; the rest (folders included) through os.Root.
func (f *dirFS) Open(name string) (fs.File, error) {
	fd, st, ok := f.openFile(name)
	if !ok {
		return f.fsys.Open(name)
	}
	return &dirFile{fd: fd, name: name, path: f.name + "/" + name, info: statInfo(path.Base(name), &st)}, nil
}

// ReadFile reads a regular file whole.
func (f *dirFS) ReadFile(name string) ([]byte, error) {
	fd, st, ok := f.openFile(name)
	if !ok {
		return fs.ReadFile(f.fsys, name)
	}
	defer unix.Close(fd)
	b := make([]byte, 0, max(int(st.Size)+1, 512)) // one byte more to see EOF, as os.ReadFile
	for {
		n, err := read(fd, b[len(b):cap(b)])
		if err != nil {
			return nil, &fs.PathError{Op: "read", Path: f.name + "/" + name, Err: err}
		}
		if n == 0 {
			return b, nil
		}
		b = b[:len(b)+n]
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
	}
}

// Stat stats name without following a symbolic link; a link is os.Root's to follow.
func (f *dirFS) Stat(name string) (fs.FileInfo, error) {
	if info, ok := f.lstat(name); ok && info.Mode()&fs.ModeSymlink == 0 {
		return info, nil
	}
	return fs.Stat(f.fsys, name)
}

// Lstat stats name itself.
func (f *dirFS) Lstat(name string) (fs.FileInfo, error) {
	if info, ok := f.lstat(name); ok {
		return info, nil
	}
	return fs.Lstat(f.fsys, name)
}

func (f *dirFS) lstat(name string) (fs.FileInfo, bool) {
	var info fs.FileInfo
	ok := f.cache.at(name, func(dfd int, base string) bool {
		var st unix.Stat_t
		if err := fstatat(dfd, base, &st); err != nil {
			return false
		}
		info = statInfo(base, &st)
		return true
	})
	return info, ok
}

// ReadLink reads the symbolic link name.
func (f *dirFS) ReadLink(name string) (string, error) {
	var target string
	ok := f.cache.at(name, func(dfd int, base string) bool {
		buf := make([]byte, 256)
		for {
			n, err := unix.Readlinkat(dfd, base, buf)
			if err != nil {
				return false
			}
			if n < len(buf) {
				target = string(buf[:n])
				return true
			}
			if len(buf) >= 1<<16 {
				return false
			}
			buf = make([]byte, 2*len(buf))
		}
	})
	if !ok {
		return fs.ReadLink(f.fsys, name)
	}
	return target, nil
}

// ReadDir lists the folder name, sorted by name, as os.Root does.
func (f *dirFS) ReadDir(name string) ([]fs.DirEntry, error) {
	fd := -1
	if name == "." {
		c := f.cache
		c.mu.Lock()
		if !c.closed {
			// A descriptor of its own: the position getdents reads from is the descriptor's.
			fd, _ = openat(c.rootFD, ".", unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC)
		}
		c.mu.Unlock()
	} else {
		f.cache.at(name, func(dfd int, base string) bool {
			fd, _ = openat(dfd, base, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC)
			return fd >= 0
		})
	}
	if fd < 0 {
		return fs.ReadDir(f.fsys, name)
	}
	entries, ok := f.readDir(fd, name)
	unix.Close(fd)
	if !ok {
		return fs.ReadDir(f.fsys, name)
	}
	return entries, nil
}

// readDir lists the open folder fd, name below the root; false when a system call fails.
func (f *dirFS) readDir(fd int, name string) ([]fs.DirEntry, bool) {
	var entries []fs.DirEntry
	buf := make([]byte, 8192)
	for {
		n, err := getdents(fd, buf)
		if err != nil {
			return nil, false
		}
		if n == 0 {
			break
		}
		for b := buf[:n]; len(b) > 0; {
			// struct linux_dirent64: u64 d_ino, s64 d_off, u16 d_reclen, u8 d_type, d_name[]
			if len(b) < 19 {
				return nil, false
			}
			reclen := int(*(*uint16)(unsafe.Pointer(&b[16])))
			if reclen < 19 || reclen > len(b) {
				return nil, false
			}
			typ, raw := b[18], b[19:reclen]
			b = b[reclen:]
			if i := slices.Index(raw, 0); i >= 0 {
				raw = raw[:i]
			}
			n := string(raw)
			if n == "." || n == ".." {
				continue
			}
			mode, known := direntMode(typ)
			if !known {
				var st unix.Stat_t
				if fstatat(fd, n, &st) != nil {
					return nil, false
				}
				mode = statInfo(n, &st).Mode().Type()
			}
			entries = append(entries, &dirEntry{fsys: f, dir: name, name: n, typ: mode})
		}
	}
	slices.SortFunc(entries, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	return entries, true
}

func direntMode(t uint8) (fs.FileMode, bool) {
	switch t {
	case unix.DT_REG:
		return 0, true
	case unix.DT_DIR:
		return fs.ModeDir, true
	case unix.DT_LNK:
		return fs.ModeSymlink, true
	case unix.DT_FIFO:
		return fs.ModeNamedPipe, true
	case unix.DT_SOCK:
		return fs.ModeSocket, true
	case unix.DT_CHR:
		return fs.ModeDevice | fs.ModeCharDevice, true
	case unix.DT_BLK:
		return fs.ModeDevice, true
	}
	return 0, false
}

// dirEntry is one entry of a listing; its Info is an lstat of it, as os.Root's.
type dirEntry struct {
	fsys      *dirFS
	dir, name string
	typ       fs.FileMode
}

func (e *dirEntry) Name() string      { return e.name }
func (e *dirEntry) IsDir() bool       { return e.typ.IsDir() }
func (e *dirEntry) Type() fs.FileMode { return e.typ }
func (e *dirEntry) Info() (fs.FileInfo, error) {
	return e.fsys.Lstat(path.Join(e.dir, e.name))
}
func (e *dirEntry) String() string { return fs.FormatDirEntry(e) }

// dirFile is a regular file dirFS opened.
type dirFile struct {
	fd   int
	name string // below the root, for errors
	path string // the root's name joined, as os.Root names its files
	info fs.FileInfo
	mu   sync.Mutex
}

func (f *dirFile) Stat() (fs.FileInfo, error) { return f.info, nil }

func (f *dirFile) Read(b []byte) (int, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.fd < 0 {
		return 0, &fs.PathError{Op: "read", Path: f.path, Err: fs.ErrClosed}
	}
	if len(b) == 0 {
		return 0, nil
	}
	n, err := read(f.fd, b)
	switch {
	case err != nil:
		return 0, &fs.PathError{Op: "read", Path: f.path, Err: err}
	case n == 0:
		return 0, io.EOF
	}
	return n, nil
}

func (f *dirFile) Close() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.fd < 0 {
		return &fs.PathError{Op: "close", Path: f.path, Err: fs.ErrClosed}
	}
	err := unix.Close(f.fd)
	f.fd = -1
	if err != nil {
		return &fs.PathError{Op: "close", Path: f.path, Err: err}
	}
	return nil
}

// statInfo is the fs.FileInfo of an fstat, as os.Stat fills it.
func statInfo(name string, st *unix.Stat_t) fs.FileInfo {
	mode := fs.FileMode(st.Mode & 0o777)
	switch st.Mode & unix.S_IFMT {
	case unix.S_IFBLK:
		mode |= fs.ModeDevice
	case unix.S_IFCHR:
		mode |= fs.ModeDevice | fs.ModeCharDevice
	case unix.S_IFDIR:
		mode |= fs.ModeDir
	case unix.S_IFIFO:
		mode |= fs.ModeNamedPipe
	case unix.S_IFLNK:
		mode |= fs.ModeSymlink
	case unix.S_IFSOCK:
		mode |= fs.ModeSocket
	}
	if st.Mode&unix.S_ISGID != 0 {
		mode |= fs.ModeSetgid
	}
	if st.Mode&unix.S_ISUID != 0 {
		mode |= fs.ModeSetuid
	}
	if st.Mode&unix.S_ISVTX != 0 {
		mode |= fs.ModeSticky
	}
	return &fileStat{name: name, size: st.Size, mode: mode, modTime: time.Unix(st.Mtim.Unix())}
}

type fileStat struct {
	name    string
	size    int64
	mode    fs.FileMode
	modTime time.Time
}

func (s *fileStat) Name() string       { return s.name }
func (s *fileStat) Size() int64        { return s.size }
func (s *fileStat) Mode() fs.FileMode  { return s.mode }
func (s *fileStat) ModTime() time.Time { return s.modTime }
func (s *fileStat) IsDir() bool        { return s.mode.IsDir() }
func (s *fileStat) Sys() any           { return nil }

// The system calls, retried on EINTR as package os does.

func openat(dirfd int, name string, flags int) (int, error) {
	for {
		fd, err := unix.Openat(dirfd, name, flags, 0)
		if !errors.Is(err, unix.EINTR) {
			return fd, err
		}
	}
}

func fstatat(dirfd int, name string, st *unix.Stat_t) error {
	for {
		err := unix.Fstatat(dirfd, name, st, unix.AT_SYMLINK_NOFOLLOW)
		if !errors.Is(err, unix.EINTR) {
			return err
		}
	}
}

func read(fd int, b []byte) (int, error) {
	for {
		n, err := unix.Read(fd, b)
		if !errors.Is(err, unix.EINTR) {
			return n, err
		}
	}
}

func getdents(fd int, buf []byte) (int, error) {
	for {
		n, err := unix.Getdents(fd, buf)
		if !errors.Is(err, unix.EINTR) {
			return n, err
		}
	}
}
