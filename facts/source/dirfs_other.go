//go:build !linux

package source

import (
	"io/fs"
	"os"
)

// dirFS elsewhere is os.Root's fs.FS itself, with Close.
type dirFS struct {
	root *os.Root
	fsys fs.FS
}

func newDirFS(path string) (*dirFS, error) {
	root, err := os.OpenRoot(path)
	if err != nil {
		return nil, err
	}
	return &dirFS{root: root, fsys: root.FS()}, nil
}

func (f *dirFS) Close() error                               { return f.root.Close() }
func (f *dirFS) Open(name string) (fs.File, error)          { return f.fsys.Open(name) }
func (f *dirFS) ReadFile(name string) ([]byte, error)       { return fs.ReadFile(f.fsys, name) }
func (f *dirFS) Stat(name string) (fs.FileInfo, error)      { return fs.Stat(f.fsys, name) }
func (f *dirFS) Lstat(name string) (fs.FileInfo, error)     { return fs.Lstat(f.fsys, name) }
func (f *dirFS) ReadLink(name string) (string, error)       { return fs.ReadLink(f.fsys, name) }
func (f *dirFS) ReadDir(name string) ([]fs.DirEntry, error) { return fs.ReadDir(f.fsys, name) }
