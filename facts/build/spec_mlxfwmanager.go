package build

import (
	"bytes"

	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/facts/parse"
)

func init() {
	register(
		Spec{
			Name:        "mlxfwmanager",
			Plugin:      "mellanox_firmware",
			Commands:    []string{"mlxfwmanager"},
			Sniff:       func(head []byte) bool { return bytes.Contains(head, []byte("Querying Mellanox devices firmware")) },
			Apply:       func(s *facts.Snapshot, in Input) error { return applyFWManager(s, in, "mlxfwmanager") },
			MissingHint: "install MFT and run `mlxfwmanager --query`",
			Groups:      []string{"firmware_query"},
			NotLive:     "not in the live plan: flint or mstflint queries each physical function",
		},
		Spec{
			Name:        "mlxup",
			Plugin:      "mellanox_firmware",
			Commands:    []string{"mlxup"},
			Apply:       func(s *facts.Snapshot, in Input) error { return applyFWManager(s, in, "mlxup") },
			MissingHint: "run `mlxup --query` (NVIDIA's standalone firmware updater)",
			Groups:      []string{"firmware_query"},
			NotLive:     "not in the live plan: flint or mstflint queries each physical function",
		},
	)
}

// applyFWManager adds one FirmwareInfo per device of an mlxfwmanager/mlxup report; a report that
// holds only a tool error is recorded and returned as a refusal.
func applyFWManager(s *facts.Snapshot, in Input, tool string) error {
	recs, err := parse.MlxFWManager(in.Data) // parse.Problems: the records returned are still good
	if _, ok := parse.AsProblems(err); err != nil && !ok {
		return err
	}
	for i := range recs {
		recs[i].Tool = tool
		stamp(&recs[i], in.Spec, in.Path)
		s.Firmware = append(s.Firmware, recs[i])
	}
	if err != nil {
		return err
	}
	if len(recs) == 1 && recs[0].Refusal != "" && recs[0].Version == "" {
		return Refused(recs[0].Refusal)
	}
	return nil
}
