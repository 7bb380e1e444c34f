//go:build !linux

package xzutils

import "os"

// decoderPipe is os.Pipe where a pipe cannot be made blocking and resized here.
func decoderPipe() (r, w *os.File, err error) { return os.Pipe() }
