package build

import (
	"fmt"
	"io"
	"io/fs"
	"path"
	"sort"
	"strings"

	"github.com/rdmadoctor/rdmadoctor/facts/source"
	"github.com/rdmadoctor/rdmadoctor/internal/visible"
)

// FolderKind is what a folder is to rdmadoctor, told by positive evidence only (ClassifyFolder).
type FolderKind int

const (
	// NoSnapshot: nothing rdmadoctor reads at its top, and no snapshot in its folders down to
	// MaxFolderDepth levels.
	NoSnapshot FolderKind = iota
	// OneSnapshot: one node's snapshot.
	OneSnapshot
	// Snapshots: a folder of snapshots (at any level down to MaxFolderDepth).
	Snapshots
)

// MaxFolderDepth is how many levels of folders ClassifyFolder looks through for snapshots:
// racks/rack1/node001/sosreport-node001-.../ is 3 below racks/.
const MaxFolderDepth = 4

// maxListed bounds the names kept to tell what a folder holds (Evidence, Inner, error
// messages); Nodes and NotRead are all kept.
const maxListed = 8

// snapshotMarkers are the entries at the top of a whole snapshot: a sosreport's sos_commands/,
// a gather output's rdmadoctor.yaml, a copied tree's sys/ or proc/.
var snapshotMarkers = []string{"sos_commands", "rdmadoctor.yaml", "sys", "proc"}

// Folder is what ClassifyFolder found in a folder.
type Folder struct {
	Kind FolderKind
	// Evidence is what decided Kind, for messages: the markers or capture names at its top
	// ("sos_commands/", "ibstat"), or the one folder a wrapper holds ("sosreport-node01/ ...").
	Evidence []string
	// Whole is true when the snapshot is a whole one by a marker at its top (sos_commands/,
	// rdmadoctor.yaml, sys/, proc/), or holds one: not loose captures.
	Whole bool
	// Report is true when a sosreport or gather output is at its top (sos_commands/,
	// rdmadoctor.yaml): facts/source re-roots a folder holding one such folder at it.
	Report bool
	// Nodes are the snapshots of a folder of snapshots, slash-separated paths relative to it,
	// in name order, folders of snapshots inside it expanded.
	Nodes []Node
	// NotRead are the files of a folder of snapshots (at any level) that are not snapshots.
	NotRead []NotRead
	// Inner are the folders of a OneSnapshot with captures at its top that hold captures too
	// (read as the same host's, as facts/build reads any folder of captures; it refuses the
	// ones that look like other hosts': SeveralHostsError); of a NoSnapshot, the folders
	// looked into, none of them a snapshot.
	Inner []string

	wrapper bool // a OneSnapshot that is one folder holding the snapshot
}

// Node is one snapshot found in a folder of snapshots.
type Node struct {
	// Path is relative to the folder classified, slash-separated.
	Path string
	// Why is the evidence it is a snapshot: "sos_commands/", "ibstat", "archive", "no input
	// rdmadoctor reads" (a folder beside snapshots, diagnosed as one).
	Why string
	// Whole, Report: as Folder's; an archive is Whole.
	Whole, Report bool
	// Depth is the number of folders between the one classified and the node (0: an entry of
	// its top).
	Depth int
	// Captures is true for a folder of loose captures at the top (depth 0, not Whole).
	Captures bool
}

// NotRead is a file of a folder of snapshots that is no snapshot.
type NotRead struct {
	// Path is relative to the folder classified, slash-separated.
	Path string
	// Capture is true when the file is named like a capture rdmadoctor reads (an ibstat beside
	// snapshot folders): it would belong to none of them.
	Capture bool
	// LinkOut is the target of a symbolic link that leads out of the folder classified: never
	// followed (what it points at is not in the folder; a snapshot's links to the machine's
	// files are no input).
	LinkOut string
}

// ClassifyFolder tells what the folder fsys (its "." ) is: one node's snapshot, a folder of
// snapshots, or neither, by positive evidence.
//
//   - A marker at its top (sos_commands/, rdmadoctor.yaml, sys/, proc/) makes it one whole
//     snapshot, whatever else it holds.
//   - A file at its top named like a capture rdmadoctor reads (ibstat, lspci_-nnvv,
//     ibv_devinfo_-v.txt: SpecOf) makes it one snapshot of loose captures, unless one of its
//     entries is a whole snapshot, an archive or a folder of snapshots: then it is a folder of
//     snapshots and those captures are NotRead (with Capture set), named rather than read as
//     the node of none of them.
//   - Otherwise it is a folder of snapshots when an entry is a snapshot, an archive (by name
//     or compressed content) or a folder of snapshots (looked through down to MaxFolderDepth
//     levels): every entry that is a folder or an archive is then a node, other files are
//     NotRead. A folder holding nothing but one folder that is a snapshot is that snapshot (an
//     unpacked sosreport in a folder named for the node).
//
// Hidden entries are left out. A folder that cannot be listed is NoSnapshot.
func ClassifyFolder(fsys fs.FS) Folder {
	return classifyFolder(fsys, ".", 0)
}

func classifyFolder(fsys fs.FS, dir string, depth int) Folder {
	all, err := fs.ReadDir(fsys, dir)
	if err != nil {
		return Folder{}
	}
	var entries []fs.DirEntry
	for _, e := range all {
		if !strings.HasPrefix(e.Name(), ".") {
			entries = append(entries, e)
		}
	}
	sort.Slice(entries, func(i, j int) bool { return entries[i].Name() < entries[j].Name() })

	var f Folder
	for _, e := range entries { // from the listing: no Stat per marker and folder
		for _, m := range snapshotMarkers {
			if e.Name() == m {
				name := m
				if isDir(fsys, path.Join(dir, m), e) {
					name += "/"
				}
				f.Evidence = append(f.Evidence, name)
				f.Report = f.Report || m == "sos_commands" || m == "rdmadoctor.yaml"
			}
		}
	}
	if len(f.Evidence) > 0 {
		f.Kind, f.Whole = OneSnapshot, true
		return f
	}
	var captures []string // capture names at the top
	for _, e := range entries {
		if e.Type().IsRegular() && SpecOf(e.Name()) != "" {
			captures = append(captures, e.Name())
		}
	}

	// The entries, each told apart; folders are looked into down to MaxFolderDepth.
	type entry struct {
		name    string
		dir     bool
		archive bool
		sub     Folder
		linkOut string // the target of a link out of the folder: neither looked into nor read
	}
	var (
		es                  []entry
		anySnapshot, strong bool
	)
	for _, e := range entries {
		full := path.Join(dir, e.Name())
		en := entry{name: e.Name()}
		if en.linkOut = linkOut(fsys, full, e); en.linkOut == "" {
			en.dir = isDir(fsys, full, e)
		}
		switch {
		case en.linkOut != "":
		case en.dir && depth < MaxFolderDepth:
			en.sub = classifyFolder(fsys, full, depth+1)
		case !en.dir && SpecOf(e.Name()) == "":
			en.archive = isArchiveFile(fsys, full, e.Name())
		}
		switch {
		case en.archive:
			anySnapshot, strong = true, true
		case en.sub.Kind == OneSnapshot:
			anySnapshot = true
			strong = strong || en.sub.Whole
		case en.sub.Kind == Snapshots:
			anySnapshot, strong = true, true
		}
		es = append(es, en)
	}

	if len(captures) > 0 && !strong {
		f.Kind, f.Evidence = OneSnapshot, clipTo(captures, 3)
		for _, en := range es {
			if en.sub.Kind == OneSnapshot {
				f.Inner = append(f.Inner, en.name+"/")
			}
		}
		f.Inner = clip(f.Inner)
		return f
	}
	if !anySnapshot {
		for _, en := range es {
			if en.dir {
				f.Inner = append(f.Inner, en.name+"/")
			}
		}
		return Folder{Inner: clip(f.Inner)}
	}
	// A wrapper: nothing but one folder that is one snapshot by what is at its top (one level:
	// in rack2/node003/sosreport-node003-.../ the node is node003, not rack2).
	if len(es) == 1 && es[0].sub.Kind == OneSnapshot && !es[0].sub.wrapper {
		w := es[0].sub
		return Folder{Kind: OneSnapshot, Evidence: []string{es[0].name + "/ (" + strings.Join(w.Evidence, ", ") + ")"}, Whole: w.Whole, Report: w.Report, wrapper: true}
	}
	f.Kind = Snapshots
	for _, en := range es {
		p := path.Join(dir, en.name) // relative to the top ("." is the top)
		switch {
		case en.archive:
			f.Nodes = append(f.Nodes, Node{Path: p, Why: "archive", Whole: true})
		case en.sub.Kind == Snapshots:
			for _, n := range en.sub.Nodes { // their paths are relative to the top already
				n.Depth++
				n.Captures = false
				f.Nodes = append(f.Nodes, n)
			}
			f.NotRead = append(f.NotRead, en.sub.NotRead...)
		case en.sub.Kind == OneSnapshot:
			f.Nodes = append(f.Nodes, Node{Path: p, Why: strings.Join(clipTo(en.sub.Evidence, 2), ", "), Whole: en.sub.Whole, Report: en.sub.Report, Captures: !en.sub.Whole})
		case en.dir:
			f.Nodes = append(f.Nodes, Node{Path: p, Why: "no input rdmadoctor reads"})
		default:
			f.NotRead = append(f.NotRead, NotRead{Path: p, Capture: en.linkOut == "" && SpecOf(en.name) != "", LinkOut: en.linkOut})
		}
	}
	return f
}

// linkOut returns the target of the entry e at p when it is a symbolic link that leads out of
// fsys: absolute, or climbing above its top once the links on its way are resolved (the folders
// it is below may be links themselves), or a chain of more than maxLinkHops; else "".
func linkOut(fsys fs.FS, p string, e fs.DirEntry) string {
	if e.Type()&fs.ModeSymlink == 0 {
		return ""
	}
	target, err := fs.ReadLink(fsys, p)
	if err != nil {
		return ""
	}
	todo := strings.Split(p, "/")
	cur := "" // the real path resolved so far, relative to the top
	for hops := 0; len(todo) > 0; {
		next := path.Join(cur, todo[0])
		todo = todo[1:]
		if next == ".." || strings.HasPrefix(next, "../") {
			return target
		}
		t, err := fs.ReadLink(fsys, next)
		if err != nil {
			cur = next // not a link
			continue
		}
		if hops++; hops > maxLinkHops || path.IsAbs(t) {
			return target
		}
		todo = append(strings.Split(t, "/"), todo...) // resolved from cur, the link's folder
	}
	return ""
}

// maxLinkHops bounds the links linkOut resolves on one path, like the kernel's ELOOP limit.
const maxLinkHops = 40

// isDir reports whether the entry e at p is a folder, following a symbolic link.
func isDir(fsys fs.FS, p string, e fs.DirEntry) bool {
	if e.IsDir() {
		return true
	}
	if e.Type()&fs.ModeSymlink == 0 {
		return false
	}
	st, err := fs.Stat(fsys, p)
	return err == nil && st.IsDir()
}

// ArchiveSuffixes are the names of the archives a snapshot comes in.
var ArchiveSuffixes = []string{".tar", ".tar.gz", ".tgz", ".tar.xz", ".txz", ".tar.bz2", ".tbz2"}

// ArchiveName is name without an archive suffix (ArchiveSuffixes).
func ArchiveName(name string) string {
	for _, s := range ArchiveSuffixes {
		if strings.HasSuffix(name, s) && len(name) > len(s) {
			return strings.TrimSuffix(name, s)
		}
	}
	return name
}

// isArchiveFile reports whether the file at p is an archive: by its name, or compressed by its
// content.
func isArchiveFile(fsys fs.FS, p, name string) bool {
	if ArchiveName(name) != name {
		return true
	}
	fl, err := fsys.Open(p)
	if err != nil {
		return false
	}
	defer fl.Close()
	if st, err := fl.Stat(); err != nil || !st.Mode().IsRegular() {
		return false
	}
	head := make([]byte, 512)
	n, _ := io.ReadFull(fl, head)
	return source.IsCompressed(head[:n])
}

// clip keeps the first maxListed names, and says how many more there were.
func clip(names []string) []string { return clipTo(names, maxListed) }

// clipTo keeps the first n names, and says how many more there were.
func clipTo(names []string, n int) []string {
	if len(names) <= n {
		return names
	}
	return append(names[:n:n], fmt.Sprintf("%d more", len(names)-n))
}

// SeveralSnapshotsError refuses a folder, or an archive, given to diagnose as one snapshot
// that is a folder of snapshots the reader would mix up or leave unread (CheckOneSnapshot,
// CheckOneArchive).
type SeveralSnapshotsError struct {
	// Path is the folder or archive as the user gave it.
	Path string
	// Folder is what it holds.
	Folder Folder
	// Archive is set when Path is an archive: what it holds is named the same way, and fleet
	// reads it unpacked.
	Archive bool
}

func (e *SeveralSnapshotsError) Error() string {
	f := e.Folder
	var names []string
	for _, n := range f.Nodes {
		names = append(names, n.Path+" ("+n.Why+")")
	}
	var b strings.Builder
	container := "a folder"
	if e.Archive {
		container = "an archive"
	}
	what := fmt.Sprintf("%s of %d snapshots", container, len(f.Nodes))
	if len(f.Nodes) == 1 {
		what = container + " holding a snapshot"
	}
	fmt.Fprintf(&b, "%s is %s, not one node's: %s", e.Path, what, strings.Join(clip(names), ", "))
	var loose []string
	for _, nr := range f.NotRead {
		if nr.Capture {
			loose = append(loose, nr.Path)
		}
	}
	if len(loose) > 0 {
		fmt.Fprintf(&b, "; captures beside them, of none of them: %s", strings.Join(clip(loose), ", "))
	}
	if e.Archive {
		dir, unpack := unpackTo(e.Path)
		fmt.Fprintf(&b, "; unpack it (%s) and run `rdmadoctor fleet %s` to diagnose each, or give one of them to --snapshot", unpack, visible.ShellQuote(dir))
	} else {
		fmt.Fprintf(&b, "; run `rdmadoctor fleet %s` to diagnose each, or give one of them to --snapshot", visible.ShellQuote(e.Path))
	}
	return b.String()
}

// CheckOneSnapshot returns a *SeveralSnapshotsError when the folder fsys, given as one node's
// snapshot (path, as the user named it), is a folder of snapshots that reading it as one
// would get wrong: several nodes, whole snapshots (sosreports, copied trees, archives) or
// folders of snapshots below its top, or captures at its top beside them. It returns nil for
// one snapshot, for a folder of nothing rdmadoctor reads, for one folder holding a sosreport
// or gather output (facts/source reads that one), and for folders of loose captures at its
// top (before/, after/, node01/, node02/: facts/build reads them as one host's captures at
// several times, or refuses them as several hosts': SeveralHostsError).
func CheckOneSnapshot(fsys fs.FS, path string) error {
	return checkOne(fsys, path, false)
}

// CheckOneArchive is CheckOneSnapshot for the archive at path, whose whole tree (as
// facts/source kept it, before re-rooting: source.Options.Check) is fsys: an archive is
// refused where the folder it unpacks to would be, with the same *SeveralSnapshotsError
// (Archive set).
func CheckOneArchive(fsys fs.FS, path string) error {
	return checkOne(fsys, path, true)
}

func checkOne(fsys fs.FS, path string, archive bool) error {
	f := ClassifyFolder(fsys)
	if f.Kind != Snapshots {
		return nil
	}
	loose := false
	for _, nr := range f.NotRead {
		loose = loose || nr.Capture
	}
	if !loose {
		if len(f.Nodes) == 1 && f.Nodes[0].Depth == 0 && f.Nodes[0].Report {
			return nil
		}
		captures := true
		for _, n := range f.Nodes {
			captures = captures && (n.Captures || n.Why == "no input rdmadoctor reads")
		}
		if captures {
			return nil
		}
	}
	return &SeveralSnapshotsError{Path: path, Folder: f, Archive: archive}
}
