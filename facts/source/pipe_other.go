//go:build !linux

package source

import (
	"os"
	"time"
)

// decoderPipe is os.Pipe where a pipe cannot be made blocking and resized here.
func decoderPipe() (r, w *os.File, err error) { return os.Pipe() }

// pipePause waits batchPause (batchedPipe).
func pipePause(*os.File) bool {
	time.Sleep(batchPause)
	return false
}
