package build

import (
	"fmt"
	"slices"
	"strings"

	"github.com/rdmadoctor/rdmadoctor/internal/lazyregexp"
)

// Grammar is a read-only argument syntax of one tool. Every tool the live gather runs can also
// change the node (mstconfig set, flint burn, mlxlink --pc, perfquery -R, ethtool -s, sysctl -w,
// dmesg -c, hostname NAME, systemctl restart, ...), so each argv is checked against the
// grammars of its tool before it reaches exec, and anything they do not accept is refused.
type Grammar struct {
	// Bare are options without a value, e.g. "-v".
	Bare []string
	// Valued are options followed by one value, with the value's check, e.g. "-d": isBDF.
	Valued map[string]func(string) bool
	// Pos checks the i-th (0-based) non-option argument; nil allows none.
	Pos func(i int, s string) bool
	// Need is the number of non-option arguments required at least.
	Need int
	// Single accepts exactly one option of Valued with its value and nothing else
	// (`ethtool -m IF`), instead of any sequence of the options.
	Single bool
}

// Accept returns nil when g accepts argv (argv[0] is the tool), else an error that quotes argv
// and names the first argument it refuses.
func (g Grammar) Accept(argv []string) error {
	cmd := strings.Join(argv, " ")
	if g.Single {
		if len(argv) == 3 && g.Valued[argv[1]] != nil && g.Valued[argv[1]](argv[2]) {
			return nil
		}
		return fmt.Errorf("not allowed: %s: not one read-only query option with its argument", cmd)
	}
	npos := 0
	for i := 1; i < len(argv); i++ {
		a := argv[i]
		if strings.HasPrefix(a, "-") {
			if slices.Contains(g.Bare, a) {
				continue
			}
			if val, ok := g.Valued[a]; ok && i+1 < len(argv) && val(argv[i+1]) {
				i++
				continue
			}
			return fmt.Errorf("not allowed: %s: option %q is not on the read-only allow-list", cmd, a)
		}
		if g.Pos == nil || !g.Pos(npos, a) {
			return fmt.Errorf("not allowed: %s: argument %q is not on the read-only allow-list", cmd, a)
		}
		npos++
	}
	if npos < g.Need {
		return fmt.Errorf("not allowed: %s: incomplete read-only invocation", cmd)
	}
	return nil
}

// Argument checks for grammars: names the kernel and the tools accept, no paths, no shell.
var (
	devRe      = lazyregexp.New(`^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$`)
	portRe     = lazyregexp.New(`^[0-9]{1,3}$`)
	ifRe       = lazyregexp.New(`^[A-Za-z0-9][A-Za-z0-9_.@:-]{0,31}$`)
	allowBDFRe = lazyregexp.New(`^(?:[0-9a-fA-F]{4}:)?[0-9a-fA-F]{2}:[0-9a-fA-F]{2}\.[0-7]$|^/dev/mst/[A-Za-z0-9_.]+$`)
	pciIDRe    = lazyregexp.New(`^[0-9a-fA-F]{0,4}:[0-9a-fA-F]{0,4}(?::[0-9a-fA-F]{0,4})?$`)
	unitRe     = lazyregexp.New(`^[A-Za-z0-9][A-Za-z0-9@_.-]{0,127}$`)
	devPortRe  = lazyregexp.New(`^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}(?::[0-9]{1,3})?$`)
)

var (
	isDev    = devRe.MatchString
	isPort   = portRe.MatchString
	isNetdev = ifRe.MatchString
	isBDF    = allowBDFRe.MatchString // a PCI address, or an MFT /dev/mst node
)

// oneOf checks that s is one of words.
func oneOf(words ...string) func(string) bool {
	return func(s string) bool { return slices.Contains(words, s) }
}

// posAt checks the non-option arguments by position: checks[i] for the i-th, none past them.
func posAt(checks ...func(string) bool) func(int, string) bool {
	return func(i int, s string) bool { return i < len(checks) && checks[i](s) }
}

// ibDevPort are the -C/-P options by which infiniband-diags select a local port.
var ibDevPort = map[string]func(string) bool{"-C": isDev, "-P": isPort}
