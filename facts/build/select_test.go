package build

import (
	"fmt"
	"io/fs"
	"os"
	"path"
	"strings"
	"sync"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/facts/source"
	"github.com/rdmadoctor/rdmadoctor/fixtures"
)

func TestSelect(t *testing.T) {
	for rel, want := range map[string]source.Decision{
		"sos_commands/infiniband/ibstat":                                    source.Read,
		"sos_commands/infiniband/ibswitches":                                source.Read,
		"sos_commands/infiniband/ibdiagnet_-r":                              source.Read, // a spec's plugin folder: recognised by content
		"sos_commands/networking/netstat_-s":                                source.Read,
		"sos_commands/hardware/lspci_-nnvv":                                 source.Read, // a spec's command in another plugin folder
		"sos_commands/pci/lspci_-tv":                                        source.Read,
		"sos_commands/networking/namespaces/ns1/ip_-d_address":              source.Read,
		"sos_commands/rdma/rdma_res":                                        source.List, // listed one by one, not read
		"sos_commands/opensm/opensm_--version":                              source.Read, // opensm: a command name
		"sos_commands/selinux/sestatus":                                     source.Skip,
		"sos_commands/processor/lscpu":                                      source.Skip,
		"sos_commands/logs/journalctl_--no-pager":                           source.Skip,
		"sos_commands/logs/journalctl_-k":                                   source.Read, // dmesg's journalctl -k, wherever sos put it
		"sos_logs/sos.log":                                                  source.Skip,
		"sos_reports/manifest.json":                                         source.Read, // which commands sos cut at their timeout
		"sos_reports/sos.json":                                              source.Skip,
		"var/log/messages":                                                  source.Read,
		"var/log/messages-20240101.gz":                                      source.Read,
		"var/log/opensm.log":                                                source.Read,
		"var/log/boot.log":                                                  source.Skip,
		"var/lib/rpm/Packages":                                              source.Skip,
		"etc/hostname":                                                      source.Read,
		"etc/opensm/opensm.conf":                                            source.Read,
		"etc/security/limits.d/90-rdma.conf":                                source.Read,
		"etc/network/if-up.d/ethtool":                                       source.Skip, // a script named like a command, not its output
		"etc/rdma/rdma.conf":                                                source.Skip,
		"proc/interrupts":                                                   source.Read,
		"proc/softirqs":                                                     source.Skip, // its format is /proc/interrupts' but it is not
		"proc/meminfo":                                                      source.Read,
		"proc/irq/99/smp_affinity_list":                                     source.Read,
		"proc/sys/net/ipv6/conf/ib0/disable_ipv6":                           source.Read,
		"sys/class/net/ib0":                                                 source.Read,
		"sys/class/infiniband/mlx5_0/ports/1/state":                         source.Read,
		"sys/devices/pci0000:80/0000:80:01.0/0000:81:00.0/numa_node":        source.Keep, // behind sys/class links
		"sys/devices/system/cpu/cpu0/cpufreq/scaling_governor":              source.Read,
		"sys/kernel/mm/transparent_hugepage/enabled":                        source.Read,
		"sys/module/mlx5_core/parameters/prof_sel":                          source.Skip,
		"usr/lib/os-release":                                                source.Skip,
		"version.txt":                                                       source.Read, // the top of the report: captures put beside
		"ibstat_node01.txt":                                                 source.Read,
		"tickets/node01/weird name":                                         source.Read, // a folder of captures put into the report
		"sample/sys/class/infiniband/mlx5_0/ports/1/counters/port_rcv_data": source.Read,
	} {
		if got := Select(rel, false); got != want {
			t.Errorf("Select(%q) = %v, want %v", rel, got, want)
		}
	}
	for rel, want := range map[string]source.Decision{
		"sos_commands":            source.Read,
		"sos_commands/infiniband": source.Read,
		"sos_commands/rdma":       source.Read,
		"sos_commands/selinux":    source.Skip,
		"sos_logs":                source.Skip,
		"sos_reports":             source.Read, // the manifest's
		"sos_strings":             source.Skip,
		"etc":                     source.Read, // etc/hostname
		"etc/security/limits.d":   source.Read,
		"etc/apt":                 source.Skip,
		"sys":                     source.Read,
		"sys/class":               source.Read,
		"sys/class/infiniband":    source.Read, // an empty tree root says the tree was copied
		"sys/devices/virtual/net": source.Read,
		"sys/module":              source.Skip,
		"proc/irq/99":             source.Read,
		"proc/1":                  source.Skip,
		"usr":                     source.Skip,
		"tickets":                 source.Read,
	} {
		if got := Select(rel, true); got != want {
			t.Errorf("Select(%q, dir) = %v, want %v", rel, got, want)
		}
	}
}

// TestSelectReadsEverySpecInput: every path and name a spec declares is read, whichever spec
// declares it (the decision is derived from the declarations, never a list of its own), and
// the builder then gives the file to a spec.
func TestSelectReadsEverySpecInput(t *testing.T) {
	for _, sp := range Specs() {
		var paths []string
		for _, pat := range sp.Paths {
			paths = append(paths, instantiate(pat))
		}
		if sp.Root != "" {
			paths = append(paths, sp.Root+"/x/y")
		}
		for _, c := range sp.Commands {
			plugins := []string{"selinux"} // a folder no spec names: sos moves commands between plugins
			if sp.Plugin != "" {
				plugins = append(plugins, sp.Plugin)
			}
			for _, pl := range plugins {
				paths = append(paths, "sos_commands/"+pl+"/"+c, "sos_commands/"+pl+"/"+c+"_-x_mlx5_0", "sos_commands/"+pl+"/"+c+".txt")
			}
		}
		if len(paths) == 0 && sp.Tree == nil && len(sp.Commands) == 0 {
			continue
		}
		for _, p := range paths {
			if d := Select(p, false); d != source.Read {
				t.Errorf("%s: Select(%q) = %v, want read", sp.Name, p, d)
			}
			if got := SpecOf(p); got == "" {
				t.Errorf("%s: no spec reads %q", sp.Name, p)
			}
			if strings.HasPrefix(p, "sos_commands/selinux/") {
				continue // a folder no spec names is not kept as such; the file's parents are
			}
			for d := path.Dir(p); d != "."; d = path.Dir(d) {
				if got := Select(d, true); got != source.Read {
					t.Errorf("%s: folder %q of %q is %v, want read", sp.Name, d, p, got)
				}
			}
		}
	}
}

// instantiate returns a path that pattern matches: each wildcard replaced by a plain name.
func instantiate(pattern string) string {
	r := strings.NewReplacer("*", "x", "?", "x")
	p := r.Replace(pattern)
	for strings.Contains(p, "[") {
		i, j := strings.Index(p, "["), strings.Index(p, "]")
		p = p[:i] + "x" + p[j+1:]
	}
	if ok, _ := path.Match(pattern, p); !ok {
		panic("instantiate " + pattern + ": " + p)
	}
	return p
}

// TestMatchNameIsTheLongestCommand: the map lookup finds what a scan of every spec's commands
// finds (the longest command that is the name or its prefix before a "_"), for every command
// with and without arguments, labels and capture suffixes, and for the corpus's file names.
func TestMatchNameIsTheLongestCommand(t *testing.T) {
	specs := Specs()
	scan := func(p string) (string, string, string) {
		name, label := splitName(path.Base(p))
		best, spec, args := -1, "", ""
		for i := range specs {
			for _, c := range specs[i].Commands {
				if len(c) > best && (name == c || strings.HasPrefix(name, c+"_")) {
					best, spec, args = len(c), specs[i].Name, strings.TrimPrefix(strings.TrimPrefix(name, c), "_")
				}
			}
		}
		return spec, args, label
	}
	names := []string{"", "_", "ibstat_", "x", "ip", "ip_", "ethtool__label", "ethtool_-m__node01.txt"}
	for _, sp := range specs {
		for _, c := range sp.Commands {
			names = append(names, c, c+"_-d_0000_81_00.0", c+"__node02", c+"_eth0__after.log", c+"x", strings.TrimSuffix(c, c[len(c)-1:]))
		}
	}
	err := fs.WalkDir(os.DirFS(fixtures.Dir()), ".", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			names = append(names, p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range names {
		wantSpec, wantArgs, wantLabel := scan(p)
		sp, args, label := matchName(specs, p)
		gotSpec := ""
		if sp != nil {
			gotSpec = sp.Name
		}
		if gotSpec != wantSpec || args != wantArgs || label != wantLabel {
			t.Errorf("matchName(%q) = %q %q %q, want %q %q %q", p, gotSpec, args, label, wantSpec, wantArgs, wantLabel)
		}
	}
}

// countingFS counts the files opened through it, by path.
type countingFS struct {
	fs.FS
	mu     sync.Mutex
	opened map[string]int
}

func (c *countingFS) Open(name string) (fs.File, error) {
	c.mu.Lock()
	c.opened[name]++
	c.mu.Unlock()
	return c.FS.Open(name)
}

// TestSnapshotOpensOnlyWhatIsRead: in a sosreport folder the files nothing reads (etc/, usr/,
// var/lib/, other plugins' commands) are counted and never opened, however many there are;
// the report is the one of the captures alone, but for that count. A capture put at the top
// under a name that says nothing, or in a folder of captures inside the report, is still
// recognised by its content.
func TestSnapshotOpensOnlyWhatIsRead(t *testing.T) {
	ibstat := fixtures.Read(t, "ibstat/cx4-back-to-back-active-node01.txt")
	captures := fstest.MapFS{
		"sos_commands/pci/lspci_-nnvv":    {Data: fixtures.Read(t, "lspci/cx5-nn-pf-vfs.txt")},
		"sos_commands/infiniband/ibstat":  {Data: ibstat},
		"notes from the node":             {Data: fixtures.Read(t, "ibstatus/roce-ndr.txt")},
		"tickets/pasted (1).txt":          {Data: fixtures.Read(t, "ibv_devinfo/cx4lx-roce-verbose-gids.txt")},
		"sos_commands/selinux/sestatus_x": {Data: []byte("SELinux status:                 disabled\n")},
	}
	base, err := Snapshot(captures, facts.SourceInfo{Kind: "sosreport"})
	if err != nil {
		t.Fatal(err)
	}
	for spec, origin := range map[string]string{"ibstatus": "notes from the node", "ibv_devinfo": "tickets/pasted (1).txt"} {
		if !hasSource(base, spec, origin, "content") {
			t.Errorf("%s not read as %s by content: %+v", origin, spec, base.Sources)
		}
	}
	for _, n := range []int{10, 1000} {
		fsys := fstest.MapFS{}
		for k, v := range captures {
			fsys[k] = v
		}
		dirs := []string{"etc/apt", "usr/share/doc/x", "var/lib/dpkg", "proc/1", "sys/module/x", "sos_commands/yum", "sos_logs"}
		for i := range n {
			// Contents that a content sniff would take for ibstat output: never looked at.
			fsys[fmt.Sprintf("%s/f%d", dirs[i%len(dirs)], i)] = &fstest.MapFile{Data: ibstat}
		}
		c := &countingFS{FS: fsys, opened: map[string]int{}}
		s, err := Snapshot(c, facts.SourceInfo{Kind: "sosreport"})
		if err != nil {
			t.Fatal(err)
		}
		for p := range c.opened {
			if _, isCapture := captures[p]; !isCapture && fsys[p] != nil {
				t.Errorf("%d members: %s opened", n, p)
			}
		}
		if diff := cmp.Diff(summaryAside(base.Sources, 1), summaryAside(s.Sources, n+1)); diff != "" {
			t.Errorf("%d members: sources (-captures alone +with them):\n%s", n, diff)
		}
	}
}

func hasSource(s *facts.Snapshot, name, origin, how string) bool {
	for _, src := range s.Sources {
		if src.Name == name && src.Origin == origin && src.RecognisedBy == how && src.Status == facts.StatusOK {
			return true
		}
	}
	return false
}

// summaryAside returns the sources with the one-line count of files not read replaced by a
// marker, after checking that it counts want files.
func summaryAside(srcs []facts.Source, want int) []facts.Source {
	var out []facts.Source
	for _, src := range srcs {
		if src.Origin == "sos_commands/*" {
			src.Error = strings.Replace(src.Error, fmt.Sprint(want)+" ", "N ", 1)
		}
		out = append(out, src)
	}
	return out
}
