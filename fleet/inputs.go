package fleet

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/rdmadoctor/rdmadoctor/facts/build"
)

// Inputs are the PATHs of `rdmadoctor fleet` as nodes (Expand).
type Inputs struct {
	// Nodes are the paths of the node snapshots, in the order given (a folder's snapshots in
	// name order).
	Nodes []string
	// NotRead are the files of folders of snapshots that are no snapshot, each with why, for
	// the caller to name ("node04.tar.xz.sha256: not a snapshot (neither a folder nor an
	// archive), not read").
	NotRead []string
	// Notes say how a PATH that holds more than it was taken as was read: a folder with
	// captures at its top and captures in its folders too (read as one host's), or a folder
	// with folders in which no snapshot was found (diagnosed as one, usually with nothing
	// about RDMA); and which snapshot was given twice (read once).
	Notes []string
}

// Expand turns the PATHs of `rdmadoctor fleet` into one path per node snapshot. A PATH that is
// a file is one node; a folder is one node's snapshot, a folder of snapshots (each found
// inside it, through folders of folders down to build.MaxFolderDepth levels), or neither, as
// build.ClassifyFolder tells by positive evidence. A PATH that does not exist or cannot be
// listed is still a node, which Run lists as unreadable. A snapshot given twice (the same path,
// or the same real path through a symbolic link, or found again in a folder of snapshots) is
// one node, noted with both names; two snapshots of one host stay two nodes (labels.go).
func Expand(paths []string) Inputs {
	in := expand(paths)
	in.Nodes, in.Notes = once(in.Nodes, in.Notes)
	return in
}

// once keeps the first of the nodes that are the same file or folder (by real path), and
// notes each one left out.
func once(nodes, notes []string) ([]string, []string) {
	first := make(map[string]string, len(nodes)) // real path -> the node's path as given
	kept := nodes[:0:0]
	r := realPaths{dirs: map[string]string{}}
	for _, p := range nodes {
		real := r.of(p)
		if f, ok := first[real]; ok {
			why := "the same path"
			if filepath.Clean(f) != filepath.Clean(p) {
				why = "the same snapshot, " + real
			}
			notes = append(notes, fmt.Sprintf("%s and %s: %s given twice: read once, as %s", f, p, why, f))
			continue
		}
		first[real] = p
		kept = append(kept, p)
	}
	return kept, notes
}

// realPaths resolves the symbolic links of node paths, each folder once: the nodes of a folder of
// snapshots share it (10,000 of them cost one lstat each, not one per component).
type realPaths struct{ dirs map[string]string }

// of is p's absolute path with its symbolic links resolved; p itself, made absolute, when it
// does not exist (the same name given twice is still one unreadable node).
func (r realPaths) of(p string) string {
	if st, err := os.Lstat(p); err == nil && st.Mode()&os.ModeSymlink == 0 {
		dir, base := filepath.Split(filepath.Clean(p))
		real, ok := r.dirs[dir]
		if !ok {
			real = absolute(dir)
			r.dirs[dir] = real
		}
		return filepath.Join(real, base)
	}
	return absolute(p)
}

// absolute is p made absolute with its symbolic links resolved, as far as it exists.
func absolute(p string) string {
	if real, err := filepath.EvalSymlinks(p); err == nil {
		p = real
	}
	if abs, err := filepath.Abs(p); err == nil {
		p = abs
	}
	return p
}

// expand is Expand but for the snapshots given twice.
func expand(paths []string) Inputs {
	var in Inputs
	for _, p := range paths {
		st, err := os.Stat(p)
		if err != nil || !st.IsDir() {
			in.Nodes = append(in.Nodes, p)
			continue
		}
		f := build.ClassifyFolder(os.DirFS(p))
		switch f.Kind {
		case build.Snapshots:
			for _, n := range f.Nodes {
				in.Nodes = append(in.Nodes, filepath.Join(p, filepath.FromSlash(n.Path)))
			}
			for _, nr := range f.NotRead {
				why := "not a snapshot (neither a folder nor an archive), not read"
				if nr.LinkOut != "" {
					why = "a symbolic link to " + nr.LinkOut + ", out of the folder: not followed (give its target as a PATH)"
				} else if nr.Capture {
					why = "a capture beside snapshot folders, of none of them: not read (diagnose it with `rdmadoctor diagnose --input`, or put it in its node's folder)"
				}
				in.NotRead = append(in.NotRead, filepath.Join(p, filepath.FromSlash(nr.Path))+": "+why)
			}
		case build.OneSnapshot:
			in.Nodes = append(in.Nodes, p)
			if len(f.Inner) > 0 {
				in.Notes = append(in.Notes, fmt.Sprintf("%s: one snapshot: captures at its top (%s) and in its folders %s, read as one host's; give the folders as PATHs if they are other hosts'",
					p, strings.Join(f.Evidence, ", "), strings.Join(f.Inner, ", ")))
			}
		default:
			in.Nodes = append(in.Nodes, p)
			if len(f.Inner) > 0 {
				in.Notes = append(in.Notes, fmt.Sprintf("%s: no snapshot found in it (no input named like one at its top, nor in its folders %s down to %d levels): read as one folder of captures, each file recognised by its content",
					p, strings.Join(f.Inner, ", "), build.MaxFolderDepth))
			}
		}
	}
	return in
}

// snapshotName is the label of a snapshot that names no hostname: its file or folder name,
// without an archive suffix.
func snapshotName(p string) string {
	return build.ArchiveName(filepath.Base(filepath.Clean(p)))
}
