package parse

import (
	"regexp"
	"strconv"

	"github.com/rdmadoctor/rdmadoctor/facts"
)

var ibstatusHeadRe = regexp.MustCompile(`^\s*Infiniband device '([^']+)' port (\d+) status:\s*$`)

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
	for _, l := range Lines(b) {
		if m := ibstatusHeadRe.FindStringSubmatch(l.Text); m != nil {
			n, err := strconv.Atoi(m[2])
			if err != nil {
				return nil, l.Errorf("port number: %v", err)
			}
			d := deviceNamed(&devs, m[1], l)
			d.Ports = append(d.Ports, facts.Port{Number: n})
			port = &d.Ports[len(d.Ports)-1]
			port.Evidence.Set("number", l.Evidence())
			continue
		}
		if port == nil {
			continue
		}
		key, val, ok := keyValue(l.Text)
		if !ok {
			continue
		}
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
				return nil, l.Errorf("%s: not a number", key)
			}
			if key == "base lid" {
				port.LID = intPtr(n)
				port.Evidence.Set("lid", ev)
			} else {
				port.SMLID = intPtr(n)
				port.Evidence.Set("sm_lid", ev)
			}
		case "state":
			if s, ok := PortState(val); ok {
				port.State = s
				port.Evidence.Set("state", ev)
			}
		case "phys state":
			if s, ok := PhysicalState(val); ok {
				port.PhysicalState = s
				port.Evidence.Set("physical_state", ev)
			}
		case "rate":
			r, err := SysfsRate(val)
			if err != nil {
				return nil, l.Errorf("%v", err)
			}
			setRate(port, r, ev)
		case "link_layer":
			port.LinkLayer = val
			port.Evidence.Set("link_layer", ev)
		}
	}
	return devs, nil
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
