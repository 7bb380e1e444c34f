//go:build !linux

package xzutils

// YieldNice is the nice increment MakeWay applies on Linux; elsewhere it does nothing.
const YieldNice = 0

// MakeWay does nothing where threads cannot be reniced one by one (see yield_linux.go).
func MakeWay() {}
