package parse

import (
	"fmt"
	"math/bits"
	"net/netip"
	"strings"

	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/internal/lazyregexp"
)

// Ifconfig parses net-tools `ifconfig` (2.10 layout, lib/interface.c ife_print_long):
//
//	ens5: flags=4098<BROADCAST,MULTICAST>  mtu 1500
//	        inet 10.30.0.2  netmask 255.255.255.0  broadcast 10.30.0.255
//	        inet6 fe80::202:c9ff:fe3e:cab1  prefixlen 64  scopeid 0x20<link>
//	        ether 00:02:c9:3e:ca:b1  txqueuelen 10000  (Ethernet)
//	        infiniband 80:00:02:08:FE:80:...  txqueuelen 256  (InfiniBand)
//
// AdminUp follows the UP flag; Carrier is RUNNING on an UP interface. IPv4 addresses are
// returned in CIDR form. See https://man7.org/linux/man-pages/man8/ifconfig.8.html.
func Ifconfig(b []byte) ([]facts.Netdev, error) {
	var out []facts.Netdev
	var cur *facts.Netdev
	for _, l := range Lines(b) {
		ev := l.Evidence()
		if m := ifconfigHeaderRe.FindStringSubmatch(l.Text); m != nil {
			out = append(out, facts.Netdev{Name: m[1]})
			cur = &out[len(out)-1]
			cur.Evidence.Set("name", ev)
			cur.Flags = nil
			if m[2] != "" {
				cur.Flags = strings.Split(m[2], ",")
			}
			up := hasFlag(cur.Flags, "UP")
			cur.AdminUp = boolPtr(up)
			cur.Evidence.Set("flags", ev)
			cur.Evidence.Set("admin_up", ev)
			if up {
				cur.Carrier = boolPtr(hasFlag(cur.Flags, "RUNNING"))
				cur.Evidence.Set("carrier", ev)
			}
			cur.MTU = atoiPtr(m[3])
			cur.Evidence.Set("mtu", ev)
			continue
		}
		f := strings.Fields(l.Text)
		if cur == nil || len(f) < 2 {
			continue
		}
		switch f[0] {
		case "inet":
			addr := f[1]
			if i := indexOf(f, "netmask"); i > 0 && i+1 < len(f) {
				if p, err := maskPrefix(f[i+1]); err == nil {
					addr = fmt.Sprintf("%s/%d", f[1], p)
				}
			}
			cur.IPv4 = append(cur.IPv4, addr)
			cur.Evidence.Set("ipv4", ev)
		case "inet6":
			a := facts.IPv6Address{Address: f[1]}
			if i := indexOf(f, "prefixlen"); i > 0 && i+1 < len(f) {
				a.Address += "/" + f[i+1]
			}
			if m := scopeidRe.FindStringSubmatch(l.Text); m != nil {
				a.Scope = m[1]
			}
			cur.IPv6 = append(cur.IPv6, a)
			cur.Evidence.Set("ipv6", ev)
		case "ether", "infiniband", "unspec":
			cur.LinkAddress = f[1]
			cur.Evidence.Set("link_address", ev)
			cur.Kind = facts.NetdevEthernet
			if f[0] != "ether" || strings.Contains(l.Text, "(InfiniBand)") {
				cur.Kind = facts.NetdevIPoIB
			}
			cur.Evidence.Set("kind", ev)
		case "loop":
			cur.Kind = facts.NetdevOther
			cur.Evidence.Set("kind", ev)
		}
	}
	return out, nil
}

var (
	ifconfigHeaderRe = lazyregexp.New(`^(\S+?):\s+flags=\d+<([^>]*)>\s+mtu\s+(\d+)`)
	scopeidRe        = lazyregexp.New(`scopeid 0x[0-9a-f]+<(\w+)>`)
)

func indexOf(f []string, s string) int {
	for i, v := range f {
		if v == s {
			return i
		}
	}
	return -1
}

// maskPrefix turns a dotted netmask into a prefix length.
func maskPrefix(mask string) (int, error) {
	a, err := netip.ParseAddr(mask)
	if err != nil || !a.Is4() {
		return 0, fmt.Errorf("netmask %q", mask)
	}
	b := a.As4()
	v := uint32(b[0])<<24 | uint32(b[1])<<16 | uint32(b[2])<<8 | uint32(b[3])
	n := bits.LeadingZeros32(^v)
	if v<<n != 0 {
		return 0, fmt.Errorf("netmask %q is not contiguous", mask)
	}
	return n, nil
}
