package parse

import (
	"sort"
	"strconv"
	"strings"

	"github.com/rdmadoctor/rdmadoctor/facts"
)

// Small value helpers shared by the parsers in this package.

func intPtr(v int) *int             { return &v }
func boolPtr(v bool) *bool          { return &v }
func float64Ptr(v float64) *float64 { return &v }

func sortInts(v []int) { sort.Ints(v) }

// atoiPtr returns the integer in s, or nil when s is not one.
func atoiPtr(s string) *int {
	n, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil {
		return nil
	}
	return &n
}

// onOff reads ethtool's and ip's "on"/"off", "yes"/"no" words; ok is false for anything else.
func onOff(s string) (v, ok bool) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "on", "yes", "true", "1":
		return true, true
	case "off", "no", "false", "0":
		return false, true
	}
	return false, false
}

// keyValue splits "Key:  value" at the first colon; ok is false without one.
func keyValue(s string) (key, value string, ok bool) {
	k, v, ok := strings.Cut(s, ":")
	if !ok {
		return "", "", false
	}
	return strings.TrimSpace(k), strings.TrimSpace(v), true
}

// setOnce sets *dst to val and records line l as the evidence of field, unless val is empty or
// *dst already holds a value: the first occurrence of a key wins.
func setOnce(dst *string, ev *facts.EvidenceMap, field, val string, l Line) {
	if val == "" || *dst != "" {
		return
	}
	*dst = val
	ev.Set(field, l.Evidence())
}

// firmwareVersion reports whether v reads as a firmware version as ibstat and ibv_devinfo print
// it: numbers joined by dots ("20.41.1000", "2.3.000"), nothing when the driver has none, or
// "xx.xx.xxxx" where whoever posted the capture masked it. A word in place of a number is damage.
func firmwareVersion(v string) bool {
	if v == "" {
		return true
	}
	for _, part := range strings.Split(v, ".") {
		if part == "" || (strings.Trim(part, "0123456789") != "" && strings.Trim(part, "xX") != "") {
			return false
		}
	}
	return true
}
