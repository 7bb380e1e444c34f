package xzutils

import (
	"os"
	"sync"
)

// Tool is the path of xz-utils' xz, or "" when it is not installed: what os/exec's
// LookPath("xz") returns, read from PATH here (see the package doc), the first directory of PATH
// that holds an executable file named xz, or "" when that directory is relative (LookPath's
// ErrDot).
var Tool = sync.OnceValue(func() string { return lookPath("xz", os.Getenv("PATH")) })

// lookPath returns dir/name for the first directory dir of the list pathList (PATH) that holds
// an executable file name, or "" when there is none or dir is not absolute ("" is ".").
func lookPath(name, pathList string) string {
	for rest := pathList; ; {
		dir := rest
		next := -1
		for i := 0; i < len(rest); i++ {
			if rest[i] == os.PathListSeparator {
				dir, next = rest[:i], i+1
				break
			}
		}
		if dir == "" {
			dir = "."
		}
		for len(dir) > 1 && os.IsPathSeparator(dir[len(dir)-1]) {
			dir = dir[:len(dir)-1]
		}
		file := dir + string(os.PathSeparator) + name
		if dir == string(os.PathSeparator) {
			file = dir + name
		}
		if st, err := os.Stat(file); err == nil && !st.IsDir() && st.Mode()&0o111 != 0 {
			if !os.IsPathSeparator(file[0]) {
				return ""
			}
			return file
		}
		if next < 0 {
			return ""
		}
		rest = rest[next:]
	}
}
