package source

import (
	"os"
	"time"

	"golang.org/x/sys/unix"
)

// decoderPipe returns a pipe for a decoder's output whose read end blocks in read(2) instead of
// waiting in Go's poller: an fd in the poller woke an idle thread of the runtime for every 8
// KiB xz-utils wrote, even while batchedPipe was pausing. Its buffer is grown to 1 MiB (the
// default, 64 KiB, has the decoder wait for the reader).
func decoderPipe() (r, w *os.File, err error) {
	var fds [2]int
	if err := unix.Pipe2(fds[:], unix.O_CLOEXEC); err != nil {
		return nil, nil, err
	}
	unix.FcntlInt(uintptr(fds[0]), unix.F_SETPIPE_SZ, 1<<20)
	return os.NewFile(uintptr(fds[0]), "|xz"), os.NewFile(uintptr(fds[1]), "xz|"), nil
}

// pipePause waits batchPause for the decoder to fill the pipe whose read end is f, or less when
// it has closed its end (it exited: poll reports POLLHUP, whatever the events asked for); it
// reports whether it had.
func pipePause(f *os.File) bool {
	fds := []unix.PollFd{{Fd: int32(f.Fd())}}
	n, err := unix.Poll(fds, int(batchPause/time.Millisecond))
	return err == nil && n > 0 && fds[0].Revents&unix.POLLHUP != 0
}
