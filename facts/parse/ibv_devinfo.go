package parse

import (
	"strconv"
	"strings"

	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/internal/lazyregexp"
)

// IBVDevInfoOutput is what `ibv_devinfo [-v]` printed.
type IBVDevInfoOutput struct {
	Devices []facts.Device
	// Refusal is set when the tool found nothing to report ("No IB devices found").
	Refusal *facts.ToolRefusal
	// Messages are libibverbs warnings and per-device errors printed alongside
	// ("libibverbs: Warning: no userspace device-specific driver found for ...",
	// "Failed to open device").
	Messages []facts.ToolRefusal
}

var (
	ibvGIDRe      = lazyregexp.New(`^GID\[\s*(\d+)\]:\s*(.*)$`)
	ibvGIDOnlyRe  = lazyregexp.New(`^[0-9a-fA-F]{4}(:[0-9a-fA-F]{4}){7}\s*(,.*)?$`)
	ibvVendorIDRe = lazyregexp.New(`^0[xX][0-9a-fA-F]{1,8}$`)
)

// IBVDevInfo parses the output of `ibv_devinfo` and `ibv_devinfo -v` (rdma-core
// libibverbs/examples/devinfo.c):
//
//	hca_id:	mlx5_0
//		transport:			InfiniBand (0)
//		fw_ver:				20.41.1000
//		node_guid:			a088:c203:0096:05fc
//		vendor_id:			0x02c9
//		vendor_part_id:			4123
//		board_id:			MT_0000000222
//		phys_port_cnt:			1
//			port:	1
//				state:			PORT_ACTIVE (4)
//				max_mtu:		4096 (5)
//				active_mtu:		4096 (5)
//				sm_lid:			35
//				port_lid:		35
//				link_layer:		InfiniBand
//				active_width:		4X (2)        (-v)
//				active_speed:		25.0 Gbps (32) (-v)
//				phys_state:		LINK_UP (5)   (-v)
//				GID[  0]:		fe80:0000:0000:0000:a288:c2ff:fe96:5fc, RoCE v2 (-v)
//
// Keys, not indentation, say what a line is: after "port:" the keys belong to that port until
// the next "port:" or "hca_id:". Grep-filtered captures that dropped the "port:" lines give
// port keys to port 1 (the first port ibv_devinfo prints). A GID wrapped onto the next line
// is joined back. Lines before the first hca_id are ignored.
func IBVDevInfo(b []byte) (IBVDevInfoOutput, error) {
	var out IBVDevInfoOutput
	var dev *facts.Device
	port := -1 // index into dev.Ports
	var probs problems
	var head Line             // the "port:" line of the open port block, N 0 when it had none
	seen := map[string]bool{} // the keys of the open port block
	incomplete := false
	closePort := func() {
		if head.N != 0 && !seen["state"] {
			probs.add(head, "port block has no state line")
			incomplete = true
		}
		head = Line{}
	}
	flush := func() {
		closePort()
		if dev != nil {
			if dev.NumPorts != nil && len(dev.Ports) < *dev.NumPorts {
				ev := dev.Evidence["num_ports"]
				probs.add(Line{N: ev.Line, Text: ev.Text}, "%d port(s) announced, %d port block(s) read", *dev.NumPorts, len(dev.Ports))
				incomplete = true
			}
			out.Devices = append(out.Devices, *dev)
		}
		dev, port = nil, -1
	}
	lines := Lines(b)
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		t := strings.TrimSpace(l.Text)
		if t == "" {
			continue
		}
		if strings.HasPrefix(t, "libibverbs:") || strings.HasPrefix(t, "Failed to open device") {
			out.Messages = append(out.Messages, facts.ToolRefusal{Tool: "ibv_devinfo", Message: t, Evidence: l.Evidence()})
			if strings.HasPrefix(t, "Failed to open device") {
				// one device's ports and state are unknown: not a checked device
				probs.add(l, "an RDMA device ibv_devinfo could not open: its ports and states are unknown")
			}
			continue
		}
		if r := ibRefusal(l); r != nil {
			if out.Refusal == nil {
				r.Tool = "ibv_devinfo"
				out.Refusal = r
			}
			continue
		}
		if m := ibvGIDRe.FindStringSubmatch(t); m != nil && dev != nil {
			val := strings.TrimSpace(m[2])
			if val == "" && i+1 < len(lines) && ibvGIDOnlyRe.MatchString(strings.TrimSpace(lines[i+1].Text)) {
				i++
				val = strings.TrimSpace(lines[i].Text)
			}
			idx, err := strconv.Atoi(m[1])
			if err != nil {
				probs.add(l, "GID index: %v", err)
				continue
			}
			p := ibvPort(dev, &port, l)
			addIBVGID(p, idx, val, l)
			continue
		}
		key, val, ok := keyValue(t)
		if !ok {
			continue
		}
		if key == "hca_id" {
			flush()
			incomplete = false
			dev = &facts.Device{Name: val}
			dev.Evidence.Set("name", l.Evidence())
			continue
		}
		if dev == nil {
			continue
		}
		if key == "port" {
			closePort()
			incomplete = false
			n, err := strconv.Atoi(val)
			if err != nil {
				probs.add(l, "port number: %v", err)
				port = -1
				continue
			}
			dev.Ports = append(dev.Ports, facts.Port{Number: n})
			port = len(dev.Ports) - 1
			dev.Ports[port].Evidence.Set("number", l.Evidence())
			head = l
			clear(seen)
			continue
		}
		// A malformed value loses that field only: the rest still counts, and each bad line
		// is named.
		if handled, err := ibvDeviceKey(dev, key, val, l); handled || err != nil {
			probs.addErr(err)
			continue
		}
		seen[key] = true
		probs.addErr(ibvPortKey(dev, &port, key, val, l))
	}
	flush()
	probs.replaced(lines)
	// A port block ends with its link_layer line, or with -v its GIDs: a file without a final
	// newline that ends anywhere else was cut mid-block (a value there may be a prefix).
	probs.cutUnless(b, lines, func(l Line) bool {
		t := strings.TrimSpace(l.Text)
		if m := ibvGIDRe.FindStringSubmatch(t); m != nil {
			return !incomplete && ibvGIDOnlyRe.MatchString(strings.TrimSpace(m[2]))
		}
		key, val, ok := keyValue(t)
		return !incomplete && ok && key == "link_layer" && knownLinkLayer(val)
	})
	for i := range out.Devices {
		for j := range out.Devices[i].Ports {
			ibvRate(&out.Devices[i].Ports[j])
		}
	}
	return out, probs.err()
}

// ibvPort returns the current port, opening port 1 when a filtered capture lost the "port:" line.
func ibvPort(dev *facts.Device, port *int, l Line) *facts.Port {
	if *port < 0 {
		dev.Ports = append(dev.Ports, facts.Port{Number: len(dev.Ports) + 1})
		*port = len(dev.Ports) - 1
	}
	return &dev.Ports[*port]
}

func ibvDeviceKey(d *facts.Device, key, val string, l Line) (bool, error) {
	ev := l.Evidence()
	switch key {
	case "fw_ver":
		if !firmwareVersion(val) {
			return true, l.Errorf("fw_ver: not a version")
		}
		d.Firmware = val
		d.Evidence.Set("firmware", ev)
	case "node_guid", "sys_image_guid":
		// Some drivers print "-" for an unset GUID; that is absent, not an error.
		if g, ok := GUID(val); ok {
			if key == "node_guid" {
				d.NodeGUID = g
				d.Evidence.Set("node_guid", ev)
			} else {
				d.SystemImageGUID = g
				d.Evidence.Set("sys_image_guid", ev)
			}
		}
	case "vendor_id":
		if !ibvVendorIDRe.MatchString(val) {
			return true, l.Errorf("vendor_id: not 0x and hex digits")
		}
		d.VendorID = strings.ToLower(val)
		d.Evidence.Set("vendor_id", ev)
	case "vendor_part_id":
		n, err := strconv.Atoi(val)
		if err != nil {
			return true, l.Errorf("vendor_part_id: %v", err)
		}
		// ibstat's "CA type: MT4123" is "MT" and the decimal PCI device id, a name of Mellanox
		// adapters only: an irdma's vendor_part_id 5522 (vendor_id 0x8086) is no MT5522.
		if d.VendorID == "" || d.VendorID == facts.MellanoxVerbsVendorID {
			d.CAType = "MT" + strconv.Itoa(n)
			d.Evidence.Set("ca_type", ev)
		}
	case "hw_ver":
		d.HardwareVersion = val
		d.Evidence.Set("hw_version", ev)
	case "board_id":
		d.BoardID = val
		d.Evidence.Set("board_id", ev)
	case "phys_port_cnt":
		n, err := strconv.Atoi(val)
		if err != nil {
			return true, l.Errorf("phys_port_cnt: %v", err)
		}
		d.NumPorts = intPtr(n)
		d.Evidence.Set("num_ports", ev)
	default:
		return false, nil
	}
	return true, nil
}

func ibvPortKey(dev *facts.Device, port *int, key, val string, l Line) error {
	ev := l.Evidence()
	switch key {
	case "state", "phys_state", "max_mtu", "active_mtu", "sm_lid", "port_lid", "port_lmc",
		"link_layer", "port_cap_flags", "active_width", "active_speed":
	default:
		return nil
	}
	// A filtered capture without "port:" lines: a key seen again starts the next port.
	if *port >= 0 && dev.Ports[*port].Evidence["number"].Line == 0 {
		if _, seen := dev.Ports[*port].Evidence[ibvPortField[key]]; seen {
			*port = -1
		}
	}
	p := ibvPort(dev, port, l)
	switch key {
	case "state":
		s, ok := PortState(val)
		if !ok {
			return l.Errorf("state: not a port state")
		}
		p.State = s
		p.Evidence.Set("state", ev)
	case "phys_state":
		s, ok := PhysicalState(val)
		if !ok {
			return l.Errorf("phys_state: not a physical port state")
		}
		p.PhysicalState = s
		p.Evidence.Set("physical_state", ev)
	case "max_mtu", "active_mtu":
		n, ok := MTUBytes(val)
		if !ok {
			return l.Errorf("%s: not an MTU", key)
		}
		if key == "max_mtu" {
			p.MaxMTU = intPtr(n)
		} else {
			p.ActiveMTU = intPtr(n)
		}
		p.Evidence.Set(ibvPortField[key], ev)
	case "sm_lid", "port_lid", "port_lmc":
		n, ok := hexOrDecimal(val)
		if !ok {
			return l.Errorf("%s: not a number", key)
		}
		switch key {
		case "sm_lid":
			p.SMLID = intPtr(n)
		case "port_lid":
			p.LID = intPtr(n)
		default:
			p.LMC = intPtr(n)
		}
		p.Evidence.Set(ibvPortField[key], ev)
	case "link_layer":
		if !knownLinkLayer(val) {
			return l.Errorf("link_layer: not InfiniBand or Ethernet")
		}
		p.LinkLayer = val
		p.Evidence.Set("link_layer", ev)
	case "port_cap_flags":
		setCapMask(p, val, ev)
	case "active_width":
		if w, ok := ActiveWidth(val); ok {
			p.WidthLanes = intPtr(w)
			p.Evidence.Set("width_lanes", ev)
		}
	case "active_speed":
		if lane, _, ok := ActiveSpeed(val); ok {
			p.LaneSpeed = lane
			p.Evidence.Set("lane_speed", ev)
		}
	}
	return nil
}

// ibvPortField maps ibv_devinfo port keys to the Port JSON field they fill.
var ibvPortField = map[string]string{
	"state": "state", "phys_state": "physical_state", "max_mtu": "max_mtu", "active_mtu": "active_mtu",
	"sm_lid": "sm_lid", "port_lid": "lid", "port_lmc": "lmc", "link_layer": "link_layer",
	"port_cap_flags": "capability_mask", "active_width": "width_lanes", "active_speed": "lane_speed",
}

// ibvRate derives the port rate from active_width × active_speed, as ibstat computes it.
func ibvRate(p *facts.Port) {
	if p.WidthLanes == nil || p.LaneSpeed == "" {
		return
	}
	g := float64(*p.WidthLanes) * laneGbps[p.LaneSpeed]
	p.RateGbps = &g
	p.Evidence.Set("rate_gbps", p.Evidence["lane_speed"])
}

// addIBVGID adds "fe80:...:05fc" or "fe80:...:05fc, RoCE v2" as a GID of p.
func addIBVGID(p *facts.Port, idx int, val string, l Line) {
	gid, typ, _ := strings.Cut(val, ",")
	gid = strings.TrimSpace(gid)
	if gid == "" {
		return
	}
	g := facts.GID{Index: idx, GID: gid, Type: strings.TrimSpace(typ), IPv4: gidIPv4(gid), Evidence: l.Evidence()}
	p.GIDs = append(p.GIDs, g)
	if idx == 0 && p.SubnetPrefix == "" {
		p.SubnetPrefix = subnetPrefix(gid)
		p.Evidence.Set("subnet_prefix", l.Evidence())
	}
}
