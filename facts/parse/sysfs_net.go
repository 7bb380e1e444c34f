package parse

import (
	"fmt"
	"path"
	"sort"
	"strconv"
	"strings"

	"github.com/rdmadoctor/rdmadoctor/facts"
)

// SysfsNet builds one interface from the files of /sys/class/net/<name>/ (kernel ABI:
// Documentation/ABI/testing/sysfs-class-net, sysfs-class-net-qmi; IPoIB `mode`:
// Documentation/infiniband/ipoib.rst; ECN: mlx5 en_sysfs.c). attrs maps paths relative to the
// interface directory to their content: mtu, operstate, carrier, type (32 = InfiniBand),
// flags (hex IFF_*), mode, address, device/numa_node, device/local_cpulist,
// ecn/roce_np/enable/<prio>, ecn/roce_rp/enable/<prio>. Absent files leave their facts null;
// a file with an unexpected value is an error naming it. Evidence.Path holds the
// relative file name for the caller to complete.
func SysfsNet(name string, attrs map[string][]byte) (facts.Netdev, error) {
	n := facts.Netdev{Name: name}
	keys := make([]string, 0, len(attrs))
	for k := range attrs {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		v := strings.TrimSpace(string(attrs[k]))
		ev := facts.Evidence{Path: k, Text: v} // the caller prefixes the interface directory
		bad := func() error { return fmt.Errorf("%s: %q is not a valid value", k, v) }
		switch k {
		case "mtu":
			if n.MTU = atoiPtr(v); n.MTU == nil {
				return n, bad()
			}
			n.Evidence.Set("mtu", ev)
		case "operstate":
			n.OperState = strings.ToUpper(v)
			n.Evidence.Set("operstate", ev)
		case "carrier":
			c, ok := onOff(v)
			if !ok {
				return n, bad()
			}
			n.Carrier = boolPtr(c)
			n.Evidence.Set("carrier", ev)
		case "flags":
			f, err := strconv.ParseUint(strings.TrimPrefix(v, "0x"), 16, 32)
			if err != nil {
				return n, bad()
			}
			n.AdminUp = boolPtr(f&0x1 != 0) // IFF_UP
			n.Evidence.Set("admin_up", ev)
		case "type":
			t := atoiPtr(v)
			if t == nil {
				return n, bad()
			}
			switch *t {
			case 32: // ARPHRD_INFINIBAND
				n.Kind = facts.NetdevIPoIB
			case 1: // ARPHRD_ETHER
				n.Kind = facts.NetdevEthernet
			default:
				n.Kind = facts.NetdevOther
			}
			n.Evidence.Set("kind", ev)
		case "mode":
			n.IPoIBMode = v
			n.Evidence.Set("ipoib_mode", ev)
		case "address":
			n.LinkAddress = v
			n.Evidence.Set("link_address", ev)
		case "device/numa_node":
			if n.NUMANode = atoiPtr(v); n.NUMANode == nil {
				return n, bad()
			}
			n.Evidence.Set("numa_node", ev)
		case "device/local_cpulist":
			cpus, err := CPUList(v)
			if err != nil {
				return n, fmt.Errorf("%s: %w", k, err)
			}
			n.LocalCPUList, n.LocalCPUs = v, cpus
			n.Evidence.Set("local_cpulist", ev)
		default:
			if err := sysfsECN(&n, k, v, ev); err != nil {
				return n, err
			}
		}
	}
	return n, nil
}

// sysfsECN reads ecn/roce_np/enable/<prio> and ecn/roce_rp/enable/<prio> ("0" or "1").
func sysfsECN(n *facts.Netdev, k, v string, ev facts.Evidence) error {
	dir, prio := path.Split(k)
	var point string
	switch dir {
	case "ecn/roce_np/enable/":
		point = "np"
	case "ecn/roce_rp/enable/":
		point = "rp"
	default:
		return nil
	}
	if p, err := strconv.Atoi(prio); err != nil || p < 0 || p > 7 {
		return nil
	}
	on, ok := onOff(v)
	if !ok {
		return fmt.Errorf("%s: %q is not 0 or 1", k, v)
	}
	if n.ECN == nil {
		n.ECN = &facts.ECNState{}
	}
	m := &n.ECN.NPEnabled
	if point == "rp" {
		m = &n.ECN.RPEnabled
	}
	if *m == nil {
		*m = map[string]bool{}
	}
	(*m)[prio] = on
	n.Evidence.Set("ecn."+point+"_enabled."+prio, ev)
	return nil
}
