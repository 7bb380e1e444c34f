package parse

import (
	"strconv"
	"strings"

	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/internal/lazyregexp"
)

// ulimitMemlockRe is bash's `ulimit -a` line "max locked memory       (kbytes, -l) 64".
var ulimitMemlockRe = lazyregexp.New(`\(kbytes, -l\)\s+(\S+)\s*$`)

// Ulimit reads the locked-memory limit from `ulimit -a` (bash builtins/ulimit.def) or `ulimit -l`
// (a bare "64" or "unlimited"), in KiB:
//
//	max locked memory       (kbytes, -l) 32
//
// Other lines (other limits, text a batch job printed around it) are ignored. It returns nil when
// no memlock value is present; a value that is neither a number nor "unlimited" is an error.
//
// A file without a final newline was cut (`head -c`, a paste that stopped) when it holds no
// memlock line, or when the memlock line is its last (the value may be a prefix, "3" of "32"):
// that is a parse.Problems, with the value read if any.
func Ulimit(b []byte) (*facts.MemlockLimit, error) {
	lines := Lines(b)
	var probs problems
	for i, l := range lines {
		if m := ulimitMemlockRe.FindStringSubmatch(l.Text); m != nil {
			lim, err := memlockValue(m[1], l)
			if err != nil || i != len(lines)-1 {
				return lim, err
			}
			probs.cut(b, lines, true)
			return lim, probs.err()
		}
	}
	probs.cut(b, lines, true)
	if probs.err() != nil {
		return nil, probs.err()
	}
	var only []Line
	for _, l := range lines {
		if strings.TrimSpace(l.Text) != "" {
			only = append(only, l)
		}
	}
	if len(only) == 1 {
		v := strings.TrimSpace(only[0].Text)
		if v == "unlimited" || isDigits(v) {
			return memlockValue(v, only[0])
		}
	}
	return nil, nil
}

func memlockValue(v string, l Line) (*facts.MemlockLimit, error) {
	lim := &facts.MemlockLimit{Evidence: l.Evidence()}
	if v == "unlimited" {
		lim.Unlimited = true
		return lim, nil
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		return nil, l.Errorf("memlock %q is neither a number nor unlimited", v)
	}
	lim.SoftKiB = &n
	return lim, nil
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}
