// Package source opens what the user points rdmadoctor at (a directory, an archive, single
// captures) as one read-only fs.FS in sos layout.
package source

import (
	"fmt"
	"io/fs"
	"os"

	"github.com/rdmadoctor/rdmadoctor/facts"
)

// Open returns a directory (sosreport, gather output, folder of captures) as an fs.FS.
// TODO(source): archives (.tar, .tar.gz, .tar.xz), single files, top-level sosreport folder.
func Open(path string) (fs.FS, facts.SourceInfo, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, facts.SourceInfo{}, err
	}
	if !st.IsDir() {
		return nil, facts.SourceInfo{}, fmt.Errorf("%s: not a directory", path)
	}
	return os.DirFS(path), facts.SourceInfo{Path: path}, nil
}
