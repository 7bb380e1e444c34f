package parse

import (
	"math"
	"strconv"
	"strings"

	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/internal/lazyregexp"
)

// EthtoolModule parses `ethtool -m <if>` as ethtool decodes SFF-8472 (SFP), SFF-8636 (QSFP)
// and CMIS (QSFP-DD, OSFP) EEPROMs (ethtool sfpid.c, qsfp.c, cmis.c, sff-common.c):
//
//	Identifier                                : 0x11 (QSFP28)
//	Connector                                 : 0x0c (MPO Parallel Optic)
//	Transceiver type                          : 100G Ethernet: 100G Base-SR4 or 25GBase-SR
//	BR, Nominal                               : 25500Mbps
//	Length (OM3 50um)                         : 70m
//	Vendor PN                                 : MMA1B00-C100D
//	Module temperature                        : 30.56 degrees C / 87.01 degrees F
//	Laser rx power low alarm    (Channel 1)   : Off
//
// When ethtool could not decode the EEPROM it prints a hex dump ("Offset  Values"); Unreadable
// is then "hexdump only". When it could not read it ("Cannot get module EEPROM information:
// Input/output error") Unreadable holds the reason and refusal the whole message.
func EthtoolModule(b []byte) (m facts.Module, refusal string, err error) {
	var copperM, om3M, smfKM *float64
	copper := false
	for _, l := range Lines(b) {
		t := strings.TrimSpace(l.Text)
		ev := l.Evidence()
		if strings.HasPrefix(t, "Cannot get module EEPROM") || strings.HasPrefix(t, "netlink error:") {
			_, why, _ := keyValue(t)
			if strings.HasPrefix(t, "netlink error:") {
				why = strings.TrimPrefix(t, "netlink error: ")
			}
			m.Unreadable = why
			m.Evidence.Set("unreadable", ev)
			return m, t, nil
		}
		if strings.HasPrefix(t, "Offset") && strings.Contains(t, "Values") {
			if m.Identifier == "" {
				m.Unreadable = "hexdump only"
				m.Evidence.Set("unreadable", ev)
			}
			continue
		}
		key, val, ok := moduleKeyValue(t)
		if !ok {
			continue
		}
		switch {
		case key == "Identifier":
			m.IdentifierCode, m.Identifier = codeAndName(val)
			if n, ok := sffIdentifiers[strings.ToLower(m.IdentifierCode)]; ok {
				m.Identifier = n
			}
			m.Evidence.Set("identifier", ev)
		case key == "Connector":
			m.Connector = val
			m.Evidence.Set("connector", ev)
			if strings.Contains(val, "No separable connector") {
				copper = true
			}
		case key == "Transmitter technology":
			if strings.Contains(strings.ToLower(val), "copper") {
				copper = true
			}
		case key == "Transceiver type":
			m.Compliance = append(m.Compliance, val)
			m.Evidence.Set("compliance", ev)
		case key == "BR, Nominal" || key == "BR Nominal":
			if r := leadingNumberRe.FindString(val); r != "" && strings.HasSuffix(val, "Mbps") {
				m.NominalBitRateMbps = atoiPtr(r)
				m.Evidence.Set("nominal_bit_rate_mbps", ev)
			}
		case key == "Length (Copper or Active cable)" || key == "Length (Copper)":
			copperM = metres(val, ev, &m)
		case key == "Length (OM3 50um)" || key == "Length (OM3)":
			om3M = metres(val, ev, &m)
		case key == "Length (SMF,km)" || key == "Length (SMF)":
			smfKM = metres(val, ev, &m)
		case key == "Vendor name":
			m.VendorName = val
			m.Evidence.Set("vendor_name", ev)
		case key == "Vendor PN":
			m.VendorPN = val
			m.Evidence.Set("vendor_pn", ev)
		case key == "Vendor SN":
			m.VendorSN = val
			m.Evidence.Set("vendor_sn", ev)
		case key == "Vendor rev":
			m.VendorRev = val
			m.Evidence.Set("vendor_rev", ev)
		case key == "Module temperature":
			if v, err := strconv.ParseFloat(leadingNumberRe.FindString(val), 64); err == nil {
				m.TemperatureC = &v
				m.Evidence.Set("temperature_c", ev)
			}
		case val == "On" && (strings.Contains(key, "alarm") || strings.Contains(key, "warning")):
			m.Alarms = append(m.Alarms, strings.Join(strings.Fields(key), " "))
			m.Evidence.Set("alarms", ev)
		}
	}
	m.LengthM = moduleLength(copper, copperM, om3M, smfKM)
	m.MaxSpeedGbps = moduleMaxSpeed(m)
	if m.MaxSpeedGbps != nil {
		if ev, ok := m.Evidence["compliance"]; ok {
			m.Evidence.Set("max_speed_gbps", ev)
		} else {
			m.Evidence.Set("max_speed_gbps", m.Evidence["nominal_bit_rate_mbps"])
		}
	}
	return m, "", nil
}

var (
	leadingNumberRe = lazyregexp.New(`^-?[0-9]+(\.[0-9]+)?`)
	moduleRateRe    = lazyregexp.New(`(\d+)G(?:BASE|Base| Base| Ethernet|base)`)
	codeNameRe      = lazyregexp.New(`^(0x[0-9a-fA-F]+)\s*(?:\((.*)\))?`)
)

// sffIdentifiers are SFF-8024 identifier codes with the short names ethtool users know.
var sffIdentifiers = map[string]string{
	"0x03": "SFP", "0x0c": "QSFP", "0x0d": "QSFP+", "0x11": "QSFP28",
	"0x18": "QSFP-DD", "0x19": "OSFP", "0x1e": "QSFP+ CMIS",
}

// ibRatesGbps are 4X InfiniBand rates by lane speed name.
var ibRatesGbps = map[string]int{"SDR": 10, "DDR": 20, "QDR": 40, "FDR": 56, "EDR": 100, "HDR": 200, "NDR": 400}

// moduleKeyValue splits "Key   : value" at the colon that ends the padded key column; keys
// such as "Vendor OUI" have colons in their values.
func moduleKeyValue(t string) (string, string, bool) {
	i := strings.Index(t, " : ")
	if i < 0 {
		if strings.HasSuffix(t, " :") {
			return strings.TrimSpace(strings.TrimSuffix(t, ":")), "", true
		}
		return "", "", false
	}
	return strings.TrimSpace(t[:i]), strings.TrimSpace(t[i+3:]), true
}

func codeAndName(val string) (code, name string) {
	m := codeNameRe.FindStringSubmatch(val)
	if m == nil {
		return "", val
	}
	return strings.ToLower(m[1]), m[2]
}

func metres(val string, ev facts.Evidence, m *facts.Module) *float64 {
	v, err := strconv.ParseFloat(leadingNumberRe.FindString(val), 64)
	if err != nil {
		return nil
	}
	if strings.HasSuffix(val, "km") {
		v *= 1000
	}
	if v > 0 {
		m.Evidence.Set("length_m", ev)
	}
	return &v
}

// moduleLength is the cable length of a copper or active assembly, else the fibre reach: for
// separable optics SFF-8636 reuses the copper length byte for OM4, so it is not read then.
func moduleLength(copper bool, copperM, om3M, smfM *float64) *float64 {
	for _, v := range []*float64{pick(copper, copperM), om3M, smfM} {
		if v != nil && *v > 0 {
			return v
		}
	}
	return nil
}

func pick(ok bool, v *float64) *float64 {
	if ok {
		return v
	}
	return nil
}

// moduleMaxSpeed is the fastest rate the compliance codes declare, or that the nominal lane rate
// implies for the form factor's lane count, whichever is higher.
func moduleMaxSpeed(m facts.Module) *int {
	best := 0
	for _, c := range m.Compliance {
		for _, r := range moduleRateRe.FindAllStringSubmatch(c, -1) {
			if v, _ := strconv.Atoi(r[1]); v > best {
				best = v
			}
		}
		if strings.Contains(strings.ToLower(c), "infiniband") {
			for name, v := range ibRatesGbps {
				if strings.Contains(c, name) && v > best {
					best = v
				}
			}
		}
	}
	if m.NominalBitRateMbps != nil {
		if v := laneRateGbps(*m.NominalBitRateMbps) * lanes(m.Identifier); v > best {
			best = v
		}
	}
	if best == 0 {
		return nil
	}
	return &best
}

// laneRateGbps rounds a nominal lane bit rate down to the lane rate it carries, with 2 % slack
// (10300 Mb/s -> 10, 25500 Mb/s -> 25).
func laneRateGbps(mbps int) int {
	for _, r := range []int{100, 50, 25, 10, 1} {
		if float64(mbps) >= float64(r)*1000*0.98 {
			return r
		}
	}
	return int(math.Floor(float64(mbps) / 1000))
}

func lanes(identifier string) int {
	switch {
	case strings.HasPrefix(identifier, "QSFP-DD"), identifier == "OSFP":
		return 8
	case strings.HasPrefix(identifier, "QSFP"):
		return 4
	}
	return 1
}
