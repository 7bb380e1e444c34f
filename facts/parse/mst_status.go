package parse

import (
	"strconv"
	"strings"

	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/internal/lazyregexp"
)

// mstBDFRe matches a PCI address with or without domain, as mst prints it ("03:00.1", "0004:01:00.0").
var mstBDFRe = lazyregexp.New(`^([0-9a-fA-F]{4}:)?[0-9a-fA-F]{2}:[0-9a-fA-F]{2}\.[0-7]$`)

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
	var probs problems
	var open *Line // the plain-form device line still waiting for its domain:bus:dev.fn line
	closeDev := func() {
		if open != nil {
			probs.add(*open, "device has no domain:bus:dev.fn line after it")
		}
		open = nil
	}
	lines := Lines(b)
	for _, l := range lines {
		t := strings.TrimSpace(l.Text)
		switch {
		case strings.HasPrefix(t, "/dev/mst/"):
			closeDev()
			f := strings.Fields(t)
			out = append(out, facts.MSTDevice{Path: f[0], Evidence: l.Evidence()})
			if mstPlainAccess(f) {
				l := l
				open = &l
			}
		case strings.HasPrefix(t, "domain:bus:dev.fn="):
			if len(out) == 0 || out[len(out)-1].PCIAddress != "" {
				probs.add(l, "address line without a device line before it")
				continue
			}
			f := strings.Fields(t)
			addr := strings.TrimPrefix(f[0], "domain:bus:dev.fn=")
			open = nil
			if !mstBDFRe.MatchString(addr) {
				probs.add(l, "%q is not a PCI address", addr)
				continue
			}
			out[len(out)-1].PCIAddress = addr
		default:
			if d, ok := mstVerboseRow(t, l); ok {
				closeDev()
				out = append(out, d)
			}
		}
	}
	closeDev()
	probs.replaced(lines)
	// A plain-form block ends with "Chip revision is: NN", a -v row with its NUMA cell: a file
	// without a final newline that ends anywhere else was cut there.
	probs.cutUnless(b, lines, func(l Line) bool {
		f := strings.Fields(l.Text)
		if len(f) == 4 && strings.Join(f[:3], " ") == "Chip revision is:" {
			return true
		}
		if len(f) >= 3 && strings.HasPrefix(f[1], "/dev/mst/") {
			_, err := strconv.Atoi(f[len(f)-1])
			return err == nil
		}
		return false
	})
	return out, probs.err()
}

// mstPlainAccess reports whether the fields of a "/dev/mst/..." line are the plain form's
// "<path> - PCI configuration cycles access." (or "- PCI direct access."), which mst follows
// with the device's domain:bus:dev.fn line.
func mstPlainAccess(f []string) bool {
	return len(f) >= 3 && f[1] == "-" && f[2] == "PCI"
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
