package build

import (
	"strings"

	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/facts/parse"
)

var perfquerySniffRe = mustSniff(`(?m)^# Port (extended )?counters: `)

func init() {
	register(Spec{
		Name:        "perfquery",
		Plugin:      "infiniband",
		Commands:    []string{"perfquery"},
		Sniff:       func(h []byte) bool { return perfquerySniffRe.Match(h) },
		Apply:       applyPerfQuery,
		MissingHint: "install infiniband-diags; sos runs perfquery only for ACTIVE InfiniBand ports",
		Groups:      []string{"port_counters", "perfquery"},
		Live:        []LiveCommand{{Per: PerActiveIBPort, Alts: [][]string{{"perfquery", "-C", ArgDev, "-P", ArgPort}}}},
		Tools:       []Tool{{Name: "perfquery", Package: infinibandDiags, Allow: []Grammar{{Bare: []string{"-x"}, Valued: ibDevPort}}}},
	})
}

// perfqueryGUID is the port GUID of `perfquery -G <guid> [port]` in a mangled argument string.
func perfqueryGUID(args string) string {
	f := strings.Split(args, "_")
	for i, w := range f {
		if (w == "-G" || w == "--Guid") && i+1 < len(f) {
			if g, ok := parse.GUID(f[i+1]); ok {
				return g
			}
		}
	}
	return ""
}

func applyPerfQuery(s *facts.Snapshot, in Input) error {
	out, err := parse.PerfQuery(in.Data)
	if err != nil {
		return err
	}
	dev, port, remote := caPortArgs(in.Args)
	guid := perfqueryGUID(in.Args)
	for _, pc := range out.Ports {
		pc.Device, pc.GUID = dev, guid
		// The file name is the command line only when it names the CA or port (sos and the live
		// gather run perfquery -C <ca> -P <port>); a bare "perfquery.txt" says nothing.
		if in.how == "name" && (remote || dev != "" || port != nil) {
			local := !remote
			pc.Local = &local
		}
		s.Fabric.PerfCounters = append(s.Fabric.PerfCounters, pc)
		// perfquery -C <ca> -P <port> without a target reads the local port: its counters are
		// that port's, like sysfs counters/.
		if dev == "" || remote || port == nil || pc.Port == nil || *pc.Port != *port {
			continue
		}
		d := facts.Device{Name: dev, Ports: []facts.Port{{Number: *port, Counters: pc.Counters, Evidence: facts.EvidenceMap{}}}}
		for k, ev := range pc.Evidence {
			if strings.HasPrefix(k, "counters.") {
				d.Ports[0].Evidence[k] = ev
			}
		}
		addDevice(s, in, d)
	}
	return fabricRefused(s, "perfquery", out.Refusal)
}
