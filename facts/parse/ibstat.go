package parse

import (
	"strconv"
	"strings"

	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/internal/lazyregexp"
)

// IBStatOutput is what `ibstat` printed: the devices, and the tool's own error if it gave up.
type IBStatOutput struct {
	Devices []facts.Device
	// Refusal is ibstat's own error, e.g. "ibpanic: ... stat of IB device 'mlx5_8' failed"; the
	// devices printed before it are kept (ibstat aborts mid-output when a device vanishes).
	Refusal *facts.ToolRefusal
	// Omitted counts the CA blocks after the first MaxDevices, which are not read.
	Omitted int
}

// MaxDevices is how many devices one capture is read for: a node has a few RDMA devices, or
// with SR-IOV some hundreds (8 PFs x 127 VFs); a file with more is not a node's, and the rules,
// some of which compare devices pairwise, would take minutes over it.
const MaxDevices = 1024

var (
	ibstatCARe   = lazyregexp.New(`^CA '(.+)'\s*$`)
	ibstatPortRe = lazyregexp.New(`^Port (\d+):\s*$`)
)

// IBStat parses the output of `ibstat` (or `ibstat <ca>`), rdma-core infiniband-diags ibstat.c:
//
//	CA 'mlx5_0'
//		CA type: MT4123
//		Number of ports: 1
//		Firmware version: 20.33.1048
//		...
//		Port 1:
//			State: Active
//			Physical state: LinkUp
//			Rate: 200
//			Base lid: 569
//			...
//			Capability mask: 0xa651e848
//			Link layer: InfiniBand
//
// Indentation is not relied on: "CA '...'" and "Port N:" open blocks, keys are known by name.
// ibwarn lines and unknown keys are ignored. See
// https://github.com/linux-rdma/rdma-core/blob/master/infiniband-diags/ibstat.c
func IBStat(b []byte) (IBStatOutput, error) {
	var out IBStatOutput
	var dev *facts.Device
	var port *facts.Port
	var devLine, portLine Line // the headers of the open blocks
	var probs problems
	incomplete := false          // the last block closed lacked lines every ibstat prints
	seen := map[string]bool{}    // the keys of the open port block
	devSeen := map[string]bool{} // the keys of the open CA block, before its ports
	closePort := func() {
		if port != nil {
			if miss := missingKeys(seen, ibstatPortKeys); miss != "" {
				probs.add(portLine, "port block has no %s line", miss)
				incomplete = true
			}
		}
		port = nil
	}
	flush := func() {
		closePort()
		if dev != nil {
			if dev.NumPorts != nil && len(dev.Ports) != *dev.NumPorts {
				ev := dev.Evidence["num_ports"]
				probs.add(Line{N: ev.Line, Text: ev.Text}, "%d port(s) announced, %d port block(s) read", *dev.NumPorts, len(dev.Ports))
				incomplete = incomplete || len(dev.Ports) < *dev.NumPorts
			}
			if len(dev.Ports) == 0 && dev.NumPorts == nil {
				probs.add(devLine, "CA block has no Number of ports line and no port")
				incomplete = true
			} else if miss := missingKeys(devSeen, ibstatDeviceKeys); miss != "" {
				probs.add(devLine, "CA block has no %s line", miss)
			}
			out.Devices = append(out.Devices, *dev)
		}
		dev, port = nil, nil
	}
	lines := Lines(b)
	for _, l := range lines {
		t := strings.TrimSpace(l.Text)
		if r := ibRefusal(l); r != nil {
			if out.Refusal == nil {
				out.Refusal = r
			}
			continue
		}
		if m := ibstatCARe.FindStringSubmatch(t); m != nil {
			flush()
			incomplete = false
			if len(out.Devices) >= MaxDevices {
				out.Omitted++
				continue
			}
			dev = &facts.Device{Name: m[1]}
			dev.Evidence.Set("name", l.Evidence())
			devLine = l
			clear(devSeen)
			continue
		}
		if strings.HasPrefix(t, "CA ") && !strings.Contains(t, ":") {
			// A CA header that does not parse ("CA mlx5_1", a name cut by a newline): its
			// lines must not be read as more ports of the CA before it.
			flush()
			probs.add(l, "not a CA header (CA '<name>'): the lines up to the next CA are not read")
			continue
		}
		if dev == nil {
			continue
		}
		if m := ibstatPortRe.FindStringSubmatch(t); m != nil {
			closePort()
			incomplete = false
			n, err := strconv.Atoi(m[1])
			if err != nil {
				probs.add(l, "port number: %v", err)
				continue
			}
			for _, p := range dev.Ports {
				if p.Number == n {
					probs.add(l, "port %d listed twice in CA %s", n, dev.Name)
				}
			}
			dev.Ports = append(dev.Ports, facts.Port{Number: n})
			port = &dev.Ports[len(dev.Ports)-1]
			port.Evidence.Set("number", l.Evidence())
			portLine = l
			clear(seen)
			continue
		}
		if strings.HasPrefix(t, "Port ") && strings.HasSuffix(t, ":") {
			probs.add(l, "not a port header (Port <number>:)")
			continue
		}
		key, val, ok := keyValue(t)
		if !ok {
			continue
		}
		// A malformed value loses that field only: the rest of the output still counts, and
		// each bad line is named.
		if port != nil {
			if seen[key] {
				probs.add(l, "%s repeated in one port block: a port header is missing before it", key)
				continue
			}
			seen[key] = true
			probs.addErr(ibstatPortKey(port, key, val, l))
		} else {
			devSeen[key] = true
			probs.addErr(ibstatDeviceKey(dev, key, val, l))
		}
	}
	flush()
	probs.replaced(lines)
	// The last line ibstat prints for a port is its Link layer: a file without a final newline
	// that ends anywhere else was cut mid-block (the blocks after it are lost).
	probs.cutUnless(b, lines, func(l Line) bool {
		key, val, ok := keyValue(strings.TrimSpace(l.Text))
		return !incomplete && ok && key == "Link layer" && knownLinkLayer(val)
	})
	return out, probs.err()
}

// ibstatPortKeys are the lines ibstat prints for every port: a port
// block without one was cut or edited.
var ibstatPortKeys = []string{"State", "Physical state", "Rate"}

// ibstatDeviceKeys are the lines ibstat prints for every CA before its ports (ibstat.c ca_stat):
// a CA block without one lost it (its type tells a VF from a PF).
var ibstatDeviceKeys = []string{"CA type", "Number of ports", "Firmware version", "Hardware version", "Node GUID", "System image GUID"}

func ibstatDeviceKey(d *facts.Device, key, val string, l Line) error {
	ev := l.Evidence()
	switch key {
	case "CA type":
		d.CAType = val
		d.Evidence.Set("ca_type", ev)
	case "Number of ports":
		n, err := strconv.Atoi(val)
		if err != nil {
			return l.Errorf("number of ports: %v", err)
		}
		d.NumPorts = intPtr(n)
		d.Evidence.Set("num_ports", ev)
	case "Firmware version":
		if !firmwareVersion(val) {
			return l.Errorf("Firmware version: not a version")
		}
		d.Firmware = val
		d.Evidence.Set("firmware", ev)
	case "Hardware version":
		d.HardwareVersion = val
		d.Evidence.Set("hw_version", ev)
	case "Node GUID":
		g, ok := GUID(val)
		if !ok {
			return l.Errorf("Node GUID: not a GUID")
		}
		d.NodeGUID = g
		d.Evidence.Set("node_guid", ev)
	case "System image GUID":
		g, ok := GUID(val)
		if !ok {
			return l.Errorf("System image GUID: not a GUID")
		}
		d.SystemImageGUID = g
		d.Evidence.Set("sys_image_guid", ev)
	}
	return nil
}

func ibstatPortKey(p *facts.Port, key, val string, l Line) error {
	ev := l.Evidence()
	switch key {
	case "State":
		s, ok := PortState(val)
		if !ok {
			return l.Errorf("State: not a port state")
		}
		p.State = s
		p.Evidence.Set("state", ev)
	case "Physical state":
		s, ok := PhysicalState(val)
		if !ok {
			return l.Errorf("Physical state: not a physical port state")
		}
		p.PhysicalState = s
		p.Evidence.Set("physical_state", ev)
	case "Rate":
		r, err := IBStatRate(val)
		if err != nil {
			return l.Errorf("%v", err)
		}
		p.RateGbps = r.Gbps
		p.Evidence.Set("rate_gbps", ev)
		if r.LaneSpeed != "" {
			p.LaneSpeed = r.LaneSpeed
			p.Evidence.Set("lane_speed", ev)
		}
	case "Base lid", "SM lid", "LMC":
		n, err := strconv.Atoi(val)
		if err != nil {
			return l.Errorf("%s: %v", key, err)
		}
		switch key {
		case "Base lid":
			p.LID = intPtr(n)
			p.Evidence.Set("lid", ev)
		case "SM lid":
			p.SMLID = intPtr(n)
			p.Evidence.Set("sm_lid", ev)
		default:
			p.LMC = intPtr(n)
			p.Evidence.Set("lmc", ev)
		}
	case "Capability mask":
		setCapMask(p, val, ev)
	case "Port GUID":
		if g, ok := GUID(val); ok {
			p.PortGUID = g
			p.Evidence.Set("port_guid", ev)
		}
	case "Link layer":
		if !knownLinkLayer(val) {
			return l.Errorf("Link layer: not InfiniBand or Ethernet")
		}
		p.LinkLayer = val
		p.Evidence.Set("link_layer", ev)
	}
	return nil
}

// knownLinkLayer reports whether v is a link layer the tools print (sysfs link_layer).
func knownLinkLayer(v string) bool {
	return v == "InfiniBand" || v == "Ethernet"
}

// setCapMask records a PortInfo capability mask and the IsSMDisabled bit it carries.
func setCapMask(p *facts.Port, val string, ev facts.Evidence) {
	p.CapabilityMask = val
	p.Evidence.Set("capability_mask", ev)
	if dis, ok := SMDisabled(val); ok {
		p.IsSMDisabled = boolPtr(dis)
		p.Evidence.Set("is_sm_disabled", ev)
	}
}

// ibRefusalMarkers are the infiniband-diags, libibumad and libibverbs messages that mean the tool
// could not do its job (as opposed to ibwarn debug chatter such as "umad_init: umad_init").
var ibRefusalMarkers = []string{
	"ibpanic:", "iberror:", "No IB devices found", "Failed to get IB devices list",
	"client_register for mgmt", "can't open MAD port", "can't read ABI version",
	"IB device can't be found",
}

// ibRefusal returns the line as a refusal when it is one of the diagnostic tools' own errors.
// Tool is left to the caller, which knows which command ran.
func ibRefusal(l Line) *facts.ToolRefusal {
	t := strings.TrimSpace(l.Text)
	for _, m := range ibRefusalMarkers {
		if strings.Contains(t, m) {
			return &facts.ToolRefusal{Message: t, Evidence: l.Evidence()}
		}
	}
	return nil
}
