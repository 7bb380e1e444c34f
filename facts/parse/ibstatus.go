package parse

import (
	"slices"
	"strconv"
	"strings"

	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/internal/lazyregexp"
)

var ibstatusHeadRe = lazyregexp.New(`^\s*Infiniband device '(.+)' port (\d+) status:\s*$`)

// IBStatus parses the output of `ibstatus` (rdma-core infiniband-diags/scripts/ibstatus), one
// block per port, read from sysfs by the script:
//
//	Infiniband device 'mlx4_0' port 1 status:
//		default gid:	 fe80:0000:0000:0000:0003:ba00:0100:71a1
//		base lid:	 0x2f
//		sm lid:		 0x1
//		state:		 4: ACTIVE
//		phys state:	 5: LinkUp
//		rate:		 20 Gb/sec (4X DDR)
//		link_layer:	 InfiniBand
//
// Older versions print no link_layer line. Ports of one device are merged into one Device, in
// the order the devices first appear.
func IBStatus(b []byte) ([]facts.Device, error) {
	var devs []facts.Device
	var port *facts.Port
	var head Line
	var probs problems
	seen := map[string]bool{}
	incomplete := false
	closePort := func() {
		if port != nil {
			if miss := missingKeys(seen, ibstatusPortKeys); miss != "" {
				probs.add(head, "port block has no %s line", miss)
				incomplete = true
			}
		}
		port = nil
	}
	lines := Lines(b)
	for _, l := range lines {
		if m := ibstatusHeadRe.FindStringSubmatch(l.Text); m != nil {
			closePort()
			incomplete = false
			n, err := strconv.Atoi(m[2])
			if err != nil {
				probs.add(l, "port number: %v", err)
				continue
			}
			d := deviceNamed(&devs, m[1], l)
			d.Ports = append(d.Ports, facts.Port{Number: n})
			port = &d.Ports[len(d.Ports)-1]
			port.Evidence.Set("number", l.Evidence())
			head = l
			clear(seen)
			continue
		}
		if strings.HasPrefix(strings.TrimSpace(l.Text), "Infiniband device ") {
			closePort()
			probs.add(l, "not a port header (Infiniband device '<name>' port <number> status:)")
			continue
		}
		key, val, ok := keyValue(l.Text)
		if port == nil {
			if ok && slices.Contains(ibstatusKeys, key) {
				probs.add(l, "%s line outside a port block: its port header is missing", key)
			}
			continue
		}
		if !ok {
			continue
		}
		if seen[key] {
			probs.add(l, "%s repeated in one port block: a port header is missing before it", key)
			continue
		}
		seen[key] = true
		probs.addErr(ibstatusKey(port, key, val, l))
	}
	closePort()
	probs.replaced(lines)
	// A port block ends with its link_layer line, or in older versions its rate line: a file
	// without a final newline that ends anywhere else was cut mid-block.
	probs.cutUnless(b, lines, func(l Line) bool {
		key, val, ok := keyValue(l.Text)
		if !ok || incomplete {
			return false
		}
		switch key {
		case "link_layer":
			return knownLinkLayer(val)
		case "rate":
			return strings.HasSuffix(val, ")")
		}
		return false
	})
	return devs, probs.err()
}

// ibstatusPortKeys are the lines ibstatus prints for every port.
var ibstatusPortKeys = []string{"state", "phys state", "rate"}

// ibstatusKeys are all the keys of an ibstatus port block.
var ibstatusKeys = []string{"default gid", "base lid", "sm lid", "state", "phys state", "rate", "link_layer"}

// ibstatusKey reads one "key: value" line of a port block; a value that does not parse loses
// that field only.
func ibstatusKey(port *facts.Port, key, val string, l Line) error {
	ev := l.Evidence()
	switch key {
	case "default gid":
		if p := subnetPrefix(val); p != "" {
			port.SubnetPrefix = p
			port.Evidence.Set("subnet_prefix", ev)
		}
	case "base lid", "sm lid":
		n, ok := hexOrDecimal(val)
		if !ok {
			return l.Errorf("%s: not a number", key)
		}
		if key == "base lid" {
			port.LID = intPtr(n)
			port.Evidence.Set("lid", ev)
		} else {
			port.SMLID = intPtr(n)
			port.Evidence.Set("sm_lid", ev)
		}
	case "state":
		s, ok := PortState(val)
		if !ok {
			return l.Errorf("state: not a port state")
		}
		port.State = s
		port.Evidence.Set("state", ev)
	case "phys state":
		s, ok := PhysicalState(val)
		if !ok {
			return l.Errorf("phys state: not a physical port state")
		}
		port.PhysicalState = s
		port.Evidence.Set("physical_state", ev)
	case "rate":
		r, err := SysfsRate(val)
		if err != nil {
			return l.Errorf("%v", err)
		}
		setRate(port, r, ev)
	case "link_layer":
		if !knownLinkLayer(val) {
			return l.Errorf("link_layer: not InfiniBand or Ethernet")
		}
		port.LinkLayer = val
		port.Evidence.Set("link_layer", ev)
	}
	return nil
}

// deviceNamed returns the device called name in devs, appending it (with its name evidence)
// when it is not there yet. The returned pointer is valid until devs grows again.
func deviceNamed(devs *[]facts.Device, name string, l Line) *facts.Device {
	for i := range *devs {
		if (*devs)[i].Name == name {
			return &(*devs)[i]
		}
	}
	d := facts.Device{Name: name}
	d.Evidence.Set("name", l.Evidence())
	*devs = append(*devs, d)
	return &(*devs)[len(*devs)-1]
}

// setRate records a sysfs-style rate on a port.
func setRate(p *facts.Port, r Rate, ev facts.Evidence) {
	p.RateGbps = r.Gbps
	p.Evidence.Set("rate_gbps", ev)
	if r.WidthLanes != nil {
		p.WidthLanes = r.WidthLanes
		p.Evidence.Set("width_lanes", ev)
	}
	if r.LaneSpeed != "" {
		p.LaneSpeed = r.LaneSpeed
		p.Evidence.Set("lane_speed", ev)
	}
}
