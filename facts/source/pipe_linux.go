package source

import (
	"os"
	"time"

	"golang.org/x/sys/unix"
)

// pipePause waits batchPause for the decoder to fill the pipe whose read end is f, or less when
// it has closed its end (it exited: poll reports POLLHUP, whatever the events asked for); it
// reports whether it had.
func pipePause(f *os.File) bool {
	fds := []unix.PollFd{{Fd: int32(f.Fd())}}
	n, err := unix.Poll(fds, int(batchPause/time.Millisecond))
	return err == nil && n > 0 && fds[0].Revents&unix.POLLHUP != 0
}
