package parse

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/internal/lazyregexp"
)

// ansiRe matches the colour escapes mlxlink prints around values on a terminal.
var ansiRe = lazyregexp.New("\x1b\\[[0-9;]*[A-Za-z]")

// parenListRe takes the list out of "0x0000001f (FDR,FDR10,QDR,DDR,SDR)".
var parenListRe = lazyregexp.New(`\(([^()]*)\)\s*$`)

// activeEnabledRe splits the PCIe view's "2.5G-Gen 1 (16G-Gen 4)" and "4X (16X)".
var activeEnabledRe = lazyregexp.New(`^(.*?)\s*\(([^()]*)\)$`)

// MlxLink parses `mlxlink -d <dev> [-m] [-c] [-e] [--port_type PCIE]` and mstflint's `mstlink`
// (mstflint mlxlink/modules/mlxlink_commander.cpp). The report is titled sections of
// "Key : Value" lines, values padded with spaces and, on a terminal, coloured:
//
//	Operational Info
//	----------------
//	State                              : Active
//	Physical state                     : LinkUp
//	Speed                              : IB-FDR
//	Width                              : 4x
//
//	Troubleshooting Info
//	--------------------
//	Status Opcode                      : 0
//	Recommendation                     : No issue was observed
//
// "Module Info" (-m, newer MFT) or "Cable Info" (older) describe the plugged module; "PCIe
// Operational (Enabled) Info" (--port_type PCIE) gives "Link Speed Active (Enabled) : 2.5G-Gen 1
// (16G-Gen 4)" and "Link Width Active (Enabled) : 4X (16X)". Every key is also kept in Fields as
// "Section/Key". Device is left to the caller; PortType is "PCIE" when the PCIe section is present,
// else "NETWORK". A "-E- ..." line is the Refusal. See docs/knowledge/mlxlink-status-opcodes.md.
func MlxLink(b []byte) (facts.MlxLink, error) {
	m := facts.MlxLink{PortType: "NETWORK"}
	lines := Lines(b)
	section := ""
	var probs problems
	for i, l := range lines {
		t := strings.TrimSpace(ansiRe.ReplaceAllString(l.Text, ""))
		if isUnderline(t) && (i == 0 || strings.TrimSpace(ansiRe.ReplaceAllString(lines[i-1].Text, "")) == "") {
			// mlxlink prints each title right above its underline: this one's title was lost,
			// and its keys are read into the section before it.
			probs.add(l, "section underline without a title above it")
			continue
		}
		if t == "" || strings.Trim(t, "-") == "" {
			continue
		}
		if i+1 < len(lines) && isUnderline(lines[i+1].Text) {
			section = t
			continue
		}
		if strings.HasPrefix(t, "-E-") {
			setOnce(&m.Refusal, &m.Evidence, "refusal", t, l)
			continue
		}
		key, val, ok := keyValue(t)
		if !ok || key == "" {
			continue
		}
		if m.Fields == nil {
			m.Fields = map[string]string{}
		}
		m.Fields[section+"/"+key] = val
		if why := mlxlinkField(&m, section, key, val, l); why != "" {
			probs.add(l, "%s", why)
		}
	}
	probs.replaced(lines)
	// Every line is complete only with its newline: a value cut short reads as another value,
	// and a cut before a section loses it.
	probs.cut(b, lines, true)
	return m, probs.err()
}

func isUnderline(s string) bool {
	s = strings.TrimSpace(s)
	return len(s) >= 3 && strings.Trim(s, "-") == ""
}

// mlxlinkField records one "key : value" line of section in m; it returns why a value it reads
// could not be used ("" when it could, or was not read).
func mlxlinkField(m *facts.MlxLink, section, key, val string, l Line) string {
	set := func(dst *string, field, v string) {
		if v != "" && *dst == "" {
			*dst = v
			m.Evidence.Set(field, l.Evidence())
		}
	}
	switch {
	case strings.HasPrefix(section, "PCIe Operational"):
		m.PortType = "PCIE"
		switch key {
		case "Link Speed Active (Enabled)":
			a, e := splitActiveEnabled(val)
			set(&m.PCIeSpeedActive, "pcie_speed_active", a)
			set(&m.PCIeSpeedEnabled, "pcie_speed_enabled", e)
		case "Link Width Active (Enabled)":
			a, e := splitActiveEnabled(val)
			if w := lanesOf(a); w != nil && m.PCIeWidthActive == nil {
				m.PCIeWidthActive = w
				m.Evidence.Set("pcie_width_active", l.Evidence())
			}
			if w := lanesOf(e); w != nil && m.PCIeWidthEnabled == nil {
				m.PCIeWidthEnabled = w
				m.Evidence.Set("pcie_width_enabled", l.Evidence())
			}
		}
	case section == "Operational Info":
		switch key {
		case "State":
			set(&m.State, "state", val)
		case "Physical state":
			set(&m.PhysicalState, "physical_state", val)
		case "Speed":
			set(&m.Speed, "speed", val)
		case "Width":
			if w := lanesOf(val); w != nil && m.WidthLanes == nil {
				m.WidthLanes = w
				m.Evidence.Set("width_lanes", l.Evidence())
			}
		case "FEC":
			set(&m.FEC, "fec", val)
		}
	case section == "Supported Info":
		switch key {
		case "Enabled Link Speed", "Enabled Link Speed (Ext.)":
			set(&m.EnabledLinkSpeed, "enabled_link_speed", speedList(val))
		case "Supported Cable Speed", "Supported Cable Speed (Ext.)":
			set(&m.SupportedCableSpeed, "supported_cable_speed", speedList(val))
		}
	case section == "Troubleshooting Info":
		switch key {
		case "Status Opcode":
			// "N/A" when the firmware gives none: leave the opcode absent.
			if n, err := strconv.Atoi(val); err == nil && m.StatusOpcode == nil {
				m.StatusOpcode = &n
				m.Evidence.Set("status_opcode", l.Evidence())
			}
		case "Group Opcode":
			set(&m.GroupOpcode, "group_opcode", val)
		case "Status Message":
			set(&m.StatusMessage, "status_message", val)
		case "Recommendation":
			set(&m.Recommendation, "recommendation", val)
		}
	case section == "Tool Information":
		if key == "Firmware Version" {
			if !firmwareVersion(val) {
				return fmt.Sprintf("Firmware Version %q: not a version", val)
			}
			set(&m.FirmwareVersion, "firmware_version", val)
		}
	case section == "Module Info" || section == "Cable Info":
		switch key {
		case "Cable Type":
			set(&m.CableType, "cable_type", val)
		case "Cable Length", "Transfer Distance [m]", "Length [m]":
			set(&m.CableLength, "cable_length", val)
		case "Vendor Name", "Cable Vendor":
			set(&m.CableVendor, "cable_vendor", val)
		case "Vendor Part Number", "Cable PN":
			set(&m.CablePN, "cable_pn", val)
		case "Identifier":
			set(&m.CableIdentifier, "cable_identifier", val)
		}
	}
	return ""
}

// speedList returns the names in "0x0000001f (FDR,FDR10,QDR,DDR,SDR)", or val when there is no list.
func speedList(val string) string {
	if m := parenListRe.FindStringSubmatch(val); m != nil {
		return m[1]
	}
	return val
}

func splitActiveEnabled(val string) (active, enabled string) {
	if m := activeEnabledRe.FindStringSubmatch(val); m != nil {
		return m[1], m[2]
	}
	return val, ""
}

// lanesOf reads a width such as "4x", "4X" or "16X".
func lanesOf(s string) *int {
	s = strings.TrimSpace(s)
	s = strings.TrimSuffix(strings.TrimSuffix(s, "x"), "X")
	return atoiPtr(s)
}
