package build

import (
	"strings"

	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/facts/parse"
)

// ibswinfoSniffRe is a line only ibswinfo prints: its default table's "part number |" or
// "PSU0 status |", or the `-o status` keys.
var ibswinfoSniffRe = mustSniff(`(?m)^(part number {8}\| |PSU\d status {8}\| |psu\d\.status {8}: )`)

func init() {
	register(Spec{
		Name:        "ibswinfo",
		FabricWide:  true,
		Plugin:      "infiniband",
		Commands:    []string{"ibswinfo", "ibswinfo.sh"},
		Sniff:       func(h []byte) bool { return ibswinfoSniffRe.Match(h) },
		Apply:       applyIBSwInfo,
		MissingHint: "run `ibswinfo -d lid-<LID>` (github.com/stanford-rc/ibswinfo, needs MFT) for each unmanaged switch; `ibswitches` lists their LIDs",
		Groups:      []string{"switch_health"},
		NotLive:     "a third-party script (stanford-rc/ibswinfo) that needs MFT and root and queries one switch per run",
	})
}

// applyIBSwInfo adds the switch ibswinfo describes to Fabric.Switches, with the -d target
// (lid-44, SW_...) from the file name.
func applyIBSwInfo(s *facts.Snapshot, in Input) error {
	out, err := parse.IBSwInfo(in.Data) // parse.Problems: what parsed is kept
	if _, ok := parse.AsProblems(err); err != nil && !ok {
		return err
	}
	if out.Refusal != nil {
		return fabricRefused(s, "ibswinfo", out.Refusal)
	}
	sw := out.Switch
	sw.Target = ibswinfoTarget(in.Args)
	s.Fabric.Switches = append(s.Fabric.Switches, sw)
	return err
}

// ibswinfoTarget reads the -d argument from a mangled argument string, "-d_lid-44" -> "lid-44".
func ibswinfoTarget(args string) string {
	f := strings.Split(args, "_")
	for i, w := range f {
		if w != "-d" {
			continue
		}
		j := i + 1 // an MST device name holds "_" (SW_MT54000_...): take words up to the next flag
		for j < len(f) && !strings.HasPrefix(f[j], "-") {
			j++
		}
		return strings.Join(f[i+1:j], "_")
	}
	return ""
}
