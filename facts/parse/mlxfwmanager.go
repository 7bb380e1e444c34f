package parse

import (
	"slices"
	"strings"

	"github.com/rdmadoctor/rdmadoctor/facts"
)

// MlxFWManager parses `mlxfwmanager --query` and `mlxup --query` (the same report; MFT
// mlxfwmanager, NVIDIA mlxup):
//
//	Querying Mellanox devices firmware ...
//
//	Device #1:
//	----------
//
//	  Device Type:      ConnectX7
//	  Part Number:      MCX755106AS-HEA_Ax
//	  Description:      NVIDIA ConnectX-7 HHHL Adapter Card; 200GbE ...
//	  PSID:             MT_0000000834
//	  PCI Device Name:  /dev/mst/mt4129_pciconf1      (a BDF such as 0000:81:00.0 without mst)
//	  Base MAC:         5c2573a98bd4
//	  Versions:         Current        Available
//	     FW             28.40.1000     28.43.1014
//	     PXE            3.7.0300       N/A
//
//	  Status:           Update required
//
// One record per device; the FW row gives Version and AvailableVersion ("N/A" = none). Base MAC
// falls back to "Port1 MAC:" (ConnectX-3 reports, where port 1's MAC is the base). Tool is left to
// the caller. A "-E- ..." line before any device (e.g. "-E- No devices found") is returned as one
// record holding only the Refusal. Unknown lines are ignored.
func MlxFWManager(b []byte) ([]facts.FirmwareInfo, error) {
	var out []facts.FirmwareInfo
	var refusal *facts.FirmwareInfo
	inVersions := false
	var probs problems
	var head Line             // the "Device #N:" line of the open block
	seen := map[string]bool{} // the keys of the open block
	closeDev := func() {
		if len(out) == 0 || out[len(out)-1].Refusal != "" {
			return
		}
		if miss := missingKeys(seen, fwManagerKeys); miss != "" {
			probs.add(head, "device block has no %s line", miss)
		}
	}
	lines := Lines(b)
	for _, l := range lines {
		t := strings.TrimSpace(l.Text)
		switch {
		case t == "":
			inVersions = false
			continue
		case strings.HasPrefix(t, "Device #"):
			closeDev()
			out = append(out, facts.FirmwareInfo{})
			inVersions = false
			head = l
			clear(seen)
			continue
		case strings.HasPrefix(t, "-E-"):
			if len(out) > 0 {
				d := &out[len(out)-1]
				setOnce(&d.Refusal, &d.Evidence, "refusal", t, l)
			} else if refusal == nil {
				refusal = &facts.FirmwareInfo{Refusal: t}
				refusal.Evidence.Set("refusal", l.Evidence())
			}
			continue
		}
		if len(out) == 0 {
			continue
		}
		d := &out[len(out)-1]
		key, val, ok := keyValue(t)
		if !ok {
			if inVersions && strings.HasPrefix(t, "FW ") {
				seen["FW"] = true
			}
			if inVersions {
				fwVersionRow(d, t, l)
			}
			continue
		}
		inVersions = false
		if slices.Contains(fwManagerKeys, key) || key == "Device Type" || key == "PCI Device Name" {
			if seen[key] {
				probs.add(l, "%s repeated in one device block: a Device # header is missing before it", key)
				continue
			}
			seen[key] = true
		}
		switch key {
		case "Device Type":
			setOnce(&d.DeviceType, &d.Evidence, "device_type", val, l)
		case "Part Number":
			setOnce(&d.PartNumber, &d.Evidence, "part_number", val, l)
		case "Description":
			setOnce(&d.Description, &d.Evidence, "description", val, l)
		case "PSID":
			setOnce(&d.PSID, &d.Evidence, "psid", val, l)
		case "PCI Device Name":
			setOnce(&d.Device, &d.Evidence, "device", val, l)
			if a := sysfsBDFRe.FindString(val); a != "" {
				setOnce(&d.PCIAddress, &d.Evidence, "pci_address", strings.ToLower(a), l)
			}
		case "Base GUID":
			setOnce(&d.BaseGUID, &d.Evidence, "base_guid", val, l)
		case "Base MAC", "Port1 MAC":
			setOnce(&d.BaseMAC, &d.Evidence, "base_mac", val, l)
		case "Versions":
			inVersions = true
		case "Status":
			setOnce(&d.Status, &d.Evidence, "status", val, l)
		}
	}
	closeDev()
	if len(out) == 0 && refusal != nil {
		out = append(out, *refusal)
	}
	probs.replaced(lines)
	// A device block ends with its Status line: a file without a final newline that ends
	// anywhere else was cut there.
	probs.cutUnless(b, lines, func(l Line) bool {
		key, val, ok := keyValue(strings.TrimSpace(l.Text))
		return ok && key == "Status" && val != ""
	})
	return out, probs.err()
}

// fwManagerKeys are the lines mlxfwmanager and mlxup print for every device they could query
// (FW is the firmware row under Versions).
var fwManagerKeys = []string{"Versions", "FW", "Status"}

// fwVersionRow reads "FW  28.40.1000  28.43.1014" under "Versions:"; other rows (PXE, UEFI) are ignored.
func fwVersionRow(d *facts.FirmwareInfo, t string, l Line) {
	f := strings.Fields(t)
	if len(f) < 2 || f[0] != "FW" {
		return
	}
	setOnce(&d.Version, &d.Evidence, "version", f[1], l)
	if len(f) >= 3 && f[2] != "N/A" {
		setOnce(&d.AvailableVersion, &d.Evidence, "available_version", f[2], l)
	}
}
