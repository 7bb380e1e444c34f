package build

import (
	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/facts/parse"
)

func init() {
	register(Spec{
		Name:     "flint_query",
		Plugin:   "mellanox_firmware",
		Commands: []string{"flint", "mstflint"},
		Sniff: func(head []byte) bool {
			return hasLinePrefix(head, "Image type:") && hasLinePrefix(head, "FW Version:")
		},
		Apply:       applyFlint,
		MissingHint: "install mstflint and run `mstflint -d <pci> q` (MFT: `flint -d <dev> q`)",
		Groups:      []string{"firmware_query"},
		Live:        []LiveCommand{{Per: PerPF, Alts: [][]string{{"flint", "-d", ArgPCI, "q"}, {"mstflint", "-d", ArgPCI, "q"}}}},
		Tools: []Tool{{Name: "flint", Package: nvidiaMFT, Allow: []Grammar{flintQuery}},
			{Name: "mstflint", Package: mstflint, Allow: []Grammar{flintQuery}}},
	})
}

// applyFlint adds the firmware identity of a `flint q` / `mstflint q` capture. Other flint
// subcommands saved under the same name prefix are recognised and add nothing: burn logs
// ("flint ... burn"), configuration dumps ("dc"), and queries of an image file (-i without -d).
func applyFlint(s *facts.Snapshot, in Input) error {
	words := argWords(in.Args)
	if parse.FlintBurn(in.Data) || hasWord(words, "burn", "b", "dc", "ri", "rom") ||
		(hasWord(words, "-i") && !hasWord(words, "-d")) {
		return nil
	}
	fw, err := parse.Flint(in.Data)
	if _, partial := parse.AsProblems(err); err != nil && !partial {
		return err
	}
	if fw.Version == "" && fw.PSID == "" && fw.Refusal == "" {
		return nil // not a query output
	}
	fw.Tool = toolOf(in.Path, "mstflint", "flint")
	fw.Device, fw.PCIAddress = mstDeviceArg(in.Args)
	stamp(&fw, in.Spec, in.Path)
	s.Firmware = append(s.Firmware, fw)
	if fw.Refusal != "" && fw.Version == "" {
		return Refused(fw.Refusal)
	}
	return err // nil, or the lines of a query cut short: the source is partial
}

// flintQuery is the read-only form of flint and mstflint: `-d DEV q|query`.
var flintQuery = Grammar{
	Valued: map[string]func(string) bool{"-d": isBDF},
	Pos:    posAt(oneOf("q", "query")),
	Need:   1,
}
