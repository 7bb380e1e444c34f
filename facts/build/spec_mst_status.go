package build

import (
	"reflect"

	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/facts/parse"
)

func init() {
	register(Spec{
		Name:     "mst_status",
		Plugin:   "mellanox_firmware",
		Commands: []string{"mst_status"},
		Sniff: func(head []byte) bool {
			return hasLinePrefix(head, "MST modules:") || hasLinePrefix(head, "MST devices:") || hasLinePrefix(head, "DEVICE_TYPE ")
		},
		Apply:       applyMSTStatus,
		MissingHint: "install MFT and run `mst start; mst status -v`",
		Groups:      []string{"mst_status"},
		Live:        []LiveCommand{{Alts: [][]string{{"mst", "status"}}}},
		Tools:       []Tool{{Name: "mst", Package: nvidiaMFT, Allow: []Grammar{{Bare: []string{"-v"}, Pos: posAt(oneOf("status")), Need: 1}}}},
	})
}

// applyMSTStatus adds the /dev/mst nodes with their PCI addresses (domain added); a node listed
// by two captures (plain and -v) is merged.
func applyMSTStatus(s *facts.Snapshot, in Input) error {
	devs, err := parse.MSTStatus(in.Data) // parse.Problems: the devices returned are still good
	if _, ok := parse.AsProblems(err); err != nil && !ok {
		return err
	}
	for _, d := range devs {
		d.PCIAddress = NormalizeBDF(d.PCIAddress)
		stamp(&d, in.Spec, in.Path)
		merged := false
		for i := range s.MSTDevices {
			if s.MSTDevices[i].Path == d.Path {
				fill(reflect.ValueOf(&s.MSTDevices[i]).Elem(), reflect.ValueOf(d))
				merged = true
				break
			}
		}
		if !merged {
			s.MSTDevices = append(s.MSTDevices, d)
		}
	}
	return err
}
