package build

import (
	"bytes"
	"strconv"

	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/facts/parse"
)

func init() {
	register(Spec{
		Name:     "mlxlink",
		Plugin:   "mellanox_firmware",
		Commands: []string{"mlxlink", "mstlink"},
		Sniff: func(head []byte) bool {
			return hasLinePrefix(head, "Operational Info") && bytes.Contains(head, []byte("Physical state")) ||
				hasLinePrefix(head, "PCIe Operational (Enabled) Info")
		},
		Apply:       applyMlxLink,
		MissingHint: "install mstflint and run `mstlink -d <pci> -m` (MFT: `mlxlink -d <dev> -m -c -e`)",
		Groups:      []string{"mlxlink"},
		Live: []LiveCommand{
			{Per: PerPF, Alts: [][]string{{"mlxlink", "-d", ArgPCI, "-m", "-c"}, {"mstlink", "-d", ArgPCI, "-m", "-c"}}},
			{Per: PerPF, Alts: [][]string{{"mlxlink", "-d", ArgPCI, "--port_type", "PCIE"}, {"mstlink", "-d", ArgPCI, "--port_type", "PCIE"}}},
		},
		Tools: []Tool{{Name: "mlxlink", Package: nvidiaMFT, Allow: []Grammar{linkShow}},
			{Name: "mstlink", Package: mstflint, Allow: []Grammar{linkShow}}},
	})
}

// applyMlxLink adds one mlxlink report; the device comes from the -d argument in the file name.
func applyMlxLink(s *facts.Snapshot, in Input) error {
	m, err := parse.MlxLink(in.Data) // parse.Problems: what it returns is still good
	if _, ok := parse.AsProblems(err); err != nil && !ok {
		return err
	}
	m.Device, m.PCIAddress = mstDeviceArg(in.Args)
	words := argWords(in.Args)
	if hasWord(words, "PCIE") {
		m.PortType = "PCIE"
	}
	m.Port = portArg(words)
	stamp(&m, in.Spec, in.Path)
	s.MlxLink = append(s.MlxLink, m)
	if err != nil {
		return err
	}
	if m.Refusal != "" && m.State == "" && m.PCIeSpeedActive == "" {
		return Refused(m.Refusal)
	}
	return nil
}

// portArg is the number after -p/--port in an mlxlink command line; nil without one.
func portArg(words []string) *int {
	for i := 0; i+1 < len(words); i++ {
		if words[i] == "-p" || words[i] == "--port" {
			if n, err := strconv.Atoi(words[i+1]); err == nil && n > 0 {
				return &n
			}
		}
	}
	return nil
}

// linkShow is the read-only form of mlxlink and mstlink: show options only (no --pc, -a,
// --speeds, --set_speed).
var linkShow = Grammar{
	Bare: []string{"-m", "-c", "-e", "--json"},
	Valued: map[string]func(string) bool{
		"-d": isBDF, "--port_type": oneOf("PCIE", "NETWORK"),
	},
}
