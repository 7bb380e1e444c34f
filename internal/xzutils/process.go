// Package xzutils runs xz-utils' xz to decode an .xz stream into a pipe: the one way both the
// archive reader (facts/source) and the decoder started ahead for the command line's archive
// (internal/xzahead) run it. It imports only standard packages that the runtime initialises
// first (os, syscall, io, sync, bytes, errors, fmt; not os/exec, path/filepath, strings), so that
// xzahead, which starts xz from its init, is initialised some 5 ms before main (with os/exec
// it waited for path/filepath, and with strings for most of the dependencies' packages).
package xzutils

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
	"syscall"
)

// MemLimit bounds what xz-utils may allocate for a stream: xz -9 needs 65 MiB, so only a
// hostile header asks for more.
const MemLimit = "256MiB"

// Process is one run of `xz --decompress --stdout` writing into a pipe (Output).
type Process struct {
	proc    *os.Process
	out     *os.File
	stderr  *capped
	copying sync.WaitGroup // the goroutines feeding its standard input and reading its standard error
	inErr   error          // why feeding its standard input failed
}

// Start runs tool (xz-utils' xz: Tool) with in as its standard input: an *os.File is handed to
// it as it is (xz reads it from its current offset), anything else is copied into a pipe. Its
// standard output is a pipe of 1 MiB whose read end is Output; its standard error is kept, the
// first 4 KiB, for Finish. Its environment is this process's. This is what os/exec's Cmd does
// with the same fields, without os/exec (see the package doc).
func Start(tool string, in io.Reader) (*Process, error) {
	p := &Process{stderr: &capped{max: 4096}}
	var closeAfter []*os.File // the child's ends, closed here once it holds them
	var closeOnError []*os.File
	defer func() {
		for _, f := range closeAfter {
			f.Close()
		}
	}()
	fail := func(err error) (*Process, error) {
		for _, f := range closeOnError {
			f.Close()
		}
		return nil, err
	}
	stdin, ok := in.(*os.File)
	var feed func()
	if !ok {
		r, w, err := os.Pipe()
		if err != nil {
			return fail(err)
		}
		stdin, closeAfter, closeOnError = r, append(closeAfter, r), append(closeOnError, w)
		feed = func() {
			_, err := io.Copy(w, in)
			if cerr := w.Close(); err == nil {
				err = cerr
			}
			if !errors.Is(err, syscall.EPIPE) && !errors.Is(err, os.ErrClosed) {
				p.inErr = err // xz stopped reading: its exit says why
			}
		}
	}
	out, w, err := decoderPipe()
	if err != nil {
		return fail(err)
	}
	closeAfter, closeOnError = append(closeAfter, w), append(closeOnError, out) // the decoder holds w: its exit is the reader's EOF
	er, ew, err := os.Pipe()
	if err != nil {
		return fail(err)
	}
	closeAfter, closeOnError = append(closeAfter, ew), append(closeOnError, er)
	p.proc, err = os.StartProcess(tool, []string{tool, "--decompress", "--stdout", "--memlimit-decompress=" + MemLimit},
		&os.ProcAttr{Files: []*os.File{stdin, w, ew}})
	if err != nil {
		return fail(fmt.Errorf("run %s: %w", tool, err))
	}
	p.out = out
	p.copying.Add(1)
	go func() {
		defer p.copying.Done()
		io.Copy(p.stderr, er)
		er.Close()
	}()
	if feed != nil {
		p.copying.Add(1)
		go func() {
			defer p.copying.Done()
			feed()
		}()
	}
	return p, nil
}

// Output is the read end of the pipe xz writes the decoded stream into. It blocks in read(2)
// (not in Go's poller) where the platform allows it; Finish closes it.
func (p *Process) Output() *os.File { return p.out }

// Pid is xz's process id.
func (p *Process) Pid() int { return p.proc.Pid }

// Finish kills xz when kill is set (the caller stops early), waits for it (no zombie is left)
// and for its standard error and input, closes Output, and returns what xz complained about on
// its standard error: when killed, that complaint or nil; else, when it failed, its complaint,
// or how it ended ("exit status 1", "signal: killed": os/exec's ExitError), or why its input
// could not be fed to it.
func (p *Process) Finish(kill bool) error {
	if kill {
		p.proc.Kill()
	}
	state, err := p.proc.Wait()
	p.copying.Wait()
	p.out.Close()
	if err == nil && !state.Success() {
		err = errors.New(state.String())
	}
	if err == nil {
		err = p.inErr
	}
	msg := bytes.TrimSpace(p.stderr.Bytes())
	switch {
	case kill && len(msg) > 0:
		// Killed: its complaint, if any, explains why the stream ended.
		return errors.New(string(msg))
	case kill:
		return nil
	case err != nil && len(msg) > 0:
		return errors.New(string(msg))
	}
	return err
}

// capped keeps the first max bytes written to it.
type capped struct {
	bytes.Buffer
	max int
}

func (c *capped) Write(p []byte) (int, error) {
	if room := c.max - c.Len(); room > 0 {
		c.Buffer.Write(p[:min(room, len(p))])
	}
	return len(p), nil
}
