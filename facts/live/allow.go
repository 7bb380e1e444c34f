package live

import (
	"fmt"
	"regexp"
	"strings"
)

// The allow-list: the only invocations the gatherer will ever run. Every tool here can also
// change the node (mstconfig set, flint burn, mlxlink --pc, perfquery -R, ethtool -s, sysctl -w,
// dmesg -c, hostname NAME, systemctl restart, ...), so each argv is checked against a grammar of
// read-only options before it reaches exec, and anything not listed is refused.

var (
	devRe   = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$`)
	portRe  = regexp.MustCompile(`^[0-9]{1,3}$`)
	ifRe    = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.@:-]{0,31}$`)
	bdfArg  = regexp.MustCompile(`^(?:[0-9a-fA-F]{4}:)?[0-9a-fA-F]{2}:[0-9a-fA-F]{2}\.[0-7]$|^/dev/mst/[A-Za-z0-9_.]+$`)
	pciID   = regexp.MustCompile(`^[0-9a-fA-F]{0,4}:[0-9a-fA-F]{0,4}(?::[0-9a-fA-F]{0,4})?$`)
	unitRe  = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9@_.-]{0,127}$`)
	devPort = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}(?::[0-9]{1,3})?$`)
)

// matches returns a check of s against re.
func matches(re *regexp.Regexp) func(string) bool { return re.MatchString }

func oneOf(words ...string) func(string) bool {
	return func(s string) bool {
		for _, w := range words {
			if s == w {
				return true
			}
		}
		return false
	}
}

// grammar is the read-only argument syntax of one tool.
type grammar struct {
	// bare are options without a value.
	bare []string
	// valued are options followed by one value, with the value's check.
	valued map[string]func(string) bool
	// pos checks the i-th (0-based) non-option argument; nil allows none.
	pos func(i int, s string) bool
	// need is the number of non-option arguments required at least.
	need int
}

var (
	ibDevPort = map[string]func(string) bool{"-C": matches(devRe), "-P": matches(portRe)}
	mftQuery  = grammar{
		bare:   []string{"-e"},
		valued: map[string]func(string) bool{"-d": matches(bdfArg)},
		pos:    func(i int, s string) bool { return i == 0 && (s == "q" || s == "query") },
		need:   1,
	}
	flintQuery = grammar{
		valued: map[string]func(string) bool{"-d": matches(bdfArg)},
		pos:    func(i int, s string) bool { return i == 0 && (s == "q" || s == "query") },
		need:   1,
	}
	linkShow = grammar{
		bare: []string{"-m", "-c", "-e", "--json"},
		valued: map[string]func(string) bool{
			"-d": matches(bdfArg), "--port_type": oneOf("PCIE", "NETWORK"),
		},
	}
	// ethtoolRead are ethtool's query options; each takes the interface as its value.
	ethtoolRead = []string{"-i", "-m", "-S", "-a", "-k", "-g", "-l", "-c", "-T", "-P",
		"--show-fec", "--show-priv-flags", "--show-eee", "--phy-statistics"}
)

var grammars = map[string]grammar{
	"ibstat": {pos: func(i int, s string) bool {
		return (i == 0 && devRe.MatchString(s)) || (i == 1 && portRe.MatchString(s))
	}},
	"ibstatus":    {pos: func(i int, s string) bool { return i == 0 && devPort.MatchString(s) }},
	"ibv_devices": {},
	"ibv_devinfo": {bare: []string{"-v", "-l"}, valued: map[string]func(string) bool{"-d": matches(devRe), "-i": matches(portRe)}},
	"iblinkinfo":  {valued: ibDevPort},
	"sminfo":      {valued: ibDevPort},
	"perfquery":   {bare: []string{"-x"}, valued: ibDevPort},
	"mstconfig":   mftQuery,
	"mlxconfig":   mftQuery,
	"flint":       flintQuery,
	"mstflint":    flintQuery,
	"mlxlink":     linkShow,
	"mstlink":     linkShow,
	"lspci":       {bare: []string{"-nnvv", "-tv", "-vvv", "-vv", "-v", "-nn", "-n", "-t", "-D"}, valued: map[string]func(string) bool{"-s": matches(bdfArg), "-d": matches(pciID)}},
	"ip": {bare: []string{"-d", "-o", "-s"}, pos: func(i int, s string) bool {
		return (i == 0 && oneOf("addr", "address", "link")(s)) || (i == 1 && s == "show")
	}, need: 1},
	"lsmod":        {},
	"ethtool":      {}, // checkEthtool
	"sysctl":       {bare: []string{"-a"}},
	"dmesg":        {},
	"journalctl":   {bare: []string{"-k", "-b", "--no-pager"}},
	"ibdev2netdev": {bare: []string{"-v"}},
	"show_gids":    {pos: func(i int, s string) bool { return i == 0 && devRe.MatchString(s) }},
	"rdma":         {pos: func(i int, s string) bool { return (i == 0 && oneOf("link", "dev")(s)) || (i == 1 && s == "show") }, need: 1},
	"mst":          {bare: []string{"-v"}, pos: func(i int, s string) bool { return i == 0 && s == "status" }, need: 1},
	"uname":        {bare: []string{"-r", "-n"}},
	"hostname":     {},
	"systemctl":    {bare: []string{"--no-pager"}, pos: func(i int, s string) bool { return (i == 0 && s == "status") || (i > 0 && unitRe.MatchString(s)) }, need: 2},
}

// Check returns an error unless argv is a read-only invocation on the allow-list. argv[0] is
// the bare tool name, not a path.
func Check(argv []string) error {
	if len(argv) == 0 {
		return fmt.Errorf("not allowed: empty command")
	}
	g, ok := grammars[argv[0]]
	if !ok {
		return fmt.Errorf("not allowed: %q is not on the read-only allow-list", argv[0])
	}
	if argv[0] == "ethtool" {
		return checkEthtool(argv)
	}
	npos := 0
	for i := 1; i < len(argv); i++ {
		a := argv[i]
		if strings.HasPrefix(a, "-") {
			if contains(g.bare, a) {
				continue
			}
			if val, ok := g.valued[a]; ok && i+1 < len(argv) && val(argv[i+1]) {
				i++
				continue
			}
			return fmt.Errorf("not allowed: %s: option %q is not on the read-only allow-list", strings.Join(argv, " "), a)
		}
		if g.pos == nil || !g.pos(npos, a) {
			return fmt.Errorf("not allowed: %s: argument %q is not on the read-only allow-list", strings.Join(argv, " "), a)
		}
		npos++
	}
	if npos < g.need {
		return fmt.Errorf("not allowed: %s: incomplete read-only invocation", strings.Join(argv, " "))
	}
	return nil
}

// checkEthtool allows `ethtool IF` and `ethtool OPT IF` with OPT a query option.
func checkEthtool(argv []string) error {
	switch {
	case len(argv) == 2 && !strings.HasPrefix(argv[1], "-") && ifRe.MatchString(argv[1]):
		return nil
	case len(argv) == 3 && contains(ethtoolRead, argv[1]) && ifRe.MatchString(argv[2]):
		return nil
	}
	return fmt.Errorf("not allowed: %s: only ethtool query options are on the read-only allow-list", strings.Join(argv, " "))
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
