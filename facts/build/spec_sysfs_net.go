package build

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strings"
	"sync"

	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/facts/parse"
)

func init() {
	register(Spec{
		Name:        "sysfs_net",
		Root:        "sys/class/net",
		Tree:        readSysfsNet,
		Priority:    10,
		MissingHint: "copy /sys/class/net/*/{mtu,operstate,carrier,type,mode,address,device/numa_node,device/local_cpulist,ecn}",
		Groups:      []string{"netdevs", "ecn"},
	})
}

// sysfsNetFiles are the attributes read from each /sys/class/net/<if>/ directory.
var sysfsNetFiles = sync.OnceValue(func() []string {
	f := []string{"mtu", "operstate", "carrier", "flags", "type", "mode", "address",
		"device/numa_node", "device/local_cpulist"}
	for _, point := range []string{"roce_np", "roce_rp"} {
		for p := 0; p < 8; p++ {
			f = append(f, fmt.Sprintf("ecn/%s/enable/%d", point, p))
		}
	}
	return f
})

// readSysfsNet reads one netdev per directory of sys/class/net. A missing attribute leaves its
// fact null; an unreadable or malformed one is recorded as an error source and the others are
// still read.
func readSysfsNet(s *facts.Snapshot, fsys fs.FS) []facts.Source {
	const root = "sys/class/net"
	entries, err := fs.ReadDir(fsys, root)
	if err != nil {
		return []facts.Source{{Name: "sysfs_net", Origin: root, Status: facts.StatusError, Error: err.Error(), RecognisedBy: "path"}}
	}
	var out []facts.Source
	for _, e := range entries {
		name := e.Name()
		if name == "bonding_masters" {
			continue
		}
		dir := path.Join(root, name)
		src := facts.Source{Name: "sysfs_net", Origin: dir, Status: facts.StatusOK, RecognisedBy: "path"}
		attrs := map[string][]byte{}
		for _, f := range sysfsNetFiles() {
			b, err := fs.ReadFile(fsys, path.Join(dir, f))
			switch {
			case err == nil:
				attrs[f] = b
			case !errors.Is(err, fs.ErrNotExist):
				out = append(out, facts.Source{Name: "sysfs_net", Origin: path.Join(dir, f), Status: facts.StatusError, Error: err.Error(), RecognisedBy: "path"})
			}
		}
		n, err := parse.SysfsNet(name, attrs)
		for tries := 0; err != nil && tries < len(sysfsNetFiles()); tries++ {
			bad := badSysfsAttr(err, attrs)
			out = append(out, facts.Source{Name: "sysfs_net", Origin: path.Join(dir, bad), Status: facts.StatusError, Error: err.Error(), RecognisedBy: "path"})
			delete(attrs, bad)
			n, err = parse.SysfsNet(name, attrs)
		}
		for k, ev := range n.Evidence {
			ev.Source, ev.Path = "sysfs_net", path.Join(dir, ev.Path)
			n.Evidence[k] = ev
		}
		addNetdev(s, Input{Spec: "sysfs_net", Path: dir}, n)
		out = append(out, src)
	}
	return out
}

// badSysfsAttr finds the attribute a SysfsNet error names (its message starts with the file).
func badSysfsAttr(err error, attrs map[string][]byte) string {
	for k := range attrs {
		if strings.HasPrefix(err.Error(), k+":") {
			return k
		}
	}
	for k := range attrs {
		return k // cannot happen with SysfsNet's errors; drop something so the loop ends
	}
	return ""
}
