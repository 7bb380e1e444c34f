package parse

import (
	"strings"

	"github.com/rdmadoctor/rdmadoctor/facts"
)

// Flint parses `flint -d <dev> q [full]` and `mstflint -d <dev> q` (mstflint flint/subcommands.cpp
// QuerySubCommand). FS3/FS4 images print a GUID table with a count column, FS2 (ConnectX-3)
// images one row of node/port GUIDs and MACs:
//
//	Image type:            FS2
//	FW Version:            2.42.5000
//	FW Version(Running):   2.35.5100
//	FW Release Date:       5.9.2017
//	Product Version:       02.42.50.00
//	Rom Info:              type=PXE version=3.4.752
//	Device ID:             4099
//	Description:           Node             Port1            Port2            Sys image
//	GUIDs:                 ffffffffffffffff ffffffffffffffff ffffffffffffffff ffffffffffffffff
//	MACs:                                       e41d2ddd7850     e41d2ddd7851
//	PSID:                  MT_1170110023
//
// FS3: "Description:  UID  GuidsNumber" then "Base GUID:  ec0d9a030076eae2  4" and "Base MAC:".
// The "Description:" line of these tables is a column header, not a product description, and is
// skipped. Version is the running firmware ("FW Version(Running)" when printed, else "FW
// Version"); a different flash image is PendingVersion. The Tool field is left to the caller
// (flint or mstflint, known from the command). "-E- Cannot open Device: ..." is the Refusal.
// Continuation lines (more Rom Info entries) and unknown keys are ignored. A query that has a
// firmware version but ends before its PSID line (printed in every query, after the GUIDs and
// "FW Version(Running)") was cut short: the record is kept and Problems names the last line.
func Flint(b []byte) (facts.FirmwareInfo, error) {
	var fw facts.FirmwareInfo
	var flash, running string
	var flashEv, runningEv facts.Evidence
	var last Line
	for _, l := range Lines(b) {
		if strings.TrimSpace(l.Text) != "" {
			last = l
		}
		t := strings.TrimSpace(l.Text)
		if t == "" || l.Text[0] == ' ' || l.Text[0] == '\t' {
			continue
		}
		if strings.HasPrefix(t, "-E-") {
			setOnce(&fw.Refusal, &fw.Evidence, "refusal", t, l)
			continue
		}
		key, val, ok := keyValue(t)
		if !ok {
			continue
		}
		first := ""
		if f := strings.Fields(val); len(f) > 0 {
			first = f[0]
		}
		switch key {
		case "Image type":
			setOnce(&fw.ImageType, &fw.Evidence, "image_type", val, l)
		case "FW Version":
			flash, flashEv = val, l.Evidence()
		case "FW Version(Running)":
			running, runningEv = val, l.Evidence()
		case "FW Release Date":
			setOnce(&fw.ReleaseDate, &fw.Evidence, "release_date", val, l)
		case "Product Version":
			setOnce(&fw.ProductVersion, &fw.Evidence, "product_version", val, l)
		case "Device ID":
			setOnce(&fw.DeviceID, &fw.Evidence, "device_id", val, l)
		case "PSID":
			setOnce(&fw.PSID, &fw.Evidence, "psid", val, l)
		case "Description":
			if !flintGUIDHeader(val) {
				setOnce(&fw.Description, &fw.Evidence, "description", val, l)
			}
		case "Base GUID", "GUIDs":
			setOnce(&fw.BaseGUID, &fw.Evidence, "base_guid", first, l)
		case "Base MAC", "MACs":
			setOnce(&fw.BaseMAC, &fw.Evidence, "base_mac", first, l)
		}
	}
	switch {
	case running != "":
		fw.Version = running
		fw.Evidence.Set("version", runningEv)
		if flash != "" && flash != running {
			fw.PendingVersion = flash
			fw.Evidence.Set("pending_version", flashEv)
		}
	case flash != "":
		fw.Version = flash
		fw.Evidence.Set("version", flashEv)
	}
	if fw.Version != "" && fw.PSID == "" {
		var p problems
		p.add(last, "the query ends here, before its PSID line: cut short, so the running version, GUIDs and PSID it would print after are unknown")
		return fw, p.list
	}
	return fw, nil
}

// FlintBurn reports whether b is the log of `flint -d <dev> -i <image> burn` rather than a query
// ("Current FW version on flash:", "New FW version:", "Burning FS2 FW image ...").
func FlintBurn(b []byte) bool {
	s := string(b)
	return strings.Contains(s, "New FW version:") || strings.Contains(s, "Burning FS")
}

// flintGUIDHeader recognises the column header flint prints as "Description:" above its GUID table.
func flintGUIDHeader(val string) bool {
	f := strings.Fields(val)
	return len(f) >= 2 && (f[0] == "UID" || f[0] == "Node")
}
