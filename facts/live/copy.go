package live

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
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

// copied is the outcome of one copy task.
type copied struct {
	files      map[string][]byte
	unreadable []Unreadable
}

func (c *copied) read(root, rel string, limit int64, tail bool) {
	b, err := readCapped(filepath.Join(root, filepath.FromSlash(rel)), limit, tail)
	switch {
	case err == nil:
		c.files[rel] = b
	case errors.Is(err, fs.ErrNotExist):
		// Absent attributes are normal (older kernels, other drivers); the builder reports them.
	default:
		c.unreadable = append(c.unreadable, Unreadable{Path: rel, Error: errText(err)})
	}
}

// errText drops the path from a *PathError: the path is recorded beside it.
func errText(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

func readCapped(p string, limit int64, tail bool) ([]byte, error) {
	f, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if tail {
		if st, err := f.Stat(); err == nil && st.Size() > limit {
			if _, err := f.Seek(st.Size()-limit, io.SeekStart); err != nil {
				return nil, err
			}
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
// named in skip.
func (c *copied) walkFiles(root, rel string, skip map[string]bool) {
	base := filepath.Join(root, filepath.FromSlash(rel))
	if st, err := os.Stat(base); err != nil || !st.IsDir() {
		return
	}
	// A sysfs class entry is a symlink into /sys/devices: walk its target, name files by rel.
	real, err := filepath.EvalSymlinks(base)
	if err != nil {
		c.unreadable = append(c.unreadable, Unreadable{Path: rel, Error: errText(err)})
		return
	}
	_ = filepath.WalkDir(real, func(p string, d fs.DirEntry, err error) error {
		r, _ := filepath.Rel(real, p)
		name := path.Join(rel, filepath.ToSlash(r))
		if err != nil {
			c.unreadable = append(c.unreadable, Unreadable{Path: name, Error: errText(err)})
			return nil
		}
		if d.IsDir() {
			if p != real && skip[d.Name()] {
				return fs.SkipDir
			}
			return nil
		}
		if d.Type().IsRegular() {
			c.read(root, name, maxCopy, false)
		}
		return nil
	})
}

// ibDeviceFiles copies one RDMA device's sysfs directory (attributes, ports, GIDs, counters,
// hw_counters) and the PCI attributes of the function behind it.
func ibDeviceFiles(root, dev string) copied {
	c := copied{files: map[string][]byte{}}
	rel := "sys/class/infiniband/" + dev
	c.walkFiles(root, rel, map[string]bool{"power": true})
	for _, f := range []string{"numa_node", "local_cpulist", "uevent"} {
		c.read(root, rel+"/device/"+f, maxCopy, false)
	}
	return c
}

// portCounterFiles copies only the counters and hw_counters of every port of dev (the second
// read of --sample), under prefix.
func portCounterFiles(root, dev string) copied {
	c := copied{files: map[string][]byte{}}
	for _, dir := range glob(root, "sys/class/infiniband/"+dev+"/ports/*/counters") {
		c.walkFiles(root, dir, nil)
	}
	for _, dir := range glob(root, "sys/class/infiniband/"+dev+"/ports/*/hw_counters") {
		c.walkFiles(root, dir, nil)
	}
	return c
}

// netdevAttrs are the sys/class/net/<if>/ files the builder reads.
var netdevAttrs = []string{"mtu", "operstate", "carrier", "type", "mode", "address", "flags",
	"device/numa_node", "device/local_cpulist", "device/uevent"}

func netdevFiles(root, ifname string) copied {
	c := copied{files: map[string][]byte{}}
	rel := "sys/class/net/" + ifname
	for _, a := range netdevAttrs {
		c.read(root, rel+"/"+a, maxCopy, false)
	}
	c.walkFiles(root, rel+"/ecn", nil)
	return c
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

func hostFiles(root string) copied {
	c := copied{files: map[string][]byte{}}
	for _, pat := range hostPatterns {
		for _, rel := range glob(root, pat) {
			if st, err := os.Stat(filepath.Join(root, rel)); err == nil && st.IsDir() {
				continue
			}
			c.read(root, rel, maxCopy, false)
		}
	}
	c.read(root, "var/log/opensm.log", maxLogTail, true)
	return c
}
