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
// are clamped to math.MaxInt64; lines without a numeric value (section titles) are skipped. Each counter's evidence is under "stats.<name>". A refusal
// ("no stats available", "Cannot get stats strings information: ...") is returned as refusal.
func EthtoolStats(b []byte) (stats map[string]int64, ev facts.EvidenceMap, refusal string, err error) {
	for _, l := range Lines(b) {
		t := strings.TrimSpace(l.Text)
		if t == "" || strings.HasSuffix(t, "statistics:") {
			continue
		}
		if strings.HasPrefix(t, "Cannot get") || t == "no stats available" {
			return stats, ev, t, nil
		}
		i := strings.LastIndex(t, ":")
		if i < 0 {
			continue
		}
		name, val := strings.TrimSpace(t[:i]), strings.TrimSpace(t[i+1:])
		v, err := strconv.ParseInt(val, 10, 64)
		if err != nil {
			if _, uerr := strconv.ParseUint(val, 10, 64); uerr != nil {
				continue // a section title or a driver's non-counter line
			}
			v = math.MaxInt64
		}
		if stats == nil {
			stats = map[string]int64{}
		}
		stats[name] = v
		ev.Set("stats."+name, l.Evidence())
	}
	return stats, ev, "", nil
}
