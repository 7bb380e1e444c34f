package parse

import (
	"strings"

	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/internal/lazyregexp"
)

// EthtoolDriver parses `ethtool -i <if>` (ethtool.c dump_drvinfo):
//
//	driver: mlx5_core[ib_ipoib]
//	version: 4.9-5.1.0
//	firmware-version: 20.30.1004 (MT_0000000226)
//	bus-info: 0000:b1:00.1
//
// The interface name is not in the output: the caller sets Name. mlx drivers append the board
// PSID to the firmware version; it is split into FirmwarePSID. A PCI bus-info also sets
// PCIAddress. An IPoIB driver ("ib_ipoib", "mlx5_core[ib_ipoib]") sets Kind "ipoib". ethtool's
// refusal ("Cannot get driver information: ...") is returned as refusal.
func EthtoolDriver(b []byte) (n facts.Netdev, refusal string, err error) {
	for _, l := range Lines(b) {
		t := strings.TrimSpace(l.Text)
		if strings.HasPrefix(t, "Cannot get driver information") {
			return n, t, nil
		}
		key, val, ok := keyValue(t)
		if !ok {
			continue
		}
		ev := l.Evidence()
		switch key {
		case "driver":
			n.Driver = val
			n.Evidence.Set("driver", ev)
			if strings.Contains(val, "ipoib") {
				n.Kind = facts.NetdevIPoIB
				n.Evidence.Set("kind", ev)
			}
		case "version":
			n.DriverVersion = val
			n.Evidence.Set("driver_version", ev)
		case "firmware-version":
			if m := fwPSIDRe.FindStringSubmatch(val); m != nil {
				n.FirmwareVersion, n.FirmwarePSID = m[1], m[2]
				n.Evidence.Set("firmware_psid", ev)
			} else {
				n.FirmwareVersion = val
			}
			if val != "" {
				n.Evidence.Set("firmware_version", ev)
			}
		case "bus-info":
			n.BusInfo = val
			if val != "" {
				n.Evidence.Set("bus_info", ev)
			}
			if pciBusInfoRe.MatchString(val) {
				n.PCIAddress = strings.ToLower(val)
				n.Evidence.Set("pci_address", ev)
			}
		}
	}
	return n, "", nil
}

var (
	fwPSIDRe     = lazyregexp.New(`^(\S+)\s+\(([A-Z]{2,4}_\w+)\)$`)
	pciBusInfoRe = lazyregexp.New(`^[0-9a-fA-F]{4}:[0-9a-fA-F]{2}:[0-9a-fA-F]{2}\.[0-7]$`)
)
