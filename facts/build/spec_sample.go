package build

import (
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strconv"
	"strings"

	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/facts/parse"
	"github.com/rdmadoctor/rdmadoctor/internal/lazyregexp"
)

// The second read of `rdmadoctor gather --sample DURATION` lives under sample/, with the same
// relative paths as the first read at the snapshot's root:
//
//	sample/interval_seconds                                    seconds between the reads, e.g. "10.002"
//	sample/sys/class/infiniband/<dev>/ports/<n>/counters/<c>    second read of each port counter
//	sample/sys/class/infiniband/<dev>/ports/<n>/hw_counters/<c>
//	sample/sos_commands/networking/ethtool_-S_<if>              second `ethtool -S <if>`
//
// Deltas are second minus first; a counter that went down (reset, wrap) or is missing from
// either read has no delta.

// SampleRoot is the folder of the second read.
const SampleRoot = "sample"

var sampleCounterRe = lazyregexp.New(`^sample/(sys/class/infiniband/([^/]+)/ports/([0-9]+)/(?:hw_)?counters/([^/]+))$`)

func init() {
	register(Spec{
		Name:        "counter_sample",
		Root:        SampleRoot,
		Tree:        sampleTree,
		Priority:    90,
		MissingHint: "counter rates need two reads: rdmadoctor gather --sample 10s",
		Groups:      []string{"counter_deltas"},
	})
}

func sampleTree(s *facts.Snapshot, fsys fs.FS) []facts.Source {
	ivPath := path.Join(SampleRoot, "interval_seconds")
	b, err := fs.ReadFile(fsys, ivPath)
	if err != nil {
		return []facts.Source{{Name: "counter_sample", Origin: ivPath, Status: facts.StatusError, Error: err.Error()}}
	}
	iv, err := strconv.ParseFloat(strings.TrimSpace(string(b)), 64)
	if err != nil || iv <= 0 {
		return []facts.Source{{Name: "counter_sample", Origin: ivPath, Status: facts.StatusError,
			Error: fmt.Sprintf("%s: %q is not a positive number of seconds", ivPath, strings.TrimSpace(string(b)))}}
	}
	s.Sample = &facts.CounterSample{IntervalSeconds: iv}

	ports := map[string]map[int]map[string]int64{} // device -> port -> counter -> delta
	var stats []string
	err = fs.WalkDir(fsys, SampleRoot, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return nil
		}
		if m := sampleCounterRe.FindStringSubmatch(p); m != nil {
			delta, ok := counterDelta(fsys, m[1], p)
			if !ok {
				return nil
			}
			n, _ := strconv.Atoi(m[3])
			if ports[m[2]] == nil {
				ports[m[2]] = map[int]map[string]int64{}
			}
			if ports[m[2]][n] == nil {
				ports[m[2]][n] = map[string]int64{}
			}
			ports[m[2]][n][m[4]] = delta
		} else if strings.HasPrefix(path.Base(p), "ethtool_-S_") {
			stats = append(stats, p)
		}
		return nil
	})
	if err != nil {
		return []facts.Source{{Name: "counter_sample", Origin: SampleRoot, Status: facts.StatusError, Error: err.Error()}}
	}

	var srcs []facts.Source
	for _, dev := range sampleKeys(ports) {
		d := facts.Device{Name: dev}
		for n, deltas := range ports[dev] {
			d.Ports = append(d.Ports, facts.Port{Number: n, CounterDeltas: deltas})
		}
		sort.Slice(d.Ports, func(i, j int) bool { return d.Ports[i].Number < d.Ports[j].Number })
		origin := path.Join(SampleRoot, "sys/class/infiniband", dev)
		addDevice(s, Input{Spec: "counter_sample", Path: origin}, d)
		srcs = append(srcs, facts.Source{Name: "counter_sample", Origin: origin, Status: facts.StatusOK})
	}
	for _, p := range stats {
		srcs = append(srcs, statsDeltas(s, fsys, p))
	}
	return srcs
}

func sampleKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// counterDelta reads a sysfs counter at first and second and returns second-first.
func counterDelta(fsys fs.FS, first, second string) (int64, bool) {
	a, okA := readCounter(fsys, first)
	b, okB := readCounter(fsys, second)
	if !okA || !okB || b < a {
		return 0, false
	}
	return int64(min(b-a, 1<<63-1)), true
}

func readCounter(fsys fs.FS, p string) (uint64, bool) {
	b, err := fs.ReadFile(fsys, p)
	if err != nil {
		return 0, false
	}
	v, err := strconv.ParseUint(strings.TrimSpace(string(b)), 10, 64)
	return v, err == nil
}

// statsDeltas turns the two `ethtool -S` reads of one interface into Netdev.StatsDeltas.
func statsDeltas(s *facts.Snapshot, fsys fs.FS, second string) facts.Source {
	first := strings.TrimPrefix(second, SampleRoot+"/")
	src := facts.Source{Name: "counter_sample", Origin: second, Status: facts.StatusOK}
	read := func(p string) (map[string]int64, error) {
		b, err := fs.ReadFile(fsys, p)
		if err != nil {
			return nil, err
		}
		st, _, refusal, err := parse.EthtoolStats(b)
		if err == nil && refusal != "" {
			err = fmt.Errorf("%s", refusal)
		}
		return st, err
	}
	a, err := read(first)
	if err != nil {
		src.Status, src.Error = facts.StatusError, fmt.Sprintf("%s: %v", first, err)
		return src
	}
	b, err := read(second)
	if err != nil {
		src.Status, src.Error = facts.StatusError, fmt.Sprintf("%s: %v", second, err)
		return src
	}
	deltas := map[string]int64{}
	for k, v := range b {
		if old, ok := a[k]; ok && v >= old {
			deltas[k] = v - old
		}
	}
	name := strings.TrimPrefix(path.Base(second), "ethtool_-S_")
	addNetdev(s, Input{Spec: "counter_sample", Path: second}, facts.Netdev{Name: name, StatsDeltas: deltas})
	return src
}
