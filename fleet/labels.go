package fleet

import (
	"strconv"
	"sync"
)

// labeler gives each node its host label in input order, while the nodes are read in parallel:
// the hostname the snapshot names, else the snapshot's name; the second and later snapshots of
// one host are "host#2", "host#3". Node i waits in label until nodes 0..i-1 have their labels,
// which they get as soon as their snapshot is read (the nodes are handed to the workers in
// order, so the wait is at most the difference of two reads).
type labeler struct {
	mu   sync.Mutex
	cond *sync.Cond
	next int
	used map[string]bool
	seen map[string]int // base -> the last #n given
}

func newLabeler(n int) *labeler {
	l := &labeler{used: make(map[string]bool, n), seen: map[string]int{}}
	l.cond = sync.NewCond(&l.mu)
	return l
}

// label returns node i's label; it must be called once for each i.
func (l *labeler) label(i int, hostname, fallback string) string {
	l.mu.Lock()
	defer l.mu.Unlock()
	for l.next != i {
		l.cond.Wait()
	}
	base := hostname
	if base == "" {
		base = fallback
	}
	label := base
	if l.used[label] {
		n := max(l.seen[base], 1) // the last number given to base: no quadratic search
		for l.used[label] {
			n++
			label = base + "#" + strconv.Itoa(n)
		}
		l.seen[base] = n
	}
	l.used[label] = true
	l.next++
	l.cond.Broadcast()
	return label
}
