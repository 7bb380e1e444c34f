package live

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"net"
	"path"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing/fstest"
)

// Redactor replaces identifying values with stable placeholders: the same value always gets
// the same placeholder within one snapshot, so relations between files (a port GUID in ibstat,
// in a GID, in sysfs) survive. Zero and well-known values (0.0.0.0, loopback, masks, all-zero
// GUIDs, ff:ff:ff:ff:ff:ff) are kept: they are diagnostic, not identifying.
type Redactor struct {
	hosts  map[string]string
	ipv4   map[string]string
	ipv6   map[string]string
	mac    map[string]string
	guid   map[uint64]uint64
	serial map[string]string
}

// NewRedactor returns a redactor that also replaces the given host names (full and short).
func NewRedactor(hostnames ...string) *Redactor {
	r := &Redactor{hosts: map[string]string{}, ipv4: map[string]string{}, ipv6: map[string]string{},
		mac: map[string]string{}, guid: map[uint64]uint64{}, serial: map[string]string{}}
	for _, h := range hostnames {
		r.addHost(h)
	}
	return r
}

func (r *Redactor) addHost(h string) {
	h = strings.ToLower(strings.TrimSpace(h))
	if h == "" || h == "localhost" || h == "(none)" || !tokenRe.MatchString(h) {
		return
	}
	short, _, _ := strings.Cut(h, ".")
	p, ok := r.hosts[short]
	if !ok {
		p = fmt.Sprintf("host-%d", len(distinct(r.hosts))+1)
		r.hosts[short] = p
	}
	// node01 and node01.example.com are one host.
	r.hosts[h] = p
}

func distinct(m map[string]string) map[string]bool {
	out := map[string]bool{}
	for _, v := range m {
		out[v] = true
	}
	return out
}

var (
	tokenRe  = regexp.MustCompile(`^[A-Za-z0-9_.-]+$`)
	wordRe   = regexp.MustCompile(`[A-Za-z0-9_.-]+`)
	ipv4Re   = regexp.MustCompile(`[0-9]{1,3}\.[0-9]{1,3}\.[0-9]{1,3}\.[0-9]{1,3}`)
	colonRun = regexp.MustCompile(`[0-9A-Fa-f:]*:[0-9A-Fa-f:]*`)
	// guid0x: opensm prints GUIDs without their leading zeros ("port guid 0x8c0eb0300f6fc26"),
	// so 12 to 16 digits (a 64-bit value that long is worth hiding whatever it is).
	guid0x     = regexp.MustCompile(`0x[0-9A-Fa-f]{12,16}`)
	guidBare   = regexp.MustCompile(`[0-9A-Fa-f]{16}`)
	macBare    = regexp.MustCompile(`(?i)(\bmac\b[^:\n]*:\s*)([0-9a-f]{12})\b`)
	serialRe   = regexp.MustCompile(`(?im)((?:\[SN\]\s*serial number|vendor\s+sn|serial\s*number)\s*[:=]\s*)([^\s].*?)[ \t]*$`)
	nodeDesc   = regexp.MustCompile(`"([A-Za-z0-9_.-]+) (?:HCA-[0-9]+|mlx[0-9]+_[0-9]+)[^"]*"`)
	hexPair    = regexp.MustCompile(`^[0-9A-Fa-f]{2}$`)
	hexQuad    = regexp.MustCompile(`^[0-9A-Fa-f]{4}$`)
	keepSerial = map[string]bool{"n/a": true, "na": true, "none": true, "unknown": true, "": true}
)

// boundary reports whether the match b[i:j] stands alone: not glued to a word character (or to
// the characters given) on either side.
func boundary(b []byte, i, j int, extra string) bool {
	glued := func(c byte) bool {
		return c == '_' || c >= '0' && c <= '9' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || strings.IndexByte(extra, c) >= 0
	}
	return (i == 0 || !glued(b[i-1])) && (j == len(b) || !glued(b[j]))
}

// Bytes returns b with every identifying value replaced.
func (r *Redactor) Bytes(b []byte) []byte {
	b = serialRe.ReplaceAllFunc(b, func(m []byte) []byte {
		sub := serialRe.FindSubmatch(m)
		v := string(sub[2])
		if keepSerial[strings.ToLower(v)] {
			return m
		}
		return append(append([]byte{}, sub[1]...), r.place(r.serial, v, "SN%07d")...)
	})
	b = replaceBounded(b, colonRun, "", r.colonToken)
	b = replaceBounded(b, guid0x, "", func(s string) string {
		v, _ := strconv.ParseUint(s[2:], 16, 64)
		return fmt.Sprintf("0x%016x", r.guidOf(v))
	})
	b = replaceBounded(b, guidBare, "", func(s string) string {
		v, _ := strconv.ParseUint(s, 16, 64)
		return fmt.Sprintf("%016x", r.guidOf(v))
	})
	b = macBare.ReplaceAllFunc(b, func(m []byte) []byte {
		sub := macBare.FindSubmatch(m)
		mac := r.macOf(net.HardwareAddr(mustHex(string(sub[2]))).String())
		return append(append([]byte{}, sub[1]...), strings.ReplaceAll(mac, ":", "")...)
	})
	b = replaceBounded(b, ipv4Re, ".-", r.ipv4Of)
	if len(r.hosts) > 0 {
		b = wordRe.ReplaceAllFunc(b, func(w []byte) []byte {
			if p, ok := r.hosts[strings.ToLower(string(w))]; ok {
				return []byte(p)
			}
			return w
		})
	}
	return b
}

// String is Bytes for strings.
func (r *Redactor) String(s string) string { return string(r.Bytes([]byte(s))) }

// replaceBounded replaces the matches of re that stand alone (see boundary) with f(match).
func replaceBounded(b []byte, re *regexp.Regexp, extra string, f func(string) string) []byte {
	locs := re.FindAllIndex(b, -1)
	if locs == nil {
		return b
	}
	var out bytes.Buffer
	last := 0
	for _, l := range locs {
		i, j := l[0], l[1]
		if !boundary(b, i, j, extra) {
			continue
		}
		out.Write(b[last:i])
		out.WriteString(f(string(b[i:j])))
		last = j
	}
	out.Write(b[last:])
	return out.Bytes()
}

// colonToken classifies a run of hex digits and colons: IPoIB hardware address, MAC, GID in
// full form, GUID in sysfs form, or a compressed IPv6 address. Anything else is kept.
func (r *Redactor) colonToken(s string) string {
	t := strings.Trim(s, ":")
	if strings.Contains(s, "::") {
		t = s
	}
	lead, trail := s[:strings.Index(s, t)], s[strings.Index(s, t)+len(t):]
	groups := strings.Split(t, ":")
	all := func(re *regexp.Regexp) bool {
		for _, g := range groups {
			if !re.MatchString(g) {
				return false
			}
		}
		return true
	}
	var out string
	switch {
	case len(groups) == 20 && all(hexPair): // IPoIB: flags and QPN, then the port GID
		hw := mustHex(strings.Join(groups, ""))
		copy(hw[4:], r.ip6Bytes(hw[4:], false)) // a broadcast address holds a multicast GID: kept
		out = colonHex(hw, 1)
	case len(groups) == 6 && all(hexPair):
		out = r.macOf(t)
	case len(groups) == 8 && all(hexQuad):
		out = colonHex(r.ip6Bytes(mustHex(strings.Join(groups, "")), false), 2) // a GID
	case len(groups) == 4 && all(hexQuad) && !isSubnetPrefix(groups[0]):
		out = colonHex(r.guidBytes(mustHex(strings.Join(groups, ""))), 2)
	case strings.Count(t, ":") >= 2 && net.ParseIP(t) != nil && net.ParseIP(t).To4() == nil:
		out = net.IP(r.ip6Bytes(net.ParseIP(t), true)).String()
	default:
		return s
	}
	return lead + out + trail
}

func isSubnetPrefix(g string) bool {
	g = strings.ToLower(g)
	return strings.HasPrefix(g, "fe8") || strings.HasPrefix(g, "fec") || g == "0000"
}

// ip6Bytes redacts a 16-byte IPv6 address or GID: link-local keeps fe80::/64 and maps the
// interface id like a GUID; an IPv4-mapped GID maps its IPv4 part; others become 2001:db8::N.
// A GID's interface id is the port GUID itself; an IPv6 address's (eui) is the modified EUI-64
// of it, with the universal/local bit flipped, so the flip is undone around the mapping and
// fe80::202:c903:4e:47cf gets the same placeholder as GUID 0x0002c903004e47cf.
func (r *Redactor) ip6Bytes(a []byte, eui bool) []byte {
	out := append([]byte{}, a...)
	switch {
	case allZero(a) || net.IP(a).Equal(net.IPv6loopback) || a[0] == 0xff:
	case a[0] == 0xfe && a[1]&0xc0 == 0x80:
		id := append([]byte{}, a[8:]...)
		if eui {
			id[0] ^= 0x02
		}
		id = r.guidBytes(id)
		if eui {
			id[0] ^= 0x02
		}
		copy(out[8:], id)
	case allZero(a[:10]) && a[10] == 0xff && a[11] == 0xff:
		copy(out[12:], net.ParseIP(r.ipv4Of(net.IP(a[12:]).String())).To4())
	default:
		k := net.IP(a).String()
		p, ok := r.ipv6[k]
		if !ok {
			p = net.ParseIP(fmt.Sprintf("2001:db8::%x", len(r.ipv6)+1)).String()
			r.ipv6[k] = p
		}
		copy(out, net.ParseIP(p).To16())
	}
	return out
}

func (r *Redactor) guidOf(v uint64) uint64 {
	if v == 0 || v == ^uint64(0) {
		return v
	}
	p, ok := r.guid[v]
	if !ok {
		p = uint64(len(r.guid) + 1)
		r.guid[v] = p
	}
	return p
}

func (r *Redactor) guidBytes(b []byte) []byte {
	out := make([]byte, 8)
	binary.BigEndian.PutUint64(out, r.guidOf(binary.BigEndian.Uint64(b)))
	return out
}

func (r *Redactor) macOf(s string) string {
	k := strings.ToLower(s)
	if k == "00:00:00:00:00:00" || k == "ff:ff:ff:ff:ff:ff" {
		return s
	}
	p, ok := r.mac[k]
	if !ok {
		n := len(r.mac) + 1
		p = fmt.Sprintf("02:00:00:%02x:%02x:%02x", n>>16&0xff, n>>8&0xff, n&0xff)
		r.mac[k] = p
	}
	return p
}

// ipv4Docs are the documentation ranges placeholders are taken from (RFC 5737).
var ipv4Docs = []string{"192.0.2.", "198.51.100.", "203.0.113."}

func (r *Redactor) ipv4Of(s string) string {
	ip := net.ParseIP(s).To4()
	if ip == nil || ip[0] == 0 || ip[0] == 127 || ip[0] == 255 || ip[0] >= 224 {
		return s
	}
	p, ok := r.ipv4[s]
	if !ok {
		n := len(r.ipv4)
		if n < 3*254 {
			p = fmt.Sprintf("%s%d", ipv4Docs[n/254], n%254+1)
		} else {
			p = fmt.Sprintf("10.255.%d.%d", n/254%256, n%254+1)
		}
		r.ipv4[s] = p
	}
	return p
}

func (r *Redactor) place(m map[string]string, k, format string) string {
	p, ok := m[k]
	if !ok {
		p = fmt.Sprintf(format, len(m)+1)
		m[k] = p
	}
	return p
}

func mustHex(s string) []byte {
	out := make([]byte, len(s)/2)
	for i := range out {
		v, _ := strconv.ParseUint(s[2*i:2*i+2], 16, 8)
		out[i] = byte(v)
	}
	return out
}

// colonHex prints b as hex groups of size bytes joined by colons.
func colonHex(b []byte, size int) string {
	var parts []string
	for i := 0; i < len(b); i += size {
		parts = append(parts, fmt.Sprintf("%0*x", 2*size, b[i:i+size]))
	}
	return strings.Join(parts, ":")
}

func allZero(b []byte) bool {
	for _, c := range b {
		if c != 0 {
			return false
		}
	}
	return true
}

// hostNames finds this node's names in a gathered tree: the hostname output and the first word
// of the RDMA node descriptions (which default to "<host> <device>"), plus quoted fabric node
// descriptions of other hosts ("node02 HCA-1").
func hostNames(tree fstest.MapFS) []string {
	var names []string
	for p, f := range tree {
		switch {
		case path.Base(p) == "hostname" || strings.HasSuffix(p, "/node_desc"):
			if w := strings.Fields(string(f.Data)); len(w) > 0 {
				names = append(names, w[0])
			}
		case strings.Contains(p, "sos_commands/infiniband/"):
			for _, m := range nodeDesc.FindAllSubmatch(f.Data, -1) {
				names = append(names, string(m[1]))
			}
		}
	}
	sort.Strings(names)
	return names
}

// Name returns s with every host name the redactor knows replaced where it stands as a part of
// s, between characters that are not letters or digits: the file name node01.tar.gz, the
// folder node01-snap or /tmp/node01/out in a command line, which Bytes leaves alone (it replaces
// whole words only, and node01.tar.gz is one).
func (r *Redactor) Name(s string) string {
	names := make([]string, 0, len(r.hosts))
	for h := range r.hosts {
		names = append(names, h)
	}
	// Longest first, so node01.example.com goes before node01.
	sort.Slice(names, func(i, j int) bool {
		if len(names[i]) != len(names[j]) {
			return len(names[i]) > len(names[j])
		}
		return names[i] < names[j]
	})
	for _, h := range names {
		var b strings.Builder
		rest := s
		for {
			i := strings.Index(strings.ToLower(rest), h)
			if i < 0 {
				b.WriteString(rest)
				break
			}
			end := i + len(h)
			if alnumAt(rest, i-1) || alnumAt(rest, end) {
				b.WriteString(rest[:end])
			} else {
				b.WriteString(rest[:i] + r.hosts[h])
			}
			rest = rest[end:]
		}
		s = b.String()
	}
	return s
}

// alnumAt reports whether s[i] is an ASCII letter or digit (false outside s).
func alnumAt(s string, i int) bool {
	if i < 0 || i >= len(s) {
		return false
	}
	c := s[i]
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// Redact rewrites every file of res (paths and contents, rdmadoctor.yaml included) with one
// redactor, in sorted path order so placeholders are the same on every run, and the recorded
// command line with Name (-o node01.tar.gz names the host too). It returns the redactor, for
// the names the snapshot is written under (the archive's top folder).
func Redact(res *Result, extraHosts ...string) *Redactor {
	r := NewRedactor(append(hostNames(res.FS), extraHosts...)...)
	res.Meta.Redacted = true
	for i, a := range res.Meta.Argv {
		res.Meta.Argv[i] = r.Name(a)
	}
	res.FS[MetaFile] = &fstest.MapFile{Data: res.Meta.marshal(), Mode: 0o644, ModTime: res.Meta.Time}
	paths := make([]string, 0, len(res.FS))
	for p := range res.FS {
		if p != MetaFile {
			paths = append(paths, p)
		}
	}
	sort.Strings(paths)
	out := fstest.MapFS{}
	for _, p := range append(paths, MetaFile) {
		f := *res.FS[p]
		f.Data = r.Bytes(f.Data)
		out[r.String(p)] = &f
	}
	res.FS = out
	if m, err := ParseMeta(out[MetaFile].Data); err == nil {
		res.Meta = m
	}
	return r
}
