package source

import (
	"os"

	"golang.org/x/sys/unix"
)

// growPipe asks for a 1 MiB pipe buffer (the default pipe-max-size), so a slow reader lets xz
// run ahead by a megabyte instead of 64 KiB. Failure only costs speed.
func growPipe(f *os.File) {
	if c, err := f.SyscallConn(); err == nil {
		c.Control(func(fd uintptr) { unix.FcntlInt(fd, unix.F_SETPIPE_SZ, 1<<20) })
	}
}
