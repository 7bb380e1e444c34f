package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// outputFile is diagnose's -o FILE: what is written goes to a temporary file in FILE's folder,
// which commit renames over FILE, so a reader (node_exporter's textfile collector, a cron job's
// consumer) sees the old file or the new one, never a half-written one. A run that ends without
// commit (an error, or a format that writes nothing) leaves FILE as it was and no temporary file.
type outputFile struct {
	path string
	tmp  *os.File
}

// outputFileMode is the new file's mode: node_exporter usually runs as another user than the
// cron job or health check that writes the file, so it must be readable by others (os.CreateTemp
// creates 0600).
const outputFileMode = 0o644

// createOutput opens the temporary file beside path; its name starts with a dot and does not end
// in .prom, so node_exporter's textfile collector (which reads *.prom) never reads it.
// A path that is a folder is refused here, before anything is diagnosed, not by the rename.
func createOutput(path string) (*outputFile, error) {
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		return nil, fmt.Errorf("-o %s is a directory: give a file path", path)
	}
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	tmp, err := os.CreateTemp(dir, "."+base+".tmp-*")
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) { // not the temporary name, which the user never gave
			err = pe.Err
		}
		return nil, fmt.Errorf("-o %s: cannot create a file in %s: %w", path, dir, err)
	}
	return &outputFile{path: path, tmp: tmp}, nil
}

// Writer is where the output goes until commit.
func (o *outputFile) Writer() io.Writer { return o.tmp }

// commit flushes the temporary file to disk and renames it over the destination.
func (o *outputFile) commit() error {
	err := o.tmp.Chmod(outputFileMode)
	if err == nil {
		err = o.tmp.Sync()
	}
	if cerr := o.tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(o.tmp.Name(), o.path)
	}
	if err != nil {
		os.Remove(o.tmp.Name())
		return fmt.Errorf("-o %s: %w", o.path, err)
	}
	o.tmp = nil
	return nil
}

// discard removes the temporary file unless commit has renamed it; safe to defer.
func (o *outputFile) discard() {
	if o.tmp != nil {
		o.tmp.Close()
		os.Remove(o.tmp.Name())
		o.tmp = nil
	}
}
