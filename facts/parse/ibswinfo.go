package parse

import (
	"strconv"
	"strings"

	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/internal/lazyregexp"
)

// IBSwInfoOutput is what `ibswinfo -d <device>` printed.
type IBSwInfoOutput struct {
	Switch facts.SwitchHealth
	// Refusal is the script's own "error: ..." line (it prints it and exits 1): "must run as
	// root, aborting.", "mlxreg not found, please install MFT (...)".
	Refusal *facts.ToolRefusal
}

var (
	// out_kv prints printf("%-18s %s %s\n", key, "|" or ":", value) and nothing for an empty value.
	ibswinfoKVRe     = lazyregexp.New(`^(\s*)(\S.*?)\s+([|:])\s?(.*?)\s*$`)
	ibswinfoRuleRe   = lazyregexp.New(`^(=+|-+)$`)
	ibswinfoUptimeRe = lazyregexp.New(`^(\d+)d-(\d+):(\d+):(\d+)$`)
	ibswinfoWarnRe   = lazyregexp.New(`^(\d+)/(\d+) \(low/high\)$`)
	ibswinfoFanRe    = lazyregexp.New(`^fan#(\d+)(?:\.speed)? \(rpm\)$`)
	ibswinfoPSURe    = lazyregexp.New(`^(?:PSU(\d+) status|psu(\d+)\.(status|dc|fan))$`)
)

// IBSwInfo parses the output of ibswinfo (github.com/stanford-rc/ibswinfo, ibswinfo.sh), the
// script that reads an unmanaged switch's inventory and health registers with MFT's mlxreg. Its
// default output is a table of "key | value" lines:
//
//	=================================================
//	SwitchIB Mellanox Technologies
//	=================================================
//	part number        | MSB7790-ES2F
//	firmware version   | 11.2008.2102
//	PSU0 status        | OK
//	     DC power      | OK
//	     fan status    | OK
//	temperature (C)    | 45
//	warn threshold (C) | 95/105 (low/high)
//	fan status         | ERROR
//	fan#1 (rpm)        | 8493
//
// and `-o status|vitals|inventory` prints "key : value" lines with its own names (psu0.status,
// psu0.dc, psu0.fan, fans, cur.temp (C), fan#1.speed (rpm), fw_version, ...). Statuses are "OK"
// or "ERROR" (the script prints no other word); the indented "DC power" and "fan status" lines
// belong to the PSU above them. A status the script leaves empty (a managed switch's PSU fan)
// is not printed at all and stays unknown. A value that does not parse, a PSU block without its
// DC power or fan line while the others have one, and a fan section without its "fan status"
// line are problems of the capture.
func IBSwInfo(b []byte) (IBSwInfoOutput, error) {
	var out IBSwInfoOutput
	var probs problems
	sw := &out.Switch
	lines := Lines(b)
	rules, psu := 0, ""
	fanRPMLine := Line{}
	fansSeen, kvSeen := false, false
	psuKeys := map[string]map[string]bool{}
	for _, l := range lines {
		t := strings.TrimSpace(l.Text)
		switch {
		case t == "":
			continue
		case ibswinfoRuleRe.MatchString(t):
			if strings.HasPrefix(t, "=") {
				rules++
			}
			psu = ""
			continue
		case strings.HasPrefix(t, "error: "):
			if out.Refusal == nil {
				out.Refusal = &facts.ToolRefusal{Tool: "ibswinfo", Message: t, Evidence: l.Evidence()}
			}
			continue
		case strings.HasPrefix(t, "warning: "):
			continue // "warning: Not tested with MFT version 4.32.0, YMMV"
		}
		if rules == 1 && !kvSeen && sw.NodeDescription == "" {
			// The line between the first two "=====" rules is the node description, whatever
			// it holds (" : " included).
			sw.NodeDescription = t
			sw.Evidence.Set("node_description", l.Evidence())
			continue
		}
		m := ibswinfoKVRe.FindStringSubmatch(l.Text)
		if m == nil {
			probs.add(l, "not an ibswinfo \"key | value\" line")
			continue
		}
		kvSeen = true
		indented, key, val := m[1] != "", m[2], m[4]
		if !indented {
			psu = ""
		}
		if pm := ibswinfoPSURe.FindStringSubmatch(key); pm != nil {
			n, name := pm[1]+pm[2], pm[3]
			if name == "" {
				name = "status"
				psu = n
			}
			ibswinfoStatus(sw, &probs, l, "psu"+n+"."+name, val)
			ibswinfoPSUKey(psuKeys, n, name)
			continue
		}
		if indented && psu != "" {
			switch key {
			case "DC power":
				ibswinfoStatus(sw, &probs, l, "psu"+psu+".dc", val)
				ibswinfoPSUKey(psuKeys, psu, "dc")
			case "fan status":
				ibswinfoStatus(sw, &probs, l, "psu"+psu+".fan", val)
				ibswinfoPSUKey(psuKeys, psu, "fan")
			}
			continue // P/N, S/N, power (W)
		}
		if fm := ibswinfoFanRe.FindStringSubmatch(key); fm != nil {
			rpm, err := strconv.Atoi(val)
			if err != nil {
				probs.add(l, "fan speed %q is not a number of rpm", val)
				continue
			}
			if sw.FanRPM == nil {
				sw.FanRPM = map[string]int{}
			}
			sw.FanRPM[fm[1]] = rpm
			sw.Evidence.Set("fan_rpm."+fm[1], l.Evidence())
			if fanRPMLine.N == 0 && !strings.Contains(key, ".speed") {
				fanRPMLine = l // the default table; -o vitals prints speeds without a status
			}
			continue
		}
		switch key {
		case "fan status", "fans":
			ibswinfoStatus(sw, &probs, l, "fans", val)
			fansSeen = true
		case "node_description":
			sw.NodeDescription = val
			sw.Evidence.Set("node_description", l.Evidence())
		case "GUID":
			g, ok := GUID(val)
			if !ok {
				probs.add(l, "GUID %q is not 0x and up to 16 hex digits", val)
				continue
			}
			sw.GUID = g
			sw.Evidence.Set("guid", l.Evidence())
		case "part number", "part_number", "product name", "product_name", "PSID", "firmware version", "fw_version":
			field, dst := ibswinfoText(sw, key)
			*dst = val
			sw.Evidence.Set(field, l.Evidence())
		case "uptime (d-h:m:s)", "uptime (sec)":
			s, ok := ibswinfoUptime(val)
			if !ok {
				probs.add(l, "uptime %q is not d-h:m:s or seconds", val)
				continue
			}
			sw.UptimeSeconds = &s
			sw.Evidence.Set("uptime_seconds", l.Evidence())
		case "temperature (C)", "cur.temp (C)":
			ibswinfoCelsius(&sw.TemperatureC, sw, &probs, l, "temperature_c", val)
		case "max temp (C)", "max.temp (C)":
			ibswinfoCelsius(&sw.MaxTemperatureC, sw, &probs, l, "max_temperature_c", val)
		case "warn threshold (C)":
			wm := ibswinfoWarnRe.FindStringSubmatch(val)
			if wm == nil {
				probs.add(l, "warning threshold %q is not LOW/HIGH (low/high)", val)
				continue
			}
			sw.WarnLowC, sw.WarnHighC = atoiPtr(wm[1]), atoiPtr(wm[2])
			sw.Evidence.Set("warn_low_c", l.Evidence())
			sw.Evidence.Set("warn_high_c", l.Evidence())
		}
	}
	if fanRPMLine.N != 0 && !fansSeen {
		// The script prints "fan status" before the tachometers whenever it read the fans.
		probs.add(fanRPMLine, "fan speeds without the \"fan status\" line before them: the fans' status is unknown")
	}
	ibswinfoPSUComplete(&probs, psuKeys, lines)
	probs.replaced(lines)
	probs.cut(b, lines, true)
	return out, probs.err()
}

// ibswinfoText is the field a text key of either output form fills, and its JSON name.
func ibswinfoText(sw *facts.SwitchHealth, key string) (string, *string) {
	switch key {
	case "part number", "part_number":
		return "part_number", &sw.PartNumber
	case "product name", "product_name":
		return "product_name", &sw.ProductName
	case "PSID":
		return "psid", &sw.PSID
	}
	return "firmware_version", &sw.FirmwareVersion
}

// ibswinfoStatus records one OK/ERROR word.
func ibswinfoStatus(sw *facts.SwitchHealth, probs *problems, l Line, name, val string) {
	if val != "OK" && val != "ERROR" {
		probs.add(l, "status %q is neither OK nor ERROR", val)
		return
	}
	for _, s := range sw.Statuses {
		if s.Name == name {
			if s.Value != val {
				probs.add(l, "%s printed twice with different values", name)
			}
			return
		}
	}
	sw.Statuses = append(sw.Statuses, facts.SwitchStatus{Name: name, Value: val, Evidence: l.Evidence()})
}

// ibswinfoPSUKey notes that PSU n printed status line name.
func ibswinfoPSUKey(keys map[string]map[string]bool, n, name string) {
	if keys[n] == nil {
		keys[n] = map[string]bool{}
	}
	keys[n][name] = true
}

// ibswinfoPSUComplete names a PSU that lacks a status line another PSU has: the script prints
// the same lines for every PSU, so the capture lost it.
func ibswinfoPSUComplete(probs *problems, keys map[string]map[string]bool, lines []Line) {
	all := map[string]bool{}
	for _, k := range keys {
		for name := range k {
			all[name] = true
		}
	}
	for n, k := range keys {
		for _, name := range []string{"status", "dc", "fan"} {
			if all[name] && !k[name] {
				probs.add(Line{}, "PSU%s has no %s line while another PSU has one: the capture lost it", n, name)
			}
		}
	}
}

func ibswinfoCelsius(dst **int, sw *facts.SwitchHealth, probs *problems, l Line, field, val string) {
	c, err := strconv.Atoi(val)
	if err != nil {
		probs.add(l, "temperature %q is not a number of degrees Celsius", val)
		return
	}
	*dst = &c
	sw.Evidence.Set(field, l.Evidence())
}

// ibswinfoUptime reads "160d-10:38:53" (sec_to_dhms) or a number of seconds.
func ibswinfoUptime(v string) (int64, bool) {
	if m := ibswinfoUptimeRe.FindStringSubmatch(v); m != nil {
		var n [4]int64
		for i := range n {
			x, err := strconv.ParseInt(m[i+1], 10, 64)
			if err != nil {
				return 0, false
			}
			n[i] = x
		}
		return n[0]*86400 + n[1]*3600 + n[2]*60 + n[3], true
	}
	s, err := strconv.ParseInt(v, 10, 64)
	return s, err == nil
}
