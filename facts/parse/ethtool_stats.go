package parse

import (
	"math"
	"strconv"
	"strings"

	"github.com/rdmadoctor/rdmadoctor/facts"
)

// EthtoolStats parses `ethtool -S <if>` (ethtool.c do_gnicstats):
//
//	NIC statistics:
//	     rx_packets: 333854100
//	     rx_discards_phy: 58591428329
//
// Counter names are trimmed (some drivers pad them with spaces); values above the int64 range
// are clamped to math.MaxInt64; lines ending in ":" (section titles) and lines without ":" are
// skipped. Each counter's evidence is under "stats.<name>". A refusal ("no stats available",
// "Cannot get stats strings information: ...") is returned as refusal.
//
// A counter whose value is not a number, and a last line without its newline (ethtool ends
// every line with one: the capture was cut there, maybe mid-value), are the problems of a
// partial read (err is a Problems): that counter is dropped, the others are kept.
func EthtoolStats(b []byte) (stats map[string]int64, ev facts.EvidenceMap, refusal string, err error) {
	var probs problems
	lines := Lines(b)
	cut := len(b) > 0 && b[len(b)-1] != '\n'
	for n, l := range lines {
		t := strings.TrimSpace(l.Text)
		if strings.HasPrefix(t, "Cannot get") || t == "no stats available" {
			return stats, ev, t, probs.err()
		}
		if cut && n == len(lines)-1 {
			break // named by probs.cut below: its value may be a prefix of the real one
		}
		if t == "" || strings.HasSuffix(t, ":") {
			continue
		}
		i := strings.LastIndex(t, ":")
		if i < 0 {
			continue
		}
		name, val := strings.TrimSpace(t[:i]), strings.TrimSpace(t[i+1:])
		v, err := strconv.ParseInt(val, 10, 64)
		if err != nil {
			if _, uerr := strconv.ParseUint(val, 10, 64); uerr != nil {
				probs.add(l, "%s: value %q is not a number", name, val)
				continue
			}
			v = math.MaxInt64
		}
		if stats == nil {
			stats = map[string]int64{}
		}
		stats[name] = v
		ev.Set("stats."+name, l.Evidence())
	}
	// Every line of ethtool -S is complete only with its newline: a value can be cut anywhere.
	probs.cut(b, lines, true)
	return stats, ev, "", probs.err()
}
