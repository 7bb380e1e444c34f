package parse

import (
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/internal/lazyregexp"
)

// DeviceStatistics is the last table ibv_display_local_infiniband_device_statistics printed.
type DeviceStatistics struct {
	// ElapsedSeconds is N of the last "Statistics after N seconds" header; 0 for an excerpt without one.
	ElapsedSeconds int
	// IntervalSeconds is the time the deltas cover: the tool reads the counters every
	// STATISTICS_COLLECTION_PERIOD_SECS (10 s) and prints the increase since the previous read.
	IntervalSeconds float64
	// Devices hold the counters of the last table: per-device hw_counters in Device.HWCounters and
	// HWCounterDeltas, per-port ones in Port.Counters (PortCounters names) or Port.HWCounters
	// (others), with Port.CounterDeltas. A counter the tool printed without "(+N)" did not change
	// (delta 0); a counter it did not print was zero (the tool prints only non-zero values).
	Devices []facts.Device
	// Refusal is the tool's "No Infiniband devices found".
	Refusal string
}

// deviceStatisticsPeriod is STATISTICS_COLLECTION_PERIOD_SECS of the tool.
const deviceStatisticsPeriod = 10

var (
	devStatsHeaderRe = lazyregexp.New(`^Statistics after (\d+) seconds$`)
	devStatsValueRe  = lazyregexp.New(`^(\d+)(?:\(\+(\d+)\))?$`)
	devStatsNameRe   = lazyregexp.New(`^[A-Za-z][A-Za-z0-9_]*$`)
)

// portCounterNames are the sysfs ports/N/counters/ files (kernel drivers/infiniband/core/sysfs.c);
// any other per-port name comes from ports/N/hw_counters/.
var portCounterNames = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for _, n := range perfqueryNames {
		m[n] = true
	}
	return m
})

// IBVDeviceStatistics parses the output of ibv_display_local_infiniband_device_statistics, a
// sysfs counter monitor from github.com/Chester-Gillon/ibv_message_passing
// (ibv_message_passing_c_project/source/ibv_display_local_infiniband_device_statistics/*.c). Every
// 10 s it prints the non-zero counters of /sys/class/infiniband/<dev>/hw_counters (no port) and
// ports/<n>/{counters,hw_counters}, with the increase since the previous read:
//
//	Statistics after 50 seconds
//	Counter name                     Device  Port  Counter value(delta)
//	sq_num_oos                       mlx4_0        7638(+103)
//	port_xmit_data                   mlx4_0     2  102664172181(+19181468)
//
// Only the last table is kept. Lines before the first table ("Press Ctrl-C ...", "Only 3 of 4
// counters in ... are supported") are ignored; counter lines without a header (a grep excerpt) are
// read as one table.
func IBVDeviceStatistics(b []byte) (DeviceStatistics, error) {
	out := DeviceStatistics{IntervalSeconds: deviceStatisticsPeriod}
	var devs []facts.Device
	inTable := false
	for _, l := range Lines(b) {
		t := strings.TrimSpace(l.Text)
		switch {
		case t == "":
			inTable = false
			continue
		case t == "No Infiniband devices found":
			out.Refusal = t
			continue
		case strings.HasPrefix(t, "Counter name"):
			inTable = true
			continue
		}
		if m := devStatsHeaderRe.FindStringSubmatch(t); m != nil {
			out.ElapsedSeconds, _ = strconv.Atoi(m[1])
			devs = nil
			continue
		}
		c, ok, err := devStatsLine(l)
		if err != nil {
			if inTable {
				return DeviceStatistics{}, err
			}
			continue
		}
		if ok {
			devs = addDevStat(devs, c)
		}
	}
	for i := range devs {
		sort.Slice(devs[i].Ports, func(a, b int) bool { return devs[i].Ports[a].Number < devs[i].Ports[b].Number })
	}
	sort.Slice(devs, func(a, b int) bool { return devs[a].Name < devs[b].Name })
	out.Devices = devs
	return out, nil
}

type devStat struct {
	name, device string
	port         int // 0 for a per-device counter
	value, delta int64
	ev           facts.Evidence
}

// devStatsLine reads "<name> <device> [<port>] <value>[(+<delta>)]".
func devStatsLine(l Line) (devStat, bool, error) {
	f := strings.Fields(l.Text)
	if len(f) != 3 && len(f) != 4 {
		return devStat{}, false, l.Errorf("want counter, device, [port,] value")
	}
	if !devStatsNameRe.MatchString(f[0]) {
		return devStat{}, false, l.Errorf("%q is not a counter name", f[0])
	}
	c := devStat{name: f[0], device: f[1], ev: l.Evidence()}
	if len(f) == 4 {
		p, err := strconv.Atoi(f[2])
		if err != nil || p < 1 {
			return devStat{}, false, l.Errorf("port %q is not a number", f[2])
		}
		c.port = p
	}
	m := devStatsValueRe.FindStringSubmatch(f[len(f)-1])
	if m == nil {
		return devStat{}, false, l.Errorf("value %q is not a count", f[len(f)-1])
	}
	var err error
	if c.value, err = strconv.ParseInt(m[1], 10, 64); err != nil {
		return devStat{}, false, l.Errorf("value %q: %v", m[1], err)
	}
	if m[2] != "" {
		if c.delta, err = strconv.ParseInt(m[2], 10, 64); err != nil {
			return devStat{}, false, l.Errorf("delta %q: %v", m[2], err)
		}
	}
	return c, true, nil
}

func addDevStat(devs []facts.Device, c devStat) []facts.Device {
	i := 0
	for i < len(devs) && devs[i].Name != c.device {
		i++
	}
	if i == len(devs) {
		devs = append(devs, facts.Device{Name: c.device})
	}
	d := &devs[i]
	if c.port == 0 {
		d.HWCounters = setCount(d.HWCounters, c.name, c.value)
		d.HWCounterDeltas = setCount(d.HWCounterDeltas, c.name, c.delta)
		d.Evidence.Set("hw_counters."+c.name, c.ev)
		d.Evidence.Set("hw_counter_deltas."+c.name, c.ev)
		return devs
	}
	j := 0
	for j < len(d.Ports) && d.Ports[j].Number != c.port {
		j++
	}
	if j == len(d.Ports) {
		d.Ports = append(d.Ports, facts.Port{Number: c.port})
	}
	p := &d.Ports[j]
	dir := "hw_counters"
	if portCounterNames()[c.name] {
		dir = "counters"
		p.Counters = setCount(p.Counters, c.name, c.value)
	} else {
		p.HWCounters = setCount(p.HWCounters, c.name, c.value)
	}
	p.CounterDeltas = setCount(p.CounterDeltas, c.name, c.delta)
	p.Evidence.Set(dir+"."+c.name, c.ev)
	p.Evidence.Set("counter_deltas."+c.name, c.ev)
	return devs
}

func setCount(m map[string]int64, k string, v int64) map[string]int64 {
	if m == nil {
		m = map[string]int64{}
	}
	m[k] = v
	return m
}
