// Package xzahead starts xz-utils on the .xz archive the command line names
// (`rdmadoctor diagnose|facts ... --snapshot PATH`) while the program is still initialising,
// for facts/source to take when it reads that archive: every millisecond xz starts earlier is
// one the run ends earlier (docs/performance.md, issue 14). Go initialises packages in
// import-path order among those whose imports are initialised: importing only packages the
// runtime initialises first (xzutils' doc), its init runs right after package os's, ~2.5 ms
// into the run, some 10 ms before main's.
//
// A decoder nobody takes is killed and reaped by Stop, which main calls before it exits; should
// the process end otherwise, xz dies of SIGPIPE at its next write.
package xzahead

import (
	"bytes"
	"os"
	"sync"
	"syscall"

	"github.com/rdmadoctor/rdmadoctor/internal/xzutils"
)

// xzMagic are the first bytes of an .xz stream (facts/source's sniff).
var xzMagic = []byte{0xfd, '7', 'z', 'X', 'Z', 0x00}

// ahead is the decoder started for the command line's archive, until taken or stopped.
var ahead struct {
	sync.Mutex
	p    *xzutils.Process
	file os.FileInfo // the archive it reads
}

func init() {
	if path, ok := SnapshotArg(os.Args); ok {
		Start(path)
	}
}

// Start is what the package's init does with the command line's --snapshot PATH: it runs
// xz-utils on path (xzutils.Start: the archive reader's arguments, memory limit and pipe), for
// Take, when path is a regular file that starts with the xz magic and xz-utils is installed;
// else it does nothing. It reads the file's first 6 bytes and changes nothing. A decoder
// started before, and not taken, is stopped. Once xz runs, this process's threads are made
// xzutils.YieldNice nicer than it (xzutils.MakeWay), for the rest of the run.
func Start(path string) {
	tool := xzutils.Tool()
	if tool == "" {
		return
	}
	if st, err := os.Stat(path); err != nil || !st.Mode().IsRegular() {
		return
	}
	// Non-blocking: should path become a FIFO after the Stat, opening it does not wait for a
	// writer (a regular file reads the same either way).
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return
	}
	defer f.Close() // xz holds its own copy
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() {
		return
	}
	head := make([]byte, len(xzMagic))
	if _, err := f.ReadAt(head, 0); err != nil || !bytes.Equal(head, xzMagic) {
		return
	}
	p, err := xzutils.Start(tool, f) // xz reads from offset 0: ReadAt does not move it
	if err != nil {
		return // the reader starts xz itself, and says why it cannot
	}
	Stop()
	ahead.Lock()
	ahead.p, ahead.file = p, st
	ahead.Unlock()
	xzutils.MakeWay() // the decoder is the run's critical path: its core is its own first
}

// Take returns the decoder started for the archive file (os.SameFile), which the caller then
// owns (its Output and Finish), or nil when there is none for that file or it was taken. It
// decodes the archive from its start.
func Take(file os.FileInfo) *xzutils.Process {
	ahead.Lock()
	defer ahead.Unlock()
	if ahead.p == nil || !os.SameFile(ahead.file, file) {
		return nil
	}
	p := ahead.p
	ahead.p, ahead.file = nil, nil
	return p
}

// Stop kills the decoder if nobody took it and waits for it, so that no xz outlives the run
// nor is left a zombie. main calls it on its way out; it may be called more than once.
func Stop() {
	ahead.Lock()
	defer ahead.Unlock()
	if ahead.p != nil {
		ahead.p.Finish(true) // its complaint, if any, is about a run nobody wanted
		ahead.p, ahead.file = nil, nil
	}
}
