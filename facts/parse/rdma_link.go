package parse

import (
	"slices"
	"strconv"
	"strings"

	"github.com/rdmadoctor/rdmadoctor/facts"
)

// RDMALink parses the output of `rdma link` / `rdma link show` (iproute2 rdma/link.c), in the
// older and the newer (index-prefixed) form:
//
//	link mlx5_1/1 subnet_prefix fe80:0000:0000:0000 lid 65535 sm_lid 0 lmc 0 state DOWN physical_state DISABLED
//	link mlx5_4/1 state ACTIVE physical_state LINK_UP netdev enp97s0f0
//	5/1: mlx5_5/1: subnet_prefix fe80:0000:0000:0000 lid 12 sm_lid 4 lmc 0 state ACTIVE physical_state LINK_UP
//
// Ports of one device are merged into one Device; Port.Netdev is set from "netdev". Unknown
// attributes are skipped.
func RDMALink(b []byte) ([]facts.Device, error) {
	var devs []facts.Device
	var probs problems
	lines := Lines(b)
	for _, l := range lines {
		f := strings.Fields(l.Text)
		var target string
		switch {
		case len(f) >= 2 && f[0] == "link":
			target, f = f[1], f[2:]
		case len(f) >= 2 && strings.HasSuffix(f[0], ":") && strings.HasSuffix(f[1], ":"):
			target, f = strings.TrimSuffix(f[1], ":"), f[2:]
		default:
			continue
		}
		name, num, ok := strings.Cut(target, "/")
		if !ok {
			continue
		}
		n, err := strconv.Atoi(num)
		if err != nil {
			return nil, l.Errorf("port number: %v", err)
		}
		d := deviceNamed(&devs, name, l)
		p := facts.Port{Number: n}
		ev := l.Evidence()
		p.Evidence.Set("number", ev)
		for i := 0; i+1 < len(f); i += 2 {
			k, v := f[i], f[i+1]
			switch k {
			case "subnet_prefix":
				p.SubnetPrefix = v
				p.Evidence.Set("subnet_prefix", ev)
			case "lid", "sm_lid", "lmc":
				x, err := strconv.Atoi(v)
				if err != nil {
					return nil, l.Errorf("%s: %v", k, err)
				}
				switch k {
				case "lid":
					p.LID = intPtr(x)
					p.Evidence.Set("lid", ev)
				case "sm_lid":
					p.SMLID = intPtr(x)
					p.Evidence.Set("sm_lid", ev)
				default:
					p.LMC = intPtr(x)
					p.Evidence.Set("lmc", ev)
				}
			case "state":
				if s, ok := PortState(v); ok {
					p.State = s
					p.Evidence.Set("state", ev)
				} else if !slices.Contains(rdmaLinkStates, v) {
					probs.add(l, "state %q: not a port state", v)
				}
			case "physical_state":
				if s, ok := PhysicalState(v); ok {
					p.PhysicalState = s
					p.Evidence.Set("physical_state", ev)
				} else if !slices.Contains(rdmaLinkPhysStates, v) {
					probs.add(l, "physical_state %q: not a physical port state", v)
				}
			case "netdev":
				p.Netdev = v
				p.Evidence.Set("netdev", ev)
			}
		}
		d.Ports = append(d.Ports, p)
	}
	probs.replaced(lines)
	probs.cut(b, lines, true) // every rdma link line is complete only with its newline
	return devs, probs.err()
}

// rdmaLinkStates and rdmaLinkPhysStates are all the words iproute2 rdma/link.c prints
// (link_state_to_str, phys_state_to_str), including those PortState and PhysicalState do not
// read ("NOP", "ARMED" for port configuration training, "LINK_ERROR_RECOVER", "UNKNOWN"): any
// other value was damaged.
var (
	rdmaLinkStates     = []string{"NOP", "DOWN", "INIT", "ARMED", "ACTIVE", "ACTIVE_DEFER", "UNKNOWN"}
	rdmaLinkPhysStates = []string{"NOP", "SLEEP", "POLLING", "DISABLED", "ARMED", "LINK_UP",
		"LINK_ERROR_RECOVER", "PHY_TEST", "UNKNOWN", "OPA_OFFLINE", "OPA_TEST"}
)
