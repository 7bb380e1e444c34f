package build

import (
	"path"
	"strings"
	"sync"

	"github.com/rdmadoctor/rdmadoctor/facts/source"
)

func init() { source.SetSelector(Select) }

// relevantPlugins are the sos plugin folders whose unrecognised files are listed one by one in a
// sosreport; other unrecognised sos files are summarised in one line. It says what is listed,
// not what is read: Select reads what the specs declare.
var relevantPlugins = map[string]bool{
	"infiniband": true, "mellanox_firmware": true, "pci": true, "networking": true,
	"kernel": true, "hardware": true, "rdma": true, "opensm": true,
}

// hostTop are the top folders of a Linux file system (FHS) that sos copies files into; any
// other folder at the top of a sosreport, sos's own aside, was put there by someone (a folder of
// captures), and its files are recognised by content.
var hostTop = map[string]bool{
	"bin": true, "boot": true, "dev": true, "etc": true, "home": true, "lib": true, "lib32": true,
	"lib64": true, "libx32": true, "media": true, "mnt": true, "opt": true, "proc": true,
	"root": true, "run": true, "sbin": true, "snap": true, "srv": true, "sys": true, "tmp": true,
	"usr": true, "var": true,
}

// sosOwn are sos's own folders at the top of a report besides sos_commands: its logs, its
// reports, its strings. Nothing in them is an input but the manifest (SosManifest), which says
// which commands sos cut at their timeout.
var sosOwn = map[string]bool{"sos_logs": true, "sos_reports": true, "sos_strings": true}

// Select decides, from its path alone, what becomes of a file (or a folder, dir set) at rel
// below a sosreport's top folder, before anything of it is read: source.Open applies it to the
// members of an archive as they stream by, and Snapshot to the files of a sosreport folder.
// Everything it reads is derived from the registered specs:
//   - Read: a file below a spec's Root (a tree) or matching one of its Paths; in
//     sos_commands/, a file whose name is one of the specs' Commands (in any plugin folder: sos
//     has moved commands between plugins) or any file of a folder named by a spec's Plugin
//     (recognised by name, then content, as before); a file at the top of the report, or in a
//     folder at its top that is neither a host folder (etc/, var/, ...) nor sos's own (a
//     folder of captures put beside: recognised by content); sos's manifest (SosManifest),
//     read for the commands sos cut at their timeout;
//   - Keep: below sys/devices/ when a tree root is under sys/class/ or sys/bus/, whose entries
//     are links into sys/devices/ (kernel Documentation/admin-guide/sysfs-rules.rst);
//   - List: any other file of an RDMA plugin folder (relevantPlugins), named without being read;
//   - Skip: everything else (etc/, var/, usr/, proc/ and sys/ outside the inputs, sos's logs,
//     the other plugins' commands).
//
// A folder is Read when it is sos_commands/, sos_reports/ (the manifest's), a plugin folder
// above or below which files are read or listed, or on the way to a file that could be read (a
// tree root, a pattern's folder); else Skip. A folder that is skipped is still there when a
// file below it is kept.
func Select(rel string, dir bool) source.Decision {
	ix := specIndex()
	if dir {
		return ix.selectDir(rel)
	}
	if ix.underTree(rel) >= 0 || ix.matchPath(rel) >= 0 {
		return source.Read
	}
	top, rest, _ := strings.Cut(rel, "/")
	switch {
	case rest == "":
		return source.Read
	case top == "sos_commands":
		plugin, _, _ := strings.Cut(rest, "/")
		name, _ := splitName(path.Base(rel))
		if i, _ := ix.matchName(name); ix.plugins[plugin] || i >= 0 {
			return source.Read
		}
		if relevantPlugins[plugin] {
			return source.List
		}
		return source.Skip
	case rel == SosManifest:
		return source.Read
	case sosOwn[top]:
		return source.Skip
	case !hostTop[top]:
		return source.Read
	case ix.inKept(rel):
		return source.Keep
	}
	return source.Skip
}

func (ix *index) selectDir(rel string) source.Decision {
	top, rest, _ := strings.Cut(rel, "/")
	plugin, _, _ := strings.Cut(rest, "/")
	switch {
	case top == "sos_commands" && (rest == "" || ix.plugins[plugin] || relevantPlugins[plugin]):
		return source.Read
	case rel == path.Dir(SosManifest):
		return source.Read
	case top != "sos_commands" && !hostTop[top] && !sosOwn[top]:
		return source.Read
	case ix.ancestors[rel], ix.underTree(rel) >= 0, ix.inKept(rel):
		return source.Read
	}
	return source.Skip
}

// index is the registered specs' recognition by path and name, as maps: what matchName,
// matchPath, underTree and Select look up for every file of a snapshot. Its numbers are
// positions in Specs().
type index struct {
	commands  map[string]int       // a command name -> the first spec (in priority order) that names it
	roots     map[string]int       // a tree root -> its spec
	paths     map[string][]pathPat // the literal folder of a path pattern -> its patterns
	wild      []pathPat            // patterns whose folder holds a wildcard
	plugins   map[string]bool      // the plugin folders the specs name
	kept      []string             // folders kept whole for the links of trees (sys/devices)
	ancestors map[string]bool      // folders above a tree root, a pattern's folder or a kept folder
}

type pathPat struct {
	pattern string
	spec    int
}

var specIndex = sync.OnceValue(func() *index {
	specs := sorted()
	ix := &index{commands: map[string]int{}, roots: map[string]int{}, paths: map[string][]pathPat{},
		plugins: map[string]bool{}, ancestors: map[string]bool{}}
	above := func(dir string) {
		for d := path.Dir(dir); d != "."; d = path.Dir(d) {
			ix.ancestors[d] = true
		}
	}
	for i, sp := range specs {
		for _, c := range sp.Commands {
			if _, ok := ix.commands[c]; !ok {
				ix.commands[c] = i
			}
		}
		if sp.Root != "" {
			if _, ok := ix.roots[sp.Root]; !ok {
				ix.roots[sp.Root] = i
			}
			above(sp.Root)
			if strings.HasPrefix(sp.Root, "sys/class/") || strings.HasPrefix(sp.Root, "sys/bus/") {
				ix.kept = appendOnce(ix.kept, "sys/devices")
			}
		}
		for _, pat := range sp.Paths {
			dir := path.Dir(pat)
			if strings.ContainsAny(dir, `*?[\`) {
				ix.wild = append(ix.wild, pathPat{pat, i})
				continue
			}
			ix.paths[dir] = append(ix.paths[dir], pathPat{pat, i})
			ix.ancestors[dir] = true
			above(dir)
		}
		if sp.Plugin != "" {
			ix.plugins[sp.Plugin] = true
		}
	}
	for _, k := range ix.kept {
		ix.ancestors[k] = true
		above(k)
	}
	return ix
})

func appendOnce(list []string, s string) []string {
	for _, x := range list {
		if x == s {
			return list
		}
	}
	return append(list, s)
}

// matchName returns the spec whose command name is the longest prefix of name (a base name
// without capture suffix and label) followed by "_" or the end, and that command's length; -1
// when none is. The candidates are name and each of its prefixes that ends before a "_",
// longest first.
func (ix *index) matchName(name string) (int, int) {
	if i, ok := ix.commands[name]; ok {
		return i, len(name)
	}
	for k := len(name) - 1; k > 0; k-- {
		if name[k] == '_' {
			if i, ok := ix.commands[name[:k]]; ok {
				return i, k
			}
		}
	}
	return -1, 0
}

// matchPath returns the first spec (in priority order) with a Paths pattern matching p, or -1.
func (ix *index) matchPath(p string) int {
	best := -1
	for _, list := range [][]pathPat{ix.paths[path.Dir(p)], ix.wild} {
		for _, pp := range list {
			if best >= 0 && pp.spec >= best {
				continue
			}
			if ok, _ := path.Match(pp.pattern, p); ok {
				best = pp.spec
			}
		}
	}
	return best
}

// underTree returns the first spec (in priority order) whose Root is p or contains it, or -1.
func (ix *index) underTree(p string) int {
	best := -1
	for d := p; d != "." && d != "/" && d != ""; d = path.Dir(d) {
		if i, ok := ix.roots[d]; ok && (best < 0 || i < best) {
			best = i
		}
	}
	return best
}

// inKept reports whether p is a kept folder or below one.
func (ix *index) inKept(p string) bool {
	for _, k := range ix.kept {
		if p == k || strings.HasPrefix(p, k+"/") {
			return true
		}
	}
	return false
}
