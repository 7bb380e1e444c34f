package build

import (
	"path"
	"strings"

	"github.com/rdmadoctor/rdmadoctor/internal/lazyregexp"
)

var mangleRun = lazyregexp.New(`[^A-Za-z0-9_./-]+`)

// Mangle returns the file name sos gives a command's output (sos `_mangle_command`): a leading
// /bin/, /sbin/, /usr/bin/ or /usr/sbin/ is dropped, runs of other characters than
// [A-Za-z0-9_./-] become "_", "/" becomes ".", and " ._-" are trimmed from both ends.
func Mangle(cmd string) string {
	for _, p := range []string{"/usr/sbin/", "/usr/bin/", "/sbin/", "/bin/"} {
		if strings.HasPrefix(cmd, p) {
			cmd = cmd[len(p):]
			break
		}
	}
	s := mangleRun.ReplaceAllString(cmd, "_")
	s = strings.ReplaceAll(s, "/", ".")
	return strings.Trim(s, " ._-")
}

// captureSuffixes are extensions people add to pasted captures.
var captureSuffixes = []string{".txt", ".out", ".log"}

// splitName strips capture suffixes from a base name and splits off a "__label".
func splitName(base string) (name, label string) {
	for _, s := range captureSuffixes {
		if strings.HasSuffix(base, s) && len(base) > len(s) {
			base = strings.TrimSuffix(base, s)
			break
		}
	}
	if i := strings.Index(base, "__"); i > 0 {
		return base[:i], base[i+2:]
	}
	return base, ""
}

// matchName finds the spec whose command name is the longest prefix of the file's base name
// (after splitName), followed by "_" or the end; args is what follows it. specs is Specs().
func matchName(specs []Spec, p string) (spec *Spec, args, label string) {
	name, label := splitName(path.Base(p))
	i, n := specIndex().matchName(name)
	if i < 0 {
		return nil, "", label
	}
	return &specs[i], strings.TrimPrefix(name[n:], "_"), label
}

// matchPath finds the spec with a Paths pattern matching p; specs is Specs().
func matchPath(specs []Spec, p string) *Spec {
	if i := specIndex().matchPath(p); i >= 0 {
		return &specs[i]
	}
	return nil
}

// underTree finds the tree spec whose root contains p; specs is Specs().
func underTree(specs []Spec, p string) *Spec {
	if i := specIndex().underTree(p); i >= 0 {
		return &specs[i]
	}
	return nil
}
