package xzutils

import (
	"os"
	"syscall"
)

// fSetPipeSize is fcntl's F_SETPIPE_SZ (F_LINUX_SPECIFIC_BASE + 7), which package syscall does
// not name.
const fSetPipeSize = 1024 + 7

// decoderPipe returns a pipe for a decoder's output whose read end blocks in read(2) instead of
// waiting in Go's poller: an fd in the poller woke an idle thread of the runtime for every 8
// KiB xz-utils wrote, even while the reader was pausing between batches. Its buffer is grown to
// 1 MiB (the default, 64 KiB, has the decoder wait for the reader).
func decoderPipe() (r, w *os.File, err error) {
	var fds [2]int
	if err := syscall.Pipe2(fds[:], syscall.O_CLOEXEC); err != nil {
		return nil, nil, err
	}
	syscall.Syscall(syscall.SYS_FCNTL, uintptr(fds[0]), fSetPipeSize, 1<<20)
	return os.NewFile(uintptr(fds[0]), "|xz"), os.NewFile(uintptr(fds[1]), "xz|"), nil
}
