//go:build !linux

package source

import "os"

// growPipe is a no-op where pipe buffers cannot be resized.
func growPipe(*os.File) {}
