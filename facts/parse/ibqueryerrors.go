package parse

import (
	"strconv"
	"strings"

	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/internal/lazyregexp"
)

// IBQueryErrorsOutput is what `ibqueryerrors` printed.
type IBQueryErrorsOutput struct {
	// Ports are the ports it listed, with the counters it printed (those above its threshold,
	// zero by default; a counter it did not print is unknown, not zero).
	Ports []facts.FabricPort
	// Refusal is the tool's own error ("discover failed", "can't open MAD port").
	Refusal *facts.ToolRefusal
}

var (
	iqeSwitchRe  = lazyregexp.New(`^Errors for (0x[0-9a-fA-F]+) "(.*)"\s*$`)
	iqeNodeRe    = lazyregexp.New(`^Errors for "(.*)"\s*$`)
	iqePortRe    = lazyregexp.New(`^GUID (0x[0-9a-fA-F]+) port (\d+|ALL):(.*)$`)
	iqeCounterRe = lazyregexp.New(`\[(\w+) == (\d+)(?: \([^)]*\))?\]`)
	iqeSummaryRe = lazyregexp.New(`^## +(\d+) ports checked, (\d+) ports have errors beyond threshold`)
)

// IBQueryErrors parses the output of `ibqueryerrors` (rdma-core infiniband-diags/ibqueryerrors.c),
// the fabric's ports whose PortCounters exceed its thresholds:
//
//	Errors for "node01 mlx4_0"
//	   GUID 0x7cfe900300179b31 port 1: [VL15Dropped == 14] [PortXmitWait == 4294967295]
//	Errors for 0x2c903006e29b0 "MF0;switch01:SX6036/U1"
//	   GUID 0x2c903006e29b0 port ALL: [LinkDownedCounter == 48] ...
//	   GUID 0x2c903006e29b0 port 5: [SymbolErrorCounter == 65535] [LinkErrorRecoveryCounter == 8] ...
//
//	## Summary: 4 nodes checked, 4 bad nodes found
//	##          43 ports checked, 14 ports have errors beyond threshold
//
// A switch's heading carries its node GUID (its ports' GUID); another node's only its
// description, and its port lines the port GUID. Extended counters print their value with a
// human-readable one in parentheses ("[SymbolErrorCounter == 65535 (65.535K)]"). "port ALL"
// (a switch's sum over its ports) is not a port and is skipped. Counters are kept by sysfs name.
// The summary's count of ports with errors must equal the port lines read: a file cut before
// it, or one that lost port lines, is a problem.
func IBQueryErrors(b []byte) (IBQueryErrorsOutput, error) {
	var out IBQueryErrorsOutput
	var probs problems
	lines := Lines(b)
	var nodeGUID, desc, nodeType string
	heading := false
	listed, summary := 0, -1
	for _, l := range lines {
		t := strings.TrimSpace(l.Text)
		if m := iqeSwitchRe.FindStringSubmatch(t); m != nil {
			nodeGUID, _ = GUID(m[1])
			desc, nodeType, heading = m[2], "Switch", true
			continue
		}
		if m := iqeNodeRe.FindStringSubmatch(t); m != nil {
			nodeGUID, desc, nodeType, heading = "", m[1], "", true
			continue
		}
		if m := iqeSummaryRe.FindStringSubmatch(t); m != nil {
			summary, _ = strconv.Atoi(m[2])
			continue
		}
		if r := ibRefusal(l); r != nil {
			if out.Refusal == nil {
				r.Tool = "ibqueryerrors"
				out.Refusal = r
			}
			continue
		}
		m := iqePortRe.FindStringSubmatch(t)
		if m == nil {
			if strings.HasPrefix(t, "GUID ") {
				probs.add(l, "not a port line (GUID 0x... port N: [Counter == N] ...)")
			}
			continue // "## Thresholds:", "Link info:" lines of -r, "Data Counters for" of --data
		}
		if m[2] == "ALL" {
			continue
		}
		listed++
		if !heading {
			probs.add(l, "a port line without its \"Errors for\" heading")
		}
		g, _ := GUID(m[1])
		n, _ := strconv.Atoi(m[2])
		p := facts.FabricPort{NodeGUID: nodeGUID, NodeDescription: desc, NodeType: nodeType, PortGUID: g, Port: n}
		p.Evidence.Set("port", l.Evidence())
		rest := iqeCounterRe.ReplaceAllStringFunc(m[3], func(c string) string {
			cm := iqeCounterRe.FindStringSubmatch(c)
			name, ok := ibdiagnetCounterNames[cm[1]]
			v, err := strconv.ParseInt(cm[2], 10, 64)
			switch {
			case err != nil:
				probs.add(l, "%s value %q is not a number", cm[1], cm[2])
			case ok:
				if p.Counters == nil {
					p.Counters = map[string]int64{}
				}
				p.Counters[name] = v
				p.Evidence.Set("counters."+name, l.Evidence())
			}
			return ""
		})
		if strings.TrimSpace(rest) != "" {
			probs.add(l, "counters that do not read as [Name == N]: %q", strings.TrimSpace(rest))
		}
		out.Ports = append(out.Ports, p)
	}
	switch {
	case summary < 0 && (listed > 0 || heading):
		probs.add(Line{}, "no \"## Summary\" line (ibqueryerrors prints it last): the capture was cut")
	case summary >= 0 && summary != listed:
		probs.add(Line{}, "the summary counts %d ports with errors, %d port lines were read: the capture lost or repeated lines", summary, listed)
	}
	probs.replaced(lines)
	return out, probs.err()
}
