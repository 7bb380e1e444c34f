package build

import (
	"bytes"

	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/facts/parse"
)

func init() {
	register(Spec{
		Name:     "mstconfig_query",
		Plugin:   "mellanox_firmware",
		Commands: []string{"mstconfig", "mlxconfig"},
		Sniff: func(head []byte) bool {
			return bytes.Contains(head, []byte("Device #1:")) && bytes.Contains(head, []byte("Configurations:")) ||
				hasLinePrefix(head, "-E- Unsupported device")
		},
		Apply:       applyMstConfig,
		MissingHint: "install mstflint and run `mstconfig -d <pci> -e q` (MFT: `mlxconfig -d <dev> -e q`)",
		Groups:      []string{"nvconfig"},
		Live: []LiveCommand{{Per: PerPF, Alts: [][]string{
			{"mstconfig", "-d", ArgPCI, "-e", "q"}, {"mlxconfig", "-d", ArgPCI, "-e", "q"}}}},
		Tools: []Tool{{Name: "mstconfig", Package: mstflint, Allow: []Grammar{mftQuery}},
			{Name: "mlxconfig", Package: nvidiaMFT, Allow: []Grammar{mftQuery}}},
	})
}

// applyMstConfig adds one NVConfig per queried device. The device comes from the output's
// "Device:" line, else from the -d argument in the file name. Output of `mlxconfig ... set` and
// `reset` is not a query and adds nothing. A tool error is kept on the record (rules read it)
// and returned as a refusal.
func applyMstConfig(s *facts.Snapshot, in Input) error {
	if hasWord(argWords(in.Args), "set", "s", "reset", "r", "set_raw", "backup") {
		return nil
	}
	recs, err := parse.MstConfig(in.Data) // parse.Problems: the records returned are still good
	if _, ok := parse.AsProblems(err); err != nil && !ok {
		return err
	}
	tool := toolOf(in.Path, "mstconfig", "mlxconfig")
	pattern, filtered := grepFilter(in.Args)
	dev, pci := mstDeviceArg(in.Args)
	refusal := ""
	for i := range recs {
		r := &recs[i]
		r.Tool = tool
		if r.Device == "" && len(recs) == 1 {
			r.Device = dev
		}
		if r.PCIAddress == "" {
			if r.Device == dev && pci != "" {
				r.PCIAddress = pci
			} else if a := NormalizeBDF(r.Device); fullBDFRe.MatchString(a) {
				r.PCIAddress = a
			}
		}
		switch {
		case pattern != "":
			r.Filter = pattern // `mlxconfig -d X q | grep SRIOV`: SRIOV_EN and NUM_OF_VFS only
		case filtered && r.Filter == "" && len(r.Params) > 0:
			r.Filter = parse.NVParamsHeld(r.Params) // marked _EXCERPT: which lines were left out is not said
		}
		stamp(r, in.Spec, in.Path)
		s.NVConfig = append(s.NVConfig, *r)
		if r.Refusal != "" && len(r.Params) == 0 && refusal == "" {
			refusal = r.Refusal
		}
	}
	if err != nil {
		return err // lines it could not use say more than the refusal
	}
	if refusal != "" {
		return Refused(refusal)
	}
	return nil
}

// mftQuery is the read-only form of mstconfig and mlxconfig: `-d DEV [-e] q|query`, without
// parameter names (a name after q would be read as a set by some versions).
var mftQuery = Grammar{
	Bare:   []string{"-e"},
	Valued: map[string]func(string) bool{"-d": isBDF},
	Pos:    posAt(oneOf("q", "query")),
	Need:   1,
}
