package build

import (
	"strconv"
	"strings"

	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/facts/parse"
)

var sminfoSniffRe = mustSniff(`(?m)^sminfo: sm lid \d+`)

func init() {
	register(Spec{
		Name:        "sminfo",
		Plugin:      "infiniband",
		Commands:    []string{"sminfo"},
		Sniff:       func(h []byte) bool { return sminfoSniffRe.Match(h) },
		Apply:       applySMInfo,
		MissingHint: "install infiniband-diags; sos runs sminfo only for ACTIVE InfiniBand ports",
		Groups:      []string{"sminfo"},
		Live:        []LiveCommand{{Per: PerActiveIBPort, Alts: [][]string{{"sminfo", "-C", ArgDev, "-P", ArgPort}}}},
		Tools:       []Tool{{Name: "sminfo", Package: infinibandDiags, Allow: []Grammar{{Valued: ibDevPort}}}},
	})
}

func applySMInfo(s *facts.Snapshot, in Input) error {
	out, err := parse.SMInfo(in.Data) // parse.Problems: the records returned are still good
	if _, ok := parse.AsProblems(err); err != nil && !ok {
		return err
	}
	dev, port, _ := caPortArgs(in.Args)
	for _, sm := range out.SMs {
		sm.Device, sm.Port = dev, port
		s.Fabric.SMInfo = append(s.Fabric.SMInfo, sm)
	}
	if r := fabricRefused(s, "sminfo", out.Refusal); r != nil {
		return r
	}
	return err
}

// caPortArgs reads the local CA and port from a sos-mangled argument string such as
// "-C_mlx5_0_-P_1" (sminfo/perfquery/iblinkinfo -C <ca> -P <port>). remote is true when other
// arguments (a LID or GUID) name a remote target.
func caPortArgs(args string) (dev string, port *int, remote bool) {
	f := strings.Split(args, "_")
	for i := 0; i < len(f); i++ {
		switch {
		case f[i] == "":
		case f[i] == "-C" || f[i] == "--Ca":
			// Device names contain "_" (mlx5_0): take words up to the next flag.
			j := i + 1
			for j < len(f) && !strings.HasPrefix(f[j], "-") {
				j++
			}
			dev = strings.Join(f[i+1:j], "_")
			i = j - 1
		case f[i] == "-P" || f[i] == "--Port":
			if i+1 < len(f) {
				if n, err := strconv.Atoi(f[i+1]); err == nil {
					port = &n
				}
				i++
			}
		case strings.HasPrefix(f[i], "-"):
		default:
			remote = true
		}
	}
	return dev, port, remote
}

// fabricRefused records a fabric tool's own error in Fabric.Refusals and returns it as a refusal.
func fabricRefused(s *facts.Snapshot, tool string, r *facts.ToolRefusal) error {
	if r == nil {
		return nil
	}
	t := *r
	t.Tool = tool
	s.Fabric.Refusals = append(s.Fabric.Refusals, t)
	return Refused(t.Message)
}
