package parse

import (
	"strings"

	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/internal/lazyregexp"
)

// IPAddr parses iproute2 `ip addr` in its three layouts (ip/ipaddress.c):
//
//	9: ib0: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 65520 qdisc pfifo_fast state UP qlen 1024
//	    link/infiniband 80:00:00:48:fe:80:...:47:cf brd 00:ff:ff:ff:ff:12:40:1b:...
//	    inet 192.0.2.10/16 brd 192.0.255.255 scope global ib0
//	    inet6 fe80::202:c903:4e:47cf/64 scope link tentative
//
// `ip -o addr` puts each record on one line with "\" between the parts, and `ip -br addr`
// prints "name  STATE  addr/len ...". `ip -d` detail lines give the IPoIB mode ("ipoib pkey
// 0xffff mode connected ..." gives the mode and P_Key), a "name@parent" header names the
// lower interface (an IPoIB child "ib0.8001@ib0"), and `vf N ...` lines of `ip link` are read into VFs. Interfaces
// are returned in input order, merged by name. See https://man7.org/linux/man-pages/man8/ip-address.8.html.
//
// ip prints a "link/..." line under every "N: name: <FLAGS> ..." header and ends every line
// with a newline: a header without its link line (a block cut in the middle) and a last line
// without its newline (cut, maybe mid-address) are the problems of a partial read, the rest kept.
func IPAddr(b []byte) ([]facts.Netdev, error) {
	return iproute(b)
}

var (
	ipBriefRe = lazyregexp.New(`^(\S+)\s+(UP|DOWN|UNKNOWN|LOWERLAYERDOWN|DORMANT|NOTPRESENT|TESTING)\b\s*(.*)$`)
)

type ipParser struct {
	out   []facts.Netdev
	index map[string]int
}

func (p *ipParser) netdev(name string) *facts.Netdev {
	if i, ok := p.index[name]; ok {
		return &p.out[i]
	}
	p.index[name] = len(p.out)
	p.out = append(p.out, facts.Netdev{Name: name})
	return &p.out[len(p.out)-1]
}

func iproute(b []byte) ([]facts.Netdev, error) {
	lines := Lines(b)
	// Each interface starts at an unindented line: their count bounds the output, so the
	// (large) records are not copied as the slice grows.
	records := 0
	for _, l := range lines {
		if l.Text != "" && l.Text[0] != ' ' && l.Text[0] != '\t' {
			records++
		}
	}
	p := &ipParser{out: make([]facts.Netdev, 0, records), index: map[string]int{}}
	var cur *facts.Netdev
	var probs problems
	var noLink *Line // the open block's header, until its link/ line
	closeBlock := func() {
		if noLink != nil {
			probs.add(*noLink, "interface block has no link/ line: it was cut")
		}
		noLink = nil
	}
	for _, l := range lines {
		if strings.TrimSpace(l.Text) == "" {
			continue
		}
		if strings.HasPrefix(strings.TrimSpace(l.Text), "link/") {
			noLink = nil
		}
		if name, rest, ok := ipHeader(l.Text); ok {
			closeBlock()
			if hasIPFlags(rest) && !strings.Contains(rest, "link/") {
				noLink = &l
			}
			name, parent, _ := strings.Cut(name, "@")
			cur = p.netdev(name)
			if cur.Evidence == nil {
				// ip addr gives an interface 9 to 11 facts: size the map once, not 8 then 16.
				cur.Evidence = make(facts.EvidenceMap, 12)
			}
			cur.Evidence.Set("name", l.Evidence())
			if parent != "" && parent != "NONE" {
				cur.Parent = parent
				cur.Evidence.Set("parent", l.Evidence())
			}
			// -o joins a record's lines with "\"; the first part may already be an address.
			first := true
			for part := range strings.SplitSeq(rest, `\`) {
				if first && hasIPFlags(part) {
					ipLinkHeader(cur, part, l)
				} else {
					ipDetail(cur, strings.TrimSpace(part), l)
				}
				first = false
			}
			continue
		}
		if m := ipBriefLine(l.Text); m != nil {
			closeBlock()
			cur = p.netdev(m[1])
			ipBrief(cur, m[2], m[3], l)
			continue
		}
		if cur == nil {
			if strings.HasPrefix(strings.TrimSpace(l.Text), "vf ") {
				cur = p.netdev("")
			} else {
				continue
			}
		}
		ipDetail(cur, strings.TrimSpace(l.Text), l)
	}
	closeBlock()
	probs.cut(b, lines, true) // every ip line is complete only with its newline
	return p.out, probs.err()
}

// reSpace is what \s matches in a Go regexp.
const reSpace = "\t\n\f\r "

// ipHeader reads "9: ib0: <BROADCAST,...> mtu 65520 ..." into the name ("ib0", or
// "eth0.5@eth0") and the rest after the blanks that follow it. It does what the regexp
// `^\s*(\d+):\s+([^:\s]+(?:@[^:\s]+)?):?\s+(.*)$` would (ip_addr_test.go checks that), without
// running one on every line.
func ipHeader(s string) (name, rest string, ok bool) {
	t := strings.TrimLeft(s, reSpace)
	digits := len(t) - len(strings.TrimLeft(t, "0123456789"))
	if digits == 0 || digits == len(t) || t[digits] != ':' {
		return "", "", false
	}
	t = t[digits+1:]
	u := strings.TrimLeft(t, reSpace)
	if len(u) == len(t) {
		return "", "", false
	}
	end := strings.IndexAny(u, ":"+reSpace)
	if end <= 0 {
		return "", "", false
	}
	name, t = u[:end], strings.TrimPrefix(u[end:], ":")
	rest = strings.TrimLeft(t, reSpace)
	if len(rest) == len(t) || strings.Contains(rest, "\n") {
		return "", "", false
	}
	return name, rest, true
}

func hasIPFlags(s string) bool {
	_, ok := ipFlags(s)
	return ok
}

// ipBriefLine matches an unindented `ip -br` line against ipBriefRe.
func ipBriefLine(s string) []string {
	if strings.HasPrefix(s, " ") {
		return nil
	}
	return ipBriefRe.FindStringSubmatch(strings.TrimRight(s, " "))
}

// ipFlags returns what is between the first "<" and the ">" after it, e.g.
// "BROADCAST,MULTICAST,UP" of "<BROADCAST,MULTICAST,UP> mtu 1500".
func ipFlags(s string) (string, bool) {
	i := strings.IndexByte(s, '<')
	if i < 0 {
		return "", false
	}
	flags, _, ok := strings.Cut(s[i+1:], ">")
	return flags, ok
}

// ipLinkHeader reads "<FLAGS> mtu 1500 qdisc mq state UP mode DEFAULT ...".
func ipLinkHeader(n *facts.Netdev, s string, l Line) {
	ev := l.Evidence()
	if flags, ok := ipFlags(s); ok {
		n.Flags = nil
		if flags != "" {
			n.Flags = strings.Split(flags, ",")
		}
		n.AdminUp = boolPtr(hasFlag(n.Flags, "UP"))
		n.Evidence.Set("flags", ev)
		n.Evidence.Set("admin_up", ev)
		switch {
		case hasFlag(n.Flags, "NO-CARRIER"):
			n.Carrier = boolPtr(false)
			n.Evidence.Set("carrier", ev)
		case hasFlag(n.Flags, "LOWER_UP"):
			n.Carrier = boolPtr(true)
			n.Evidence.Set("carrier", ev)
		}
	}
	f := strings.Fields(s)
	for i := 0; i+1 < len(f); i++ {
		switch f[i] {
		case "mtu":
			if v := atoiPtr(f[i+1]); v != nil {
				n.MTU = v
				n.Evidence.Set("mtu", ev)
			}
		case "state":
			n.OperState = f[i+1]
			n.Evidence.Set("operstate", ev)
		}
	}
}

// ipDetail reads one continuation part: link/..., inet, inet6, ipoib details or a VF line.
func ipDetail(n *facts.Netdev, s string, l Line) {
	// Every address is followed by its lifetimes, which we do not read: skip them unsplit.
	if strings.HasPrefix(s, "valid_lft ") {
		return
	}
	f := strings.Fields(s)
	if len(f) == 0 {
		return
	}
	ev := l.Evidence()
	switch {
	case strings.HasPrefix(f[0], "link/"):
		if len(f) > 1 {
			n.LinkAddress = f[1]
			n.Evidence.Set("link_address", ev)
		}
		if k := linkKind(f[0]); k != "" {
			n.Kind = k
			n.Evidence.Set("kind", ev)
		}
	case f[0] == "inet" && len(f) > 1:
		n.IPv4 = append(n.IPv4, f[1])
		n.Evidence.Set("ipv4", ev)
	case f[0] == "inet6" && len(f) > 1:
		n.IPv6 = append(n.IPv6, ipv6Address(f))
		n.Evidence.Set("ipv6", ev)
	case f[0] == "ipoib":
		for i := 1; i+1 < len(f); i++ {
			switch f[i] {
			case "mode":
				n.IPoIBMode = f[i+1]
				n.Evidence.Set("ipoib_mode", ev)
			case "pkey":
				n.PKey = f[i+1]
				n.Evidence.Set("pkey", ev)
			}
		}
	case f[0] == "vf":
		if vf, ok := ipVF(s, l); ok {
			n.VFs = append(n.VFs, vf)
		}
	}
}

func linkKind(t string) string {
	switch t {
	case "link/infiniband":
		return facts.NetdevIPoIB
	case "link/ether":
		return facts.NetdevEthernet
	case "link/loopback", "link/none", "link/void":
		return facts.NetdevOther
	}
	return ""
}

// ipv6Address reads "inet6 2001:db8::1/64 scope global tentative noprefixroute".
func ipv6Address(f []string) facts.IPv6Address {
	a := facts.IPv6Address{Address: f[1]}
	for i := 2; i < len(f); i++ {
		switch f[i] {
		case "scope":
			if i+1 < len(f) {
				a.Scope = f[i+1]
				i++
			}
		case "tentative", "dadfailed", "deprecated", "noprefixroute", "optimistic", "mngtmpaddr",
			"temporary", "secondary", "nodad", "home", "stable-privacy", "dynamic", "permanent":
			a.Flags = append(a.Flags, f[i])
		}
	}
	return a
}

// ipBrief reads the rest of an `ip -br` line: addresses for -br addr, MAC and flags for -br link.
func ipBrief(n *facts.Netdev, state, rest string, l Line) {
	ev := l.Evidence()
	n.OperState = state
	n.Evidence.Set("operstate", ev)
	for _, f := range strings.Fields(rest) {
		switch {
		case strings.HasPrefix(f, "<"):
			ipLinkHeader(n, f, l)
		case strings.Contains(f, "/") && strings.Contains(f, ":"):
			n.IPv6 = append(n.IPv6, facts.IPv6Address{Address: f})
			n.Evidence.Set("ipv6", ev)
		case strings.Contains(f, "/"):
			n.IPv4 = append(n.IPv4, f)
			n.Evidence.Set("ipv4", ev)
		case strings.Count(f, ":") >= 5:
			n.LinkAddress = f
			n.Evidence.Set("link_address", ev)
		}
	}
}

func hasFlag(flags []string, f string) bool {
	for _, v := range flags {
		if v == f {
			return true
		}
	}
	return false
}
