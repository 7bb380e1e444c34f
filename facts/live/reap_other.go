//go:build !linux

package live

// Elsewhere the gatherer kills a command's process group only (reap_linux.go).

func becomeSubreaper() {}

func started(start func() (int, error)) (int, error) { return start() }

func ended(int) {}

func killTree(int) {}

func sweepOrphans() {}
