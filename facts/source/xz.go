package source

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"sync"

	"github.com/ulikunitz/xz"
)

// xzMemLimit bounds what xz-utils may allocate for a stream: xz -9 needs 65 MiB, so only a
// hostile header asks for more.
const xzMemLimit = "256MiB"

// xzTool is the path of xz-utils' xz, or "" when it is not installed.
var xzTool = sync.OnceValue(func() string {
	p, err := exec.LookPath("xz")
	if err != nil {
		return ""
	}
	return p
})

// xzStream returns the decompressed stream of r and a function that ends the decoding. It runs
// xz-utils when installed, as a filter between two pipes (about four times faster than the
// pure-Go decoder; nothing touches the disk), and github.com/ulikunitz/xz otherwise or when
// pureGo is set.
func xzStream(r io.Reader, pureGo bool) (io.Reader, func(drain bool) error, error) {
	if tool := xzTool(); tool != "" && !pureGo {
		return startXZ(tool, r)
	}
	xr, err := xz.NewReader(r)
	if err != nil {
		return nil, nil, err
	}
	// The tar reader asks for 512-byte blocks; one large buffer keeps the decoder busy.
	return bufio.NewReaderSize(xr, 1<<20), func(bool) error { return nil }, nil
}

// startXZ runs `xz -dc` with r as its input.
func startXZ(tool string, r io.Reader) (io.Reader, func(drain bool) error, error) {
	cmd := exec.Command(tool, "--decompress", "--stdout", "--memlimit-decompress="+xzMemLimit)
	cmd.Stdin = r
	stderr := &capped{max: 4096}
	cmd.Stderr = stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, nil, fmt.Errorf("run %s: %w", tool, err)
	}
	// finish lets xz run to its end when drain is set (the caller read the whole tar and
	// discards the padding that follows), kills it otherwise, and reports how it ended.
	finish := func(drain bool) error {
		if drain {
			io.Copy(io.Discard, out)
		} else {
			cmd.Process.Kill()
		}
		err := cmd.Wait()
		if msg := strings.TrimSpace(stderr.String()); msg != "" {
			return errors.New(msg)
		}
		if drain {
			return err
		}
		return nil
	}
	return out, finish, nil
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
