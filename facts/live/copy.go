package live

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"sync/atomic"
	"syscall"

	"github.com/rdmadoctor/rdmadoctor/facts/build"
)

// Limits for copied files: sysfs attributes are at most a page; logs are tail-capped.
const (
	maxCopy    = 1 << 20
	maxLogTail = 4 << 20
)

// Unreadable is a file that exists but could not be read (EINVAL on a counter, EACCES, EIO).
type Unreadable struct {
	Path  string `yaml:"path"`
	Error string `yaml:"error"`
}

// copied is the outcome of one copy task. reading, when set, holds the file being read (relative
// to the root), so that a task abandoned at the gather deadline can name the read that blocked.
type copied struct {
	files      map[string][]byte
	unreadable []Unreadable
	reading    *atomic.Pointer[string]
}

// read copies root/rel, at most limit bytes (its last limit bytes when tail), into c.files, or
// records in c.unreadable why it could not: an absent file is left to the builder to report.
func (c *copied) read(root, rel string, limit int64, tail bool) {
	p, err := regularIn(root, rel)
	if err == nil {
		c.readAt(p, rel, limit, tail)
		return
	}
	if !errors.Is(err, fs.ErrNotExist) {
		c.unreadable = append(c.unreadable, Unreadable{Path: rel, Error: errText(err)})
	}
}

// readAt copies the file at p, known to be a regular file inside the root, as rel.
func (c *copied) readAt(p, rel string, limit int64, tail bool) {
	if c.reading != nil {
		c.reading.Store(&rel)
		defer c.reading.Store(nil)
	}
	b, err := readCapped(p, limit, tail)
	switch {
	case err == nil:
		c.files[rel] = b
	case errors.Is(err, fs.ErrNotExist):
		// Absent attributes are normal (older kernels, other drivers); the builder reports them.
	default:
		c.unreadable = append(c.unreadable, Unreadable{Path: rel, Error: errText(err)})
	}
}

// regularIn resolves root/rel (slash-separated) and returns its path when it is a regular file
// inside root: a FIFO, socket or device is never opened (a read of a FIFO blocks until
// something writes to it, and opening a device can act on it), and a symbolic link that leaves
// the root is not followed. Errors: fs.ErrNotExist when it is absent (a dangling link too),
// else why it is not read, worded as a snapshot's source says it ("not a regular file (FIFO)",
// "not followed: a symbolic link to /etc/shadow, which leaves the root").
func regularIn(root, rel string) (string, error) {
	p := filepath.Join(root, filepath.FromSlash(rel))
	real, err := filepath.EvalSymlinks(p)
	if err != nil {
		return "", err
	}
	if err := inRoot(root, real); err != nil {
		return "", err
	}
	st, err := os.Stat(real)
	if err != nil {
		return "", err
	}
	if !st.Mode().IsRegular() {
		return "", errors.New(build.NotRegular(st.Mode()))
	}
	return real, nil
}

// inRoot is nil when real, a path with its links resolved, is inside root (resolved too), else
// why it is not followed: "not followed: a symbolic link to /etc/shadow, which leaves the root R".
func inRoot(root, real string) error {
	if top, err := filepath.EvalSymlinks(root); err == nil && !within(top, real) {
		return errors.New("not followed: a symbolic link to " + real + ", which leaves the root " + root)
	}
	return nil
}

// within says whether p is dir or below it (both cleaned, absolute or both relative).
func within(dir, p string) bool {
	rel, err := filepath.Rel(dir, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// errText drops the path from a *PathError: the path is recorded beside it.
func errText(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

// readCapped reads p, at most limit bytes (the last ones when tail). It opens p non-blocking and
// refuses what is not a regular file once open, should p have been replaced by a FIFO since
// regularIn looked (O_NONBLOCK changes nothing for a regular file's reads).
func readCapped(p string, limit int64, tail bool) ([]byte, error) {
	f, err := os.OpenFile(p, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, errors.New(build.NotRegular(st.Mode()))
	}
	if tail && st.Size() > limit {
		if _, err := f.Seek(st.Size()-limit, io.SeekStart); err != nil {
			return nil, err
		}
	}
	return io.ReadAll(io.LimitReader(f, limit))
}

// glob expands pattern (slash-separated, relative to root) and returns matches relative to root.
func glob(root, pattern string) []string {
	ms, _ := filepath.Glob(filepath.Join(root, filepath.FromSlash(pattern)))
	var out []string
	for _, m := range ms {
		if rel, err := filepath.Rel(root, m); err == nil {
			out = append(out, filepath.ToSlash(rel))
		}
	}
	sort.Strings(out)
	return out
}

// walkFiles reads every regular file below rel (not following links), skipping directories
// named in skip; a FIFO, socket or device found there is named in c.unreadable, never opened.
func (c *copied) walkFiles(root, rel string, skip map[string]bool) {
	base, err := regularDirIn(root, rel)
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			c.unreadable = append(c.unreadable, Unreadable{Path: rel, Error: errText(err)})
		}
		return
	}
	// A sysfs class entry is a symlink into /sys/devices: walk its target, name files by rel.
	_ = filepath.WalkDir(base, func(p string, d fs.DirEntry, err error) error {
		r, _ := filepath.Rel(base, p)
		name := path.Join(rel, filepath.ToSlash(r))
		if err != nil {
			c.unreadable = append(c.unreadable, Unreadable{Path: name, Error: errText(err)})
			return nil
		}
		switch t := d.Type(); {
		case d.IsDir():
			if p != base && skip[d.Name()] {
				return fs.SkipDir
			}
		case t.IsRegular():
			c.readAt(p, name, maxCopy, false)
		case t&fs.ModeSymlink == 0:
			c.unreadable = append(c.unreadable, Unreadable{Path: name, Error: build.NotRegular(t)})
		}
		return nil
	})
}

// regularDirIn is regularIn for a directory: its resolved path when root/rel is a directory
// inside root; fs.ErrNotExist when it is absent or not a directory.
func regularDirIn(root, rel string) (string, error) {
	p := filepath.Join(root, filepath.FromSlash(rel))
	real, err := filepath.EvalSymlinks(p)
	if err != nil {
		return "", err
	}
	if st, err := os.Stat(real); err != nil || !st.IsDir() {
		return "", fs.ErrNotExist
	}
	if err := inRoot(root, real); err != nil {
		return "", err
	}
	return real, nil
}

// ibDeviceFiles copies one RDMA device's sysfs directory (attributes, ports, GIDs, counters,
// hw_counters) and the PCI attributes of the function behind it.
func (c *copied) ibDeviceFiles(root, dev string) {
	rel := "sys/class/infiniband/" + dev
	c.walkFiles(root, rel, map[string]bool{"power": true})
	for _, f := range []string{"numa_node", "local_cpulist", "uevent"} {
		c.read(root, rel+"/device/"+f, maxCopy, false)
	}
}

// portCounterFiles copies only the counters and hw_counters of every port of dev (the second
// read of --sample).
func (c *copied) portCounterFiles(root, dev string) {
	for _, dir := range glob(root, "sys/class/infiniband/"+dev+"/ports/*/counters") {
		c.walkFiles(root, dir, nil)
	}
	for _, dir := range glob(root, "sys/class/infiniband/"+dev+"/ports/*/hw_counters") {
		c.walkFiles(root, dir, nil)
	}
}

// netdevAttrs are the sys/class/net/<if>/ files the builder reads.
var netdevAttrs = []string{"mtu", "operstate", "carrier", "type", "mode", "address", "flags",
	"device/numa_node", "device/local_cpulist", "device/uevent"}

func (c *copied) netdevFiles(root, ifname string) {
	rel := "sys/class/net/" + ifname
	for _, a := range netdevAttrs {
		c.read(root, rel+"/"+a, maxCopy, false)
	}
	c.walkFiles(root, rel+"/ecn", nil)
}

// hostPatterns are node-wide files, as globs relative to root.
var hostPatterns = []string{
	"proc/interrupts",
	"proc/irq/*/smp_affinity_list",
	"proc/irq/*/effective_affinity_list",
	"proc/sys/net/ipv6/conf/*/disable_ipv6",
	"sys/devices/system/cpu/cpu*/cpufreq/scaling_governor",
	"proc/meminfo",
	"sys/kernel/mm/transparent_hugepage/enabled",
	"etc/security/limits.conf",
	"etc/security/limits.d/*",
	"etc/opensm/opensm.conf",
	"etc/rdma/opensm.conf",
}

// hostLog is the log hostFiles copies, its last maxLogTail bytes.
const hostLog = "var/log/opensm.log"

// hostFiles copies the files of hostPatterns and hostLog. A directory matching a pattern is
// passed over.
func (c *copied) hostFiles(root string) {
	for _, pat := range hostPatterns {
		for _, rel := range glob(root, pat) {
			if st, err := os.Stat(filepath.Join(root, rel)); err == nil && st.IsDir() {
				continue
			}
			c.read(root, rel, maxCopy, false)
		}
	}
	c.read(root, hostLog, maxLogTail, true)
}
