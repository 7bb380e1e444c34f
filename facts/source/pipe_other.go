//go:build !linux

package source

import (
	"os"
	"time"
)

// pipePause waits batchPause (batchedPipe).
func pipePause(*os.File) bool {
	time.Sleep(batchPause)
	return false
}
