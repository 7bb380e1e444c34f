package parse

import (
	"bytes"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/internal/lazyregexp"
)

var (
	// syslogPrefixRe is the syslog/journal prefix "Dec 30 00:07:32 node01 kernel: " (also the ISO
	// timestamp of journalctl -o short-iso); group 1 is the tag.
	syslogPrefixRe = lazyregexp.New(`^(?:[A-Z][a-z]{2}\s+\d{1,2}\s+\d{2}:\d{2}:\d{2}|\d{4}-\d{2}-\d{2}T\S+)\s+\S+\s+([^:\s\[]+)(?:\[\d+\])?:\s?`)
	// kernelNetdevRe is a network interface name before a colon ("enp4s0np0: Link down").
	kernelNetdevRe = lazyregexp.New(`^([a-z][a-z0-9.]*):(\s|$)`)
	// ipoibPrefixRe is an IPoIB interface's own prefix ("ib0: mtu > 2044 ...").
	ipoibPrefixRe = lazyregexp.New(`^(ib[a-z0-9.]*):\s`)
	// rdmaUserspaceRe finds RDMA user-space libraries in segfault lines.
	rdmaUserspaceRe = lazyregexp.New(`librdmacm|libibverbs|libmlx[45]|libucp|libuct`)
)

// rdmaKernelDrivers are the dev_printk/pr_* prefixes of the RDMA stack.
var rdmaKernelDrivers = map[string]bool{
	"mlx4_core": true, "mlx4_en": true, "mlx4_ib": true, "mlx5_core": true, "mlx5_ib": true,
	"mlx_compat": true, "mlxfw": true, "ib_core": true, "ib_ipoib": true, "ib_uverbs": true,
	"ib_umad": true, "ib_cm": true, "rdma_cm": true, "rdma_ucm": true, "iw_cm": true,
	"infiniband": true, "ib_srp": true, "ib_srpt": true, "ib_iser": true, "rpcrdma": true,
	// GPUDirect RDMA's peer-memory clients, which register GPU memory with ib_core.
	"nvidia_peermem": true, "nv_peer_mem": true,
}

// kernelEventKinds classify a message, most specific first. A kind matches when re matches; for
// an ASCII message it first needs one of its hints in the lower-cased message (literals every
// match of re contains, as whole words when word is set), and when exact is set the hints decide
// alone: re says no more than they do. Most lines are so told apart without running a
// case-insensitive regexp, which costs ~2 µs a line.
var kernelEventKinds = []struct {
	kind  string
	hints []string
	word  bool
	exact bool
	re    *lazyregexp.Regexp
}{
	{facts.EventInsufficientPower, []string{"insufficient power on the pcie slot"}, false, true, lazyregexp.New(`(?i)insufficient power on the pcie slot`)},
	{facts.EventPCIeLimited, []string{"available pcie bandwidth, limited by"}, false, true, lazyregexp.New(`(?i)available pcie bandwidth, limited by`)},
	{facts.EventProbeFailed, []string{"probe of ", "handle_hca_cap failed", "load_one failed", "init_one failed", "init_once failed", "function_setup failed"}, false, false,
		lazyregexp.New(`(?i)probe of \S+ failed|handle_hca_cap failed|load_one failed|init_one failed|init_once failed|function_setup failed`)},
	{facts.EventFirmwareUpgrade, []string{"later fw", "too old"}, false, false, lazyregexp.New(`(?i)upgrade to (a )?later fw|(firmware|fw)( version)?\b.*\btoo old`)},
	{facts.EventUnknownSymbol, []string{"unknown symbol ", "disagrees about version of symbol "}, false, true,
		lazyregexp.New(`(?i)unknown symbol |disagrees about version of symbol `)},
	{facts.EventModuleError, []string{"port module event[error]", "cable error"}, false, true, lazyregexp.New(`(?i)port module event\[error\]|cable error`)},
	{facts.EventCableNotConnected, []string{"cable is not con"}, false, true, lazyregexp.New(`(?i)cable is not con`)},
	{facts.EventIPoIBMTUClamp, []string{"will cause multicast packet drops"}, false, false, lazyregexp.New(`mtu > \d+ will cause multicast packet drops`)},
	{facts.EventLostCarrier, []string{"lost carrier"}, false, true, lazyregexp.New(`(?i)lost carrier`)},
	{facts.EventLinkDown, []string{"link down"}, true, true, lazyregexp.New(`(?i)\blink down\b`)},
	{facts.EventLinkUp, []string{"link up"}, true, true, lazyregexp.New(`(?i)\blink up\b`)},
}

// MaxEventsPerKind is how many kernel events of one kind a log keeps from its start, and again
// from its end: a log flooded with one message (a flapping link, 600,000 "Link down" lines)
// keeps the first and the last MaxEventsPerKind and counts the rest.
const MaxEventsPerKind = 64

// DmesgLog is what a kernel log says about the RDMA stack.
type DmesgLog struct {
	// Lines counts the non-empty lines read, and KernelLines those that have the shape of a
	// kernel log line: dmesg's "[...]" stamp, a syslog/journal "kernel:" tag, or an RDMA
	// driver's prefix. A file with Lines > 0 and KernelLines == 0 is not a kernel log.
	Lines, KernelLines int
	// Damaged are RDMA stack lines that hold a byte that is not UTF-8, or whose driver prefix names a
	// device that is not a PCI address ("mlx4_core 0000:fifty:00.0:"): damaged in the copy, so
	// what they said is unknown. At most MaxDamagedLines are kept.
	Damaged []Line
	// Cut is the last line when the log does not end with a newline: the capture was cut there
	// (`head -c`, a paste that stopped) and what the kernel logged next is lost.
	Cut *Line
	// Events are the classified RDMA lines in line order: of each kind, the first and the last
	// MaxEventsPerKind.
	Events []facts.KernelEvent
	// Omitted counts the events of each kind left out between those kept, by kind.
	Omitted map[string]int
}

// Dmesg classifies the RDMA-related lines of a kernel log held in b; see ReadDmesg.
func Dmesg(b []byte) ([]facts.KernelEvent, error) {
	log, err := ReadDmesg(bytes.NewReader(b))
	return log.Events, err
}

// ReadDmesg classifies the RDMA-related lines of a kernel log: `dmesg`, `dmesg -T`, `journalctl -k`,
// grep excerpts of them, and /var/log/messages, syslog or kern.log (where only "kernel:" lines
// count). A line belongs to the RDMA stack when it starts with an RDMA driver's prefix
//
//	[    1.438142] mlx5_core 0000:04:00.0: 8.000 Gb/s available PCIe bandwidth, limited by 2.5 GT/s PCIe x4 link at ...
//	mlx4_en: eth1: Link Up
//	[Wed Jan 15 11:37:57 2025] infiniband mlx5_0: create_qp:3047:(pid 29714): Create QP type 2 failed
//
// with an IPoIB interface ("ib0: mtu > 2044 will cause multicast packet drops.") or names an RDMA
// user-space library (a segfault in librdmacm). Each becomes a KernelEvent of a facts.Event* kind
// (EventOther when no pattern matches) with the driver, PCI address, netdev and RDMA device it
// names. Other lines are skipped; a kernel log has no malformed lines. r is read line by line
// (EachLine) and at most 2*MaxEventsPerKind events of each kind are kept.
func ReadDmesg(r io.Reader) (DmesgLog, error) {
	keep := newEventKeeper()
	// A flooded log repeats a few messages under new timestamps: each is classified once.
	type class struct {
		ev facts.KernelEvent
		ok bool
	}
	known := map[string]class{}
	var lines, kernelLines int
	var damaged []Line
	tail := &lastByte{r: r}
	var last Line
	err := EachLine(tail, func(l Line) {
		last = Line{N: l.N}
		msg := l.Text
		if strings.TrimSpace(msg) == "" {
			return
		}
		lines++
		kernelShaped := msg[0] == '['
		if !kernelShaped {
			if m := syslogPrefixRe.FindStringSubmatch(msg); m != nil {
				if m[1] != "kernel" {
					return
				}
				kernelShaped = true
				msg = msg[len(m[0]):]
			}
		}
		msg = strings.TrimSpace(trimDmesgStamp(msg))
		c, seen := known[msg]
		if !seen {
			msg = strings.Clone(msg) // the event's fields are substrings of it
			c.ev, c.ok = kernelEvent(msg)
			if len(known) >= maxKnownMessages {
				clear(known)
			}
			known[msg] = c
		}
		if kernelShaped || c.ok {
			kernelLines++
		}
		// A damaged line of the RDMA stack (other lines may hold a BIOS vendor's Latin-1 name).
		rdmaLine := c.ok || strings.Contains(msg, "mlx")
		if rdmaLine && (strings.ContainsRune(msg, utf8.RuneError) || damagedDevice(msg)) && len(damaged) < MaxDamagedLines {
			damaged = append(damaged, Line{N: l.N, Text: l.Text})
		}
		if !c.ok {
			return
		}
		keep.add(c.ev, l)
	})
	log := keep.log()
	log.Lines, log.KernelLines, log.Damaged = lines, kernelLines, damaged
	if err == nil && tail.n > 0 && tail.last != '\n' && last.N > 0 {
		last.Text = string(tail.lastLine)
		log.Cut = &last
	}
	return log, err
}

// lastByte passes r through and remembers the last byte read and the bytes of the last line
// (up to MaxLineBytes), to tell a log that ends mid-line.
type lastByte struct {
	r        io.Reader
	n        int64
	last     byte
	lastLine []byte
}

func (t *lastByte) Read(p []byte) (int, error) {
	n, err := t.r.Read(p)
	if n > 0 {
		t.n += int64(n)
		t.last = p[n-1]
		chunk := p[:n]
		if i := bytes.LastIndexByte(chunk, '\n'); i >= 0 {
			t.lastLine = append(t.lastLine[:0], chunk[i+1:]...)
		} else if room := MaxLineBytes - len(t.lastLine); room > 0 {
			t.lastLine = append(t.lastLine, chunk[:min(len(chunk), room)]...)
		}
	}
	return n, err
}

// MaxDamagedLines is how many damaged lines ReadDmesg names.
const MaxDamagedLines = 20

// damagedDevice reports whether msg starts with an RDMA driver's name and a device field shaped
// like a PCI address ("dddd:bb:dd.f:") that is not one.
func damagedDevice(msg string) bool {
	head, rest, _ := strings.Cut(msg, " ")
	if !rdmaKernelDrivers[strings.TrimSuffix(head, ":")] {
		return false
	}
	tok, _, _ := strings.Cut(strings.TrimSpace(rest), " ")
	return strings.HasSuffix(tok, ":") && strings.Count(tok, ":") >= 3 && strings.Contains(tok, ".") && findBDF(tok) == ""
}

// maxKnownMessages bounds the classified messages ReadDmesg remembers (~2 MB).
const maxKnownMessages = 8192

// trimDmesgStamp drops dmesg's "[    1.437917] " or dmesg -T's "[Wed Jan 15 11:37:57 2025] "
// from the start of msg.
func trimDmesgStamp(msg string) string {
	if !strings.HasPrefix(msg, "[") {
		return msg
	}
	end := strings.IndexByte(msg, ']')
	if end < 0 {
		return msg
	}
	return strings.TrimLeft(msg[end+1:], " \t\n\f\r")
}

// kernelEvent reads who logged msg and what it says; ok is false for lines outside the RDMA stack.
func kernelEvent(msg string) (facts.KernelEvent, bool) {
	var ev facts.KernelEvent
	head, rest, _ := strings.Cut(msg, " ")
	driver := strings.TrimSuffix(strings.Trim(strings.TrimSuffix(head, ":"), "<>"), ":")
	switch {
	case rdmaKernelDrivers[driver]:
		ev.Driver = driver
		rest = strings.TrimSpace(rest)
		ev.PCIAddress = findBDF(rest)
		if strings.HasPrefix(rest, ev.PCIAddress) && ev.PCIAddress != "" {
			rest = strings.TrimPrefix(rest, ev.PCIAddress)
			if strings.HasPrefix(rest, ":") {
				rest = "" // "0000:04:00.0: message": no interface named
			}
			rest = strings.TrimSpace(rest)
		}
		if m := kernelNetdevRe.FindStringSubmatch(rest); m != nil {
			if driver == "infiniband" {
				ev.RDMADevice = m[1]
			} else {
				ev.Netdev = m[1]
			}
		} else if driver == "infiniband" {
			if dev, _, ok := strings.Cut(rest, ":"); ok && !strings.Contains(dev, " ") {
				ev.RDMADevice = dev
			}
		}
	case ipoibPrefixRe.MatchString(msg):
		ev.Driver = "ib_ipoib"
		ev.Netdev = ipoibPrefixRe.FindStringSubmatch(msg)[1]
	case strings.Contains(msg, "lib") && rdmaUserspaceRe.MatchString(msg):
	default:
		return ev, false
	}
	ev.Kind = kernelEventKind(msg)
	if ev.Kind == facts.EventUnknownSymbol {
		ev.Symbol = symbolNamed(msg)
	}
	return ev, true
}

// symbolNamed returns the symbol of the kernel module loader's "Unknown symbol X (err -22)" or
// "disagrees about version of symbol X" (kernel/module/main.c), or "".
func symbolNamed(msg string) string {
	for _, k := range []string{"Unknown symbol ", "disagrees about version of symbol "} {
		if _, rest, ok := strings.Cut(msg, k); ok {
			if f := strings.Fields(rest); len(f) > 0 {
				return f[0]
			}
		}
	}
	return ""
}

// kernelEventKind is the first kernelEventKinds entry msg matches, or EventOther.
func kernelEventKind(msg string) string {
	// Case folding knows a few non-ASCII letters (the Kelvin sign for k) that ToLower leaves:
	// for those the regexps decide alone.
	ascii := isASCII(msg)
	lower := msg
	if ascii {
		lower = strings.ToLower(msg)
	}
	for _, k := range kernelEventKinds {
		if ascii {
			if !containsAny(lower, k.hints, k.word) {
				continue
			}
			if k.exact {
				return k.kind
			}
		}
		if k.re.MatchString(msg) {
			return k.kind
		}
	}
	return facts.EventOther
}

// containsAny reports whether s holds one of subs, as a whole word (\b...\b) when word is set.
func containsAny(s string, subs []string, word bool) bool {
	for _, sub := range subs {
		for from := 0; ; {
			i := strings.Index(s[from:], sub)
			if i < 0 {
				break
			}
			i += from
			end := i + len(sub)
			if !word || (!isWordByte(s, i-1) && !isWordByte(s, end)) {
				return true
			}
			from = i + 1
		}
	}
	return false
}

// isWordByte reports whether s[i] is an ASCII word character (\w); false out of range.
func isWordByte(s string, i int) bool {
	if i < 0 || i >= len(s) {
		return false
	}
	c := s[i]
	return c == '_' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// findBDF returns the first PCI address with domain in s as the kernel's dev_printk prints it,
// [0-9a-f]{4}:[0-9a-f]{2}:[0-9a-f]{2}\.[0-7] ("0000:04:00.0"), or "".
func findBDF(s string) string {
	const n = len("0000:04:00.0")
	for i := 0; i+n <= len(s); i++ {
		c := s[i : i+n]
		if c[4] == ':' && c[7] == ':' && c[10] == '.' && '0' <= c[11] && c[11] <= '7' &&
			isLowerHex(c[0:4]) && isLowerHex(c[5:7]) && isLowerHex(c[8:10]) {
			return c
		}
	}
	return ""
}

func isLowerHex(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}
