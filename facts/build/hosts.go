package build

import (
	"fmt"
	"io/fs"
	"os"
	"path"
	"sort"
	"strings"

	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/facts/parse"
	"github.com/rdmadoctor/rdmadoctor/internal/lazyregexp"
	"github.com/rdmadoctor/rdmadoctor/internal/visible"
)

// SeveralHostsError refuses a snapshot whose folders hold captures of different hosts: their
// devices would be read as one node's (a port both Initializing and Active). Each host is
// diagnosed on its own, or all of them by `rdmadoctor fleet`, which the message names.
type SeveralHostsError struct {
	// Folders are the capture folders that look like different hosts, sorted ("." is the top).
	Folders []string
	// Why is the evidence: "ibstat in each" or "hostname node01, node02".
	Why string
	// Path is the snapshot as the user gave it (SourceInfo.Path), for the suggested command.
	Path string
	// Archive is set when Path is an archive (a file): its folders cannot be given to
	// --snapshot or fleet until it is unpacked, and the message says how.
	Archive bool
}

func (e *SeveralHostsError) Error() string {
	names := make([]string, len(e.Folders))
	for i, f := range e.Folders {
		names[i] = f + "/"
	}
	what := "two hosts'"
	if len(names) > 2 {
		what = fmt.Sprintf("%d hosts'", len(names))
	}
	first := e.Folders[0]
	if first == "." {
		first = e.Folders[1]
	}
	if e.Archive {
		dir, unpack := unpackTo(e.Path)
		return fmt.Sprintf("%s in %s look like %s captures (%s); unpack it (%s) and diagnose one host at a time: --snapshot %s, or all of them with `rdmadoctor fleet %s`",
			strings.Join(names, " and "), e.Path, what, e.Why, unpack, visible.ShellQuote(path.Join(dir, first)), visible.ShellQuote(dir))
	}
	return fmt.Sprintf("%s look like %s captures (%s); diagnose one host at a time: --snapshot %s, or all of them with `rdmadoctor fleet %s`",
		strings.Join(names, " and "), what, e.Why, visible.ShellQuote(path.Join(e.Path, first)), visible.ShellQuote(e.Path))
}

// unpackTo returns the folder an archive at path (a .tar, .tar.gz, .tar.xz, .tgz, ...) is best
// unpacked into, named after it ("twohosts" for twohosts.tar.gz; "unpacked" when the name
// gives none), and the shell command that does it, every name quoted.
func unpackTo(archive string) (dir, cmd string) {
	dir = path.Base(archive)
	for _, ext := range []string{".gz", ".xz", ".bz2", ".tgz", ".txz", ".tbz2", ".tar"} {
		dir = strings.TrimSuffix(dir, ext)
	}
	if dir == "" || dir == "." || dir == path.Base(archive) {
		dir = "unpacked"
	}
	q := visible.ShellQuote(dir)
	return dir, fmt.Sprintf("mkdir %s && tar -xf %s -C %s", q, visible.ShellQuote(archive), q)
}

// isArchive reports whether path, a snapshot as the user gave it, is a file (an archive, or one
// capture) rather than a folder.
func isArchive(path string) bool {
	st, err := os.Stat(path)
	return err == nil && st.Mode().IsRegular()
}

// oneHost returns a *SeveralHostsError when the inputs come from several hosts: two capture
// folders whose hostname or uname -a captures name different hosts, or the same tool's output
// in two folders that are not named as before/after captures of one host (captureFolderRe).
// Captures told apart by a "__label" in one folder are one host's by the corpus convention and
// stay separate device records (addDevice).
func oneHost(fsys fs.FS, inputs map[string][]Input, info facts.SourceInfo) error {
	hostnames := map[string]map[string]bool{} // folder -> host names its captures give
	specFolders := map[string]map[string]bool{}
	for spec, ins := range inputs {
		if fabricWide[spec] {
			continue
		}
		for _, in := range ins {
			f := hostFolder(in)
			if specFolders[spec] == nil {
				specFolders[spec] = map[string]bool{}
			}
			specFolders[spec][f] = true
			if spec == "hostname" || spec == "uname" {
				if name := hostnameOf(fsys, in.Path); name != "" {
					if hostnames[f] == nil {
						hostnames[f] = map[string]bool{}
					}
					hostnames[f][name] = true
				}
			}
		}
	}
	if names := sortedKeys(hostnames); len(names) > 1 {
		seen := map[string]bool{}
		for _, f := range names {
			for h := range hostnames[f] {
				seen[h] = true
			}
		}
		if len(seen) > 1 {
			return &SeveralHostsError{Folders: names, Why: "hostname " + strings.Join(sortedKeys(seen), ", "), Path: info.Path, Archive: isArchive(info.Path)}
		}
		return nil // the hostname captures agree: one host's captures in several folders
	}
	for _, spec := range sortedKeys(specFolders) {
		folders := sortedKeys(specFolders[spec])
		if len(folders) < 2 || allCaptureFolders(folders) {
			continue
		}
		return &SeveralHostsError{Folders: folders, Why: spec + " in each", Path: info.Path, Archive: isArchive(info.Path)}
	}
	return nil
}

// hostFolder is the folder of a loose capture that may stand for a host: the directory of the
// file, above a sos_commands/<plugin> layout. Files under system paths (var/log, etc, proc),
// matched by path, are the top folder's.
func hostFolder(in Input) string {
	if in.how == "path" {
		return "."
	}
	return folderOf(in.Path)
}

// folderOf is hostFolder of a file known by its path only (evidence of a fact).
func folderOf(p string) string {
	parts := strings.Split(path.Dir(p), "/")
	for i, p := range parts {
		if p == "sos_commands" || systemDirs[p] {
			parts = parts[:i]
			break
		}
	}
	if len(parts) == 0 || parts[0] == "." {
		return "."
	}
	return path.Join(parts...)
}

// systemDirs are the top folders of a node's file system, as sos and gather copy them.
var systemDirs = map[string]bool{"sys": true, "proc": true, "etc": true, "var": true, "usr": true,
	"run": true, "dev": true, "boot": true, "lib": true, "opt": true, "tmp": true}

// captureFolderRe matches folder names that say when, not where: before/after a fix, a date.
var captureFolderRe = lazyregexp.New(`(?i)^(before|after|pre|post|old|new|then|now|first|second|initial|final|` +
	`fixed|broken|good|bad|working|failing|orig|original|rebooted|later|earlier|t[0-9]+|` +
	`[0-9]{4}-?[0-9]{2}-?[0-9]{2}\S*)([-_.].*)?$`)

// allCaptureFolders reports whether every folder but the top one is named as a capture of the
// same host at another time.
func allCaptureFolders(folders []string) bool {
	for _, f := range folders {
		if f != "." && !captureFolderRe.MatchString(path.Base(f)) {
			return false
		}
	}
	return true
}

// hostnameOf reads the host name a hostname or uname -a capture gives; "" when it gives none.
func hostnameOf(fsys fs.FS, p string) string {
	b, err := readHead(fsys, p)
	if err != nil {
		return ""
	}
	h, err := parse.Uname(b)
	if err != nil {
		return ""
	}
	return h.Hostname
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
