package fleet

import (
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/rdmadoctor/rdmadoctor/facts/build"
	"github.com/rdmadoctor/rdmadoctor/facts/source"
)

// Expand turns the PATHs of `rdmadoctor fleet` into one path per node snapshot, in the order
// given (a folder's entries in name order). A PATH is one node's snapshot unless it is a folder
// with no input of its own at its top and at least one entry that is a snapshot; then each of
// its entries that is a folder or an archive is one node (see isSnapshotDir and isArchive for
// the evidence). Other files in such a folder (checksums, notes) are not nodes: they are
// returned in notRead, for the caller to name. A PATH that does not exist or cannot be listed
// is still returned as a node, which Run lists as unreadable.
func Expand(paths []string) (nodes, notRead []string) {
	for _, p := range paths {
		entries, ok := snapshotEntries(p)
		if !ok {
			nodes = append(nodes, p)
			continue
		}
		for _, e := range entries {
			full := filepath.Join(p, e.Name())
			if e.IsDir() || isArchive(full) {
				nodes = append(nodes, full)
			} else {
				notRead = append(notRead, full)
			}
		}
	}
	return nodes, notRead
}

// snapshotEntries returns the entries of dir (hidden ones left out) when dir is a folder of
// snapshots, ok false when it is one snapshot (or not a folder).
func snapshotEntries(dir string) (entries []os.DirEntry, ok bool) {
	st, err := os.Stat(dir)
	if err != nil || !st.IsDir() || isSnapshotDir(dir) {
		return nil, false
	}
	all, err := os.ReadDir(dir)
	if err != nil {
		return nil, false
	}
	for _, e := range all {
		if !strings.HasPrefix(e.Name(), ".") {
			entries = append(entries, e)
		}
	}
	sort.Slice(entries, func(i, j int) bool { return entries[i].Name() < entries[j].Name() })
	for _, e := range entries {
		full := filepath.Join(dir, e.Name())
		if isArchive(full) || e.IsDir() && (isSnapshotDir(full) || wrapsSnapshot(full)) {
			return entries, true
		}
	}
	return nil, false
}

// snapshotMarkers are the entries at the top of a snapshot: a sosreport's sos_commands/, a
// gather output's rdmadoctor.yaml, a copied tree's sys/ or proc/.
var snapshotMarkers = []string{"sos_commands", "rdmadoctor.yaml", "sys", "proc"}

// isSnapshotDir reports whether dir is one node's snapshot by positive evidence: a marker at its
// top, or a file there named like a capture rdmadoctor reads (ibstat, lspci_-nnvv, ...).
func isSnapshotDir(dir string) bool {
	for _, m := range snapshotMarkers {
		if _, err := os.Lstat(filepath.Join(dir, m)); err == nil {
			return true
		}
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return false
	}
	for _, e := range entries {
		if e.Type().IsRegular() && build.SpecOf(e.Name()) != "" {
			return true
		}
	}
	return false
}

// wrapsSnapshot reports whether dir holds nothing but one folder that is a snapshot (an
// unpacked sosreport-node01-.../ in a folder named for the node).
func wrapsSnapshot(dir string) bool {
	entries, err := os.ReadDir(dir)
	return err == nil && len(entries) == 1 && entries[0].IsDir() && isSnapshotDir(filepath.Join(dir, entries[0].Name()))
}

// archiveSuffixes are the names of the archives a snapshot comes in.
var archiveSuffixes = []string{".tar", ".tar.gz", ".tgz", ".tar.xz", ".txz", ".tar.bz2", ".tbz2"}

// isArchive reports whether the file at p is an archive: by its name, or compressed by its
// content.
func isArchive(p string) bool {
	if archiveName(filepath.Base(p)) != filepath.Base(p) {
		return true
	}
	f, err := os.Open(p)
	if err != nil {
		return false
	}
	defer f.Close()
	head := make([]byte, 512)
	n, _ := io.ReadFull(f, head)
	return source.IsCompressed(head[:n])
}

// archiveName is name without an archive suffix.
func archiveName(name string) string {
	for _, s := range archiveSuffixes {
		if strings.HasSuffix(name, s) && len(name) > len(s) {
			return strings.TrimSuffix(name, s)
		}
	}
	return name
}

// snapshotName is the label of a snapshot that names no hostname: its file or folder name,
// without an archive suffix.
func snapshotName(p string) string {
	return archiveName(filepath.Base(filepath.Clean(p)))
}
