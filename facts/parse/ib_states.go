package parse

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/rdmadoctor/rdmadoctor/internal/lazyregexp"
)

// The same PortInfo values reach us in four renderings (rule-catalog §3.1):
// ibstat "Initializing", sysfs "2: INIT", ibv_devinfo "PORT_INIT (2)", rdma link "INIT".
// Everything is normalised to ibstat's words, the names rdma-core's ibstat.c prints
// (port_state_str, port_phy_state_str).

var portStates = []string{1: "Down", 2: "Initializing", 3: "Armed", 4: "Active"}

var physStates = []string{1: "Sleep", 2: "Polling", 3: "Disabled", 4: "PortConfigurationTraining",
	5: "LinkUp", 6: "LinkErrorRecovery", 7: "PhyTest"}

// portStateWords maps an upper-case rendering without punctuation to a state code.
var portStateWords = map[string]int{
	"DOWN": 1, "PORTDOWN": 1,
	"INIT": 2, "INITIALIZE": 2, "INITIALIZING": 2, "PORTINIT": 2,
	"ARMED": 3, "PORTARMED": 3,
	"ACTIVE": 4, "PORTACTIVE": 4,
}

var physStateWords = map[string]int{
	"SLEEP": 1, "POLLING": 2, "DISABLED": 3,
	// ibv_devinfo spells it "PORT_CONFIGURATION TRAINNING" (sic).
	"PORTCONFIGURATIONTRAINING": 4, "PORTCONFIGURATIONTRAINNING": 4,
	"LINKUP": 5, "LINKERRORRECOVERY": 6, "PHYTEST": 7,
}

// stateCodeRe finds the numeric code of "4: ACTIVE" (sysfs, ibstatus) or "PORT_ACTIVE (4)" (ibv_devinfo).
var stateCodeRe = lazyregexp.New(`^\s*(\d+)\s*:|\((\d+)\)\s*$`)

// PortState normalises a logical port state in any rendering to Down, Initializing, Armed or
// Active. ok is false for anything else (including code 0, "no state change").
func PortState(s string) (state string, ok bool) {
	return normState(s, portStates, portStateWords)
}

// PhysicalState normalises a physical port state in any rendering to Sleep, Polling, Disabled,
// PortConfigurationTraining, LinkUp, LinkErrorRecovery or PhyTest. ok is false for anything
// else, e.g. "0: <unknown>" from paravirtual devices.
func PhysicalState(s string) (state string, ok bool) {
	return normState(s, physStates, physStateWords)
}

func normState(s string, names []string, words map[string]int) (string, bool) {
	if m := stateCodeRe.FindStringSubmatch(s); m != nil {
		code := m[1] + m[2]
		n, err := strconv.Atoi(code)
		if err == nil && n > 0 && n < len(names) {
			return names[n], true
		}
		return "", false
	}
	key := strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z':
			return r - 'a' + 'A'
		case r >= 'A' && r <= 'Z':
			return r
		}
		return -1
	}, s)
	if n, ok := words[key]; ok {
		return names[n], true
	}
	return "", false
}

// laneGbps is the per-lane data rate of each IB speed name, as the kernel's rate_show and
// ibstat compute rates (rule-catalog §3.2).
var laneGbps = map[string]float64{
	"SDR": 2.5, "DDR": 5, "QDR": 10, "FDR10": 10, "FDR": 14, "EDR": 25, "HDR": 50, "NDR": 100, "XDR": 200,
}

// speedCodes maps ibv_devinfo's active_speed encoding, e.g. "25.0 Gbps (32)", to the speed name
// (libibverbs ibv_port_attr.active_speed; ext speeds from active_speed_ex).
var speedCodes = map[int]string{1: "SDR", 2: "DDR", 4: "QDR", 8: "FDR10", 16: "FDR", 32: "EDR", 64: "HDR", 128: "NDR", 256: "XDR"}

// Rate is a port's link rate as sysfs `rate` or ibstatus print it, e.g. "100 Gb/sec (4X EDR)".
type Rate struct {
	Gbps       *float64
	WidthLanes *int
	// LaneSpeed is SDR ... XDR; empty when the output leaves it out ("10 Gb/sec (4X)").
	LaneSpeed string
}

var rateRe = lazyregexp.New(`^\s*([0-9]+(?:\.[0-9]+)?)\s*Gb/sec\s*(?:\((\d+)X\s*([A-Za-z0-9]*)\s*\))?\s*$`)

// SysfsRate parses "%d Gb/sec (%dX%s)", the format of sysfs ports/N/rate (kernel rate_show) and
// of ibstatus's "rate:" line: "100 Gb/sec (4X EDR)", "2.5 Gb/sec (1X SDR)", "10 Gb/sec (4X)".
func SysfsRate(s string) (Rate, error) {
	m := rateRe.FindStringSubmatch(s)
	if m == nil {
		return Rate{}, fmt.Errorf("rate %q: not \"N Gb/sec (WX SPEED)\"", s)
	}
	var r Rate
	g, err := strconv.ParseFloat(m[1], 64)
	if err != nil {
		return Rate{}, fmt.Errorf("rate %q: %w", s, err)
	}
	r.Gbps = &g
	if m[2] != "" {
		w, err := strconv.Atoi(m[2])
		if err != nil {
			return Rate{}, fmt.Errorf("rate %q: %w", s, err)
		}
		r.WidthLanes = &w
	}
	if _, ok := laneGbps[strings.ToUpper(m[3])]; ok {
		r.LaneSpeed = strings.ToUpper(m[3])
	}
	return r, nil
}

var ibstatRateRe = lazyregexp.New(`^\s*([0-9]+(?:\.[0-9]+)?)\s*(?:\(([A-Za-z0-9]+)\))?\s*$`)

// IBStatRate parses ibstat's "Rate:" value: the total rate in Gb/s as width × lane speed, an
// integer except "2.5" (1X SDR), with "(FDR10)" appended for FDR10 (ibstat.c port_dump).
func IBStatRate(s string) (Rate, error) {
	m := ibstatRateRe.FindStringSubmatch(s)
	if m == nil {
		return Rate{}, fmt.Errorf("rate %q: not a number", s)
	}
	g, err := strconv.ParseFloat(m[1], 64)
	if err != nil {
		return Rate{}, fmt.Errorf("rate %q: %w", s, err)
	}
	r := Rate{Gbps: &g}
	if _, ok := laneGbps[strings.ToUpper(m[2])]; ok {
		r.LaneSpeed = strings.ToUpper(m[2])
	}
	return r, nil
}

var widthRe = lazyregexp.New(`^\s*(\d+)X\b`)

// ActiveWidth parses ibv_devinfo's "active_width: 4X (2)" value into lanes.
func ActiveWidth(s string) (int, bool) {
	m := widthRe.FindStringSubmatch(s)
	if m == nil {
		return 0, false
	}
	n, err := strconv.Atoi(m[1])
	return n, err == nil
}

var parenCodeRe = lazyregexp.New(`\((\d+)\)\s*$`)

// ActiveSpeed parses ibv_devinfo's "active_speed: 25.0 Gbps (32)" value into the speed name
// (EDR) and its per-lane rate; the encoding in parentheses tells QDR (4) from FDR10 (8).
func ActiveSpeed(s string) (lane string, laneRate float64, ok bool) {
	m := parenCodeRe.FindStringSubmatch(s)
	if m == nil {
		return "", 0, false
	}
	n, err := strconv.Atoi(m[1])
	if err != nil {
		return "", 0, false
	}
	name, ok := speedCodes[n]
	if !ok {
		return "", 0, false
	}
	return name, laneGbps[name], true
}

// MTUBytes parses ibv_devinfo's "4096 (5)" MTU values.
func MTUBytes(s string) (int, bool) {
	f := strings.Fields(s)
	if len(f) == 0 {
		return 0, false
	}
	n, err := strconv.Atoi(f[0])
	if err != nil || n <= 0 {
		return 0, false
	}
	return n, true
}

// GUID normalises a GUID to "0x" and 16 lower-case hex digits. It accepts the forms the tools
// print: "0xec0d9a030044c34c" (ibstat), "ec0d:9a03:0044:c34c" (sysfs node_guid, ibv_devinfo),
// "248a0703004bf0a8" (ibv_devices), and unpadded "0x2c90200259201" (sminfo).
func GUID(s string) (string, bool) {
	s = strings.TrimSpace(s)
	h := strings.TrimPrefix(strings.TrimPrefix(s, "0x"), "0X")
	h = strings.ReplaceAll(h, ":", "")
	if h == "" || len(h) > 16 {
		return "", false
	}
	v, err := strconv.ParseUint(h, 16, 64)
	if err != nil {
		return "", false
	}
	return fmt.Sprintf("0x%016x", v), true
}

// capIsSMDisabled is PortInfo CapabilityMask bit 10 (IB_PORT_SM_DISABLED = 1 << 10 in the
// kernel's ib_verbs.h and rdma-core's verbs.h).
const capIsSMDisabled = 1 << 10

// SMDisabled reports whether a capability mask such as "0xa751ec48" has IsSMDisabled set.
func SMDisabled(mask string) (disabled, ok bool) {
	v, err := strconv.ParseUint(strings.TrimPrefix(strings.TrimSpace(mask), "0x"), 16, 32)
	if err != nil {
		return false, false
	}
	return v&capIsSMDisabled != 0, true
}

// hexOrDecimal parses "0x30c" (ibstatus LIDs) or "780".
func hexOrDecimal(s string) (int, bool) {
	s = strings.TrimSpace(s)
	base := 10
	if strings.HasPrefix(s, "0x") || strings.HasPrefix(s, "0X") {
		s, base = s[2:], 16
	}
	v, err := strconv.ParseInt(s, base, 64)
	if err != nil || v < 0 || v > 1<<31-1 {
		return 0, false
	}
	return int(v), true
}

// gidIPv4 returns the dotted IPv4 address embedded in an IPv4-mapped GID
// ("0000:0000:0000:0000:0000:ffff:c0a8:640a" -> "192.168.100.10"), else "".
func gidIPv4(gid string) string {
	parts := strings.Split(gid, ":")
	if len(parts) != 8 {
		return ""
	}
	for _, p := range parts[:5] {
		if v, err := strconv.ParseUint(p, 16, 16); err != nil || v != 0 {
			return ""
		}
	}
	if !strings.EqualFold(parts[5], "ffff") {
		return ""
	}
	hi, err1 := strconv.ParseUint(parts[6], 16, 16)
	lo, err2 := strconv.ParseUint(parts[7], 16, 16)
	if err1 != nil || err2 != nil {
		return ""
	}
	return fmt.Sprintf("%d.%d.%d.%d", hi>>8, hi&0xff, lo>>8, lo&0xff)
}

// subnetPrefix returns the first four groups of a GID, e.g. "fe80:0000:0000:0000".
func subnetPrefix(gid string) string {
	parts := strings.Split(gid, ":")
	if len(parts) != 8 {
		return ""
	}
	return strings.Join(parts[:4], ":")
}
