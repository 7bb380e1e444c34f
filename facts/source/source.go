// Package source opens what the user points rdmadoctor at (a directory, an archive, single
// captures) as one read-only fs.FS in sos layout.
//
// Archives (.tar, .tar.gz/.tgz, .tar.xz/.txz, .tar.bz2; told by magic bytes, not by name) are
// read as a stream into memory: nothing is extracted to disk (.xz is decoded by xz-utils through
// a pipe when installed, else in-process by github.com/ulikunitz/xz, about 2-4x slower). Only
// the members of a sosreport that the builder may read are kept, decided from each member's
// path before its content is read (the Selector facts/build installs, derived from its input
// specs), each up to a size limit; the others are skipped as the stream goes by and counted.
// Decompression stops at a total limit and a member-count limit. Hostile members are refused with an error naming the archive and the
// member: absolute paths, "..", hard links whose target leaves the archive, members below a
// link, devices and FIFOs. Symbolic links inside the archive behave as on disk (os.DirFS):
// listed as links, followed when opened; a symbolic link whose target is absolute or leaves
// the archive (a systemd *.wants link in etc/) is listed, and opening it fails (the builder
// names it: facts/build).
//
// A sosreport whose content sits under one top folder ("sosreport-node01-2024-.../") is
// re-rooted at that folder, for directories and archives alike.
package source

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/rdmadoctor/rdmadoctor/facts"
)

// Open opens path with the default Options: a directory (sosreport, gather output, folder of
// captures), an archive of one, or a single text capture. SourceInfo.Path is path; Kind is
// "sosreport" for an archive holding sos_commands/, "captures" for a single file, and is
// otherwise left for build.Snapshot to detect.
func Open(path string) (fs.FS, facts.SourceInfo, error) {
	return OpenWith(path, Options{})
}

// OpenWith is Open with explicit Options for archives.
func OpenWith(path string, opt Options) (fs.FS, facts.SourceInfo, error) {
	info := facts.SourceInfo{Path: path}
	st, err := os.Stat(path)
	if err != nil {
		return nil, info, err
	}
	if st.IsDir() {
		opt.started()
		fsys, err := openDirectory(path)
		if err == nil && opt.Seen != nil {
			seeFolder(fsys, opt.Seen)
		}
		return fsys, info, err
	}
	f, err := openRegular(path)
	if err != nil {
		return nil, info, err
	}
	defer f.Close()
	br := bufio.NewReaderSize(f, 1<<16)
	head, err := br.Peek(sniffLen)
	if err != nil && err != io.EOF && err != bufio.ErrBufferFull {
		return nil, info, fmt.Errorf("read %s: %w", path, err)
	}
	switch fm := sniff(head); {
	case fm == formatEmpty:
		return nil, info, &Error{Path: path, Kind: ErrFormat, Err: errors.New(BlankReason(0))}
	case fm.isArchive():
		a := &archive{path: path, opt: opt, file: f}
		if err := a.read(br, fm); err != nil {
			return nil, info, err
		}
		if a.rereads() {
			// A top folder taken for a sosreport by its name (sosreport-*) holds no
			// sos_commands/: it is a folder of captures, whose every file is read.
			var err error
			if a, err = rereadAll(path, opt, f, fm); err != nil {
				return nil, info, err
			}
		}
		if opt.Check != nil {
			if err := opt.Check(a.tree); err != nil {
				return nil, info, err
			}
		}
		return a.result(a.tree)
	case looksLikeArchiveName(path):
		return nil, info, &Error{Path: path, Kind: ErrFormat, Err: errors.New("not a tar, gzip, xz or bzip2 archive (by its content)")}
	default:
		opt.started()
		data, err := readCapture(path, br, opt.withDefaults().MaxMember)
		if err != nil {
			return nil, info, err
		}
		m := memFS{root: newDir(".")}
		addCapture(m, filepath.Base(path), data)
		info.Kind = "captures"
		return m, info, nil
	}
}

// rereadAll reads the archive f of format fm again from its start, keeping every member. A
// stream that cannot be read again (a pipe) is an error naming what to do.
func rereadAll(path string, opt Options, f *os.File, fm format) (*archive, error) {
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() {
		return nil, &Error{Path: path, Kind: ErrFormat, Err: errors.New("a folder named like a sosreport holds no sos_commands/, and a pipe cannot be read twice: give it as a file")}
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	opt.keepAll = true
	opt.Started = nil // called at the first reading
	a := &archive{path: path, opt: opt, file: f}
	return a, a.read(bufio.NewReaderSize(f, 1<<16), fm)
}

// openDirectory opens a directory so that symbolic links cannot lead out of it (dirFS: os.Root's
// rules), re-rooted at the report folder inside it if there is one. The fs.FS it returns is an
// io.Closer: closing it releases the folders it holds open (the garbage collector does
// otherwise).
func openDirectory(path string) (fs.FS, error) {
	fsys, err := newDirFS(path)
	if err != nil {
		return nil, err
	}
	dir, err := reportRoot(fsys)
	if err != nil {
		fsys.Close()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if dir == "." {
		return fsys, nil
	}
	fsys.Close()
	return openDirectory(filepath.Join(path, dir))
}

// openRegular opens a file to read as an archive or capture: a regular file or a pipe (as
// given by a shell's <(...)), never a directory or a device.
func openRegular(path string) (*os.File, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	switch m := st.Mode(); {
	case m.IsDir():
		// Only --input meets one (Open reads a folder as a snapshot).
		return nil, &Error{Path: path, Kind: ErrFormat, Err: errors.New("is a directory: give a folder with --snapshot DIR")}
	case !m.IsRegular() && m&fs.ModeNamedPipe == 0:
		return nil, &Error{Path: path, Kind: ErrFormat, Err: errors.New("not a regular file")}
	}
	return os.Open(path)
}

// reportMarkers are the entries that mark the root of a sosreport or a gather output.
var reportMarkers = []string{"sos_commands", "rdmadoctor.yaml"}

// reportRoot returns "." when fsys is itself a report or holds no report folder, the one folder
// at its top that holds a report (sosreport-node01-.../sos_commands), or an error when there are
// several.
func reportRoot(fsys fs.FS) (string, error) {
	if isReport(fsys, ".") {
		return ".", nil
	}
	entries, err := fs.ReadDir(fsys, ".")
	if err != nil {
		return "", err
	}
	var found []string
	for _, e := range entries {
		if e.IsDir() && isReport(fsys, e.Name()) {
			found = append(found, e.Name())
		}
	}
	switch len(found) {
	case 0:
		return soleFolder(fsys, "."), nil
	case 1:
		return found[0], nil
	}
	return "", fmt.Errorf("holds %d reports (%s): give one of them, or all of them (unpacked) to `rdmadoctor fleet`", len(found), strings.Join(found, ", "))
}

// layoutRoots are the top folders of the sos layout itself: never wrappers to look through.
var layoutRoots = map[string]bool{"sys": true, "proc": true, "etc": true, "var": true, "dev": true, "usr": true, "sos_commands": true}

// soleFolder looks through wrapper folders: a tarball of a captured tree ("node01/sys/class/...")
// or a folder inside a folder holds nothing but one folder at each level. It stops at the sos
// layout's own folders (sys, proc, ...), at anything with files beside it, and after 3 levels.
func soleFolder(fsys fs.FS, dir string) string {
	for range 3 {
		entries, err := fs.ReadDir(fsys, dir)
		if err != nil || len(entries) != 1 || !entries[0].IsDir() || layoutRoots[entries[0].Name()] {
			return dir
		}
		dir = path.Join(dir, entries[0].Name())
	}
	return dir
}

func isReport(fsys fs.FS, dir string) bool {
	for _, m := range reportMarkers {
		if dir != "." {
			m = dir + "/" + m
		}
		if _, err := fs.Stat(fsys, m); err == nil {
			return true
		}
	}
	return false
}
