package build

import (
	"path"
	"regexp"
	"strings"
)

var mangleRun = regexp.MustCompile(`[^A-Za-z0-9_./-]+`)

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

// matchName finds the spec whose command name is the longest prefix of the file's base name.
func matchName(specs []Spec, p string) (spec *Spec, args, label string) {
	name, label := splitName(path.Base(p))
	best := -1
	for i := range specs {
		for _, c := range specs[i].Commands {
			if len(c) <= best {
				continue
			}
			if name == c || strings.HasPrefix(name, c+"_") {
				best = len(c)
				spec = &specs[i]
				args = strings.TrimPrefix(strings.TrimPrefix(name, c), "_")
			}
		}
	}
	return spec, args, label
}

// matchPath finds the spec with a Paths pattern matching p.
func matchPath(specs []Spec, p string) *Spec {
	for i := range specs {
		for _, pat := range specs[i].Paths {
			if ok, _ := path.Match(pat, p); ok {
				return &specs[i]
			}
		}
	}
	return nil
}

// underTree finds the tree spec whose root contains p.
func underTree(specs []Spec, p string) *Spec {
	for i := range specs {
		r := specs[i].Root
		if r != "" && (p == r || strings.HasPrefix(p, r+"/")) {
			return &specs[i]
		}
	}
	return nil
}
