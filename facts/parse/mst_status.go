package parse

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/rdmadoctor/rdmadoctor/facts"
)

// mstBDFRe matches a PCI address with or without domain, as mst prints it ("03:00.1", "0004:01:00.0").
var mstBDFRe = regexp.MustCompile(`^([0-9a-fA-F]{4}:)?[0-9a-fA-F]{2}:[0-9a-fA-F]{2}\.[0-7]$`)

// MSTStatus parses `mst status` and `mst status -v` (MFT mst script). The plain form lists each
// /dev/mst node with its access method and PCI address on the next line:
//
//	/dev/mst/mt4115_pciconf0         - PCI configuration cycles access.
//	                                   domain:bus:dev.fn=0000:04:00.0 addr.reg=88 data.reg=92 cr_bar.gw_offset=-1
//	                                   Chip revision is: 00
//
// The -v form is a table whose RDMA and NET cells may be empty:
//
//	DEVICE_TYPE             MST                           PCI       RDMA            NET                       NUMA
//	ConnectX6(rev:0)        /dev/mst/mt4123_pciconf0      3b:00.0   mlx5_0          net-enp59s0f0             0
//
// PCI addresses are returned as printed (the -v table omits the domain). Module lines, cable
// entries and other lines are ignored.
func MSTStatus(b []byte) ([]facts.MSTDevice, error) {
	var out []facts.MSTDevice
	for _, l := range Lines(b) {
		t := strings.TrimSpace(l.Text)
		switch {
		case strings.HasPrefix(t, "/dev/mst/"):
			f := strings.Fields(t)
			out = append(out, facts.MSTDevice{Path: f[0], Evidence: l.Evidence()})
		case strings.HasPrefix(t, "domain:bus:dev.fn="):
			if len(out) == 0 || out[len(out)-1].PCIAddress != "" {
				continue
			}
			f := strings.Fields(t)
			out[len(out)-1].PCIAddress = strings.TrimPrefix(f[0], "domain:bus:dev.fn=")
		default:
			if d, ok := mstVerboseRow(t, l); ok {
				out = append(out, d)
			}
		}
	}
	return out, nil
}

// mstVerboseRow reads one row of the -v table by what each cell looks like, since empty cells
// shift the columns.
func mstVerboseRow(t string, l Line) (facts.MSTDevice, bool) {
	f := strings.Fields(t)
	if len(f) < 2 || !strings.HasPrefix(f[1], "/dev/mst/") {
		return facts.MSTDevice{}, false
	}
	d := facts.MSTDevice{DeviceType: f[0], Path: f[1], Evidence: l.Evidence()}
	for _, c := range f[2:] {
		switch {
		case d.PCIAddress == "" && mstBDFRe.MatchString(c):
			d.PCIAddress = strings.ToLower(c)
		case strings.HasPrefix(c, "net-"):
			for _, n := range strings.Split(c, ",") {
				if n = strings.TrimPrefix(n, "net-"); n != "" {
					d.Netdevs = append(d.Netdevs, n)
				}
			}
		default:
			if n, err := strconv.Atoi(c); err == nil {
				d.NUMANode = &n
			} else if d.RDMADevice == "" {
				d.RDMADevice = c
			}
		}
	}
	if len(d.Netdevs) == 1 {
		d.Netdev = d.Netdevs[0]
	}
	return d, true
}
