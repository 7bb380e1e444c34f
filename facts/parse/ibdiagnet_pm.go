package parse

import (
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/internal/lazyregexp"
)

var pmHeadRe = lazyregexp.New(`^Port=(\d+) Lid=(0x[0-9a-fA-F]+|\d+) GUID=(0x[0-9a-fA-F]+)(?: Device=(\d+))?(?: Port Name=(.*))?$`)

// IBDiagnetPM reads ibdiagnet2.pm (NVIDIA ibdiagnet 2.x), the PortCounters of every port it
// reached, line by line:
//
//	-------------------------------------------------------
//	Port=1 Lid=0x0049 GUID=0xc470bd0300100612 Device=4129 Port Name=node25/mlx5_9/B143D0F0/0/0/1
//	-------------------------------------------------------
//	link_down_counter=0x00000000
//	symbol_error_counter=0x0000ffff
//	port_rcv_errors=0x00000083
//	...
//	port_sw_hoq_lifetime_limit_discards=NA
//
// GUID is the port GUID (a switch's ports share the switch's). The values are the counters since
// they were last cleared, the second of ibdiagnet's two reads; counters are kept by their sysfs
// names (ibdiagnetCounterNames), NA (not supported) is left out. ibdiagnet prints the same keys
// for every port of a run: a port block without a key the other blocks have, a key twice in a
// block, a value that is not a number, or a file without ibdiagnet's closing "# File closed at"
// line (it was cut) is a problem of the capture.
// Ports beyond MaxFabricPorts are counted, not kept.
func IBDiagnetPM(r io.Reader) ([]facts.FabricPort, error) {
	var out []facts.FabricPort
	var probs problems
	keyIndex := map[string]int{} // every counter key seen, numbered
	var blockKeys [][]bool       // per block: which numbered keys it printed
	var heads []Line
	var cur *facts.FabricPort
	var curKeys map[string]bool
	dropped := 0
	closed := false
	err := EachLine(r, func(l Line) {
		l.Text = strings.Clone(l.Text) // EachLine's text is only valid during the call
		t := l.Text
		if strings.HasPrefix(t, ibdiagnetClosed) {
			closed = true
			return
		}
		if t == "" || strings.HasPrefix(t, "#") || strings.HasPrefix(t, "---") {
			return
		}
		if strings.ContainsRune(t, utf8.RuneError) {
			probs.add(l, "holds a byte that is not UTF-8: the capture was damaged here")
		}
		if strings.HasPrefix(t, "Port=") {
			m := pmHeadRe.FindStringSubmatch(t)
			cur, curKeys = nil, map[string]bool{}
			blockKeys = append(blockKeys, nil)
			heads = append(heads, Line{N: l.N, Text: strings.Clone(t)})
			if m == nil {
				probs.add(l, "not an ibdiagnet2.pm port header (Port=N Lid=0x... GUID=0x...)")
				return
			}
			if len(out) >= MaxFabricPorts {
				dropped++
				return
			}
			n, _ := strconv.Atoi(m[1])
			g, _ := GUID(m[3])
			p := facts.FabricPort{PortGUID: g, Port: n}
			if lid, ok := hexOrDec(m[2]); ok && lid > 0 {
				v := int(lid)
				p.LID = &v
			}
			p.Evidence.Set("port", facts.Evidence{Line: l.N, Text: strings.Clone(t)})
			out = append(out, p)
			cur = &out[len(out)-1]
			return
		}
		k, v, ok := strings.Cut(t, "=")
		if !ok || curKeys == nil {
			probs.add(l, "not a counter of a port block (name=value after a Port= header)")
			return
		}
		if curKeys[k] {
			probs.add(l, "%s twice in one port block: the capture repeated a line or lost a header", k)
			return
		}
		curKeys[k] = true
		i, known := keyIndex[k]
		if !known {
			i = len(keyIndex)
			keyIndex[strings.Clone(k)] = i
		}
		bk := &blockKeys[len(blockKeys)-1]
		for len(*bk) <= i {
			*bk = append(*bk, false)
		}
		(*bk)[i] = true
		name, kept := ibdiagnetCounterNames[k]
		if !kept || cur == nil || v == "NA" || v == "N/A" {
			return // only the PortCounters are read (some devices print 0xffff...d8 in others)
		}
		n, ok := hexOrDec(v)
		if !ok {
			probs.add(l, "%s value %q is not a number", k, v)
			return
		}
		if cur.Counters == nil {
			cur.Counters = map[string]int64{}
		}
		cur.Counters[name] = n
		if n != 0 {
			cur.Evidence.Set("counters."+name, facts.Evidence{Line: l.N, Text: strings.Clone(t)})
		}
	})
	if err != nil {
		return out, err
	}
	pmComplete(&probs, keyIndex, blockKeys, heads)
	if !closed {
		probs.add(Line{}, "no %q line (ibdiagnet writes it last): the file was cut", ibdiagnetClosed)
	}
	if dropped > 0 {
		probs.add(Line{}, "%d ports beyond the first %d not kept", dropped, MaxFabricPorts)
	}
	return out, probs.err()
}

// pmComplete names each port block that lacks a counter most blocks have: ibdiagnet prints
// the same keys for every port, so the capture lost that line.
func pmComplete(probs *problems, keyIndex map[string]int, blockKeys [][]bool, heads []Line) {
	counts := make([]int, len(keyIndex))
	for _, bk := range blockKeys {
		for i, ok := range bk {
			if ok {
				counts[i]++
			}
		}
	}
	names := make([]string, len(keyIndex))
	for k, i := range keyIndex {
		names[i] = k
	}
	for b, bk := range blockKeys {
		for i, n := range counts {
			if 2*n <= len(blockKeys) || i < len(bk) && bk[i] {
				continue
			}
			probs.add(heads[b], "port block without %s, which %d of %d blocks have: the capture lost that line", names[i], n, len(blockKeys))
		}
	}
}
