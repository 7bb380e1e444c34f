package build

import (
	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/facts/parse"
)

var showGIDsSniffRe = mustSniff(`(?m)^DEV\s+PORT\s+INDEX\s+GID`)

func init() {
	register(Spec{
		Name:     "show_gids",
		Plugin:   "infiniband",
		Commands: []string{"show_gids"},
		Sniff:    func(h []byte) bool { return showGIDsSniffRe.Match(h) },
		// The table's header without rows: the port has no GID at all (corpus 032).
		Answered:    func(b []byte) bool { return showGIDsSniffRe.Match(b) },
		Apply:       applyShowGIDs,
		MissingHint: "show_gids ships with MLNX_OFED / DOCA-OFED (mlnx-tools)",
		Groups:      []string{"gids"},
		Live:        []LiveCommand{{Alts: [][]string{{"show_gids"}}}},
		Tools:       []Tool{{Name: "show_gids", Package: mlnxTools, Allow: []Grammar{{Pos: posAt(isDev)}}}},
	})
}

func applyShowGIDs(s *facts.Snapshot, in Input) error {
	devs, err := parse.ShowGIDs(in.Data) // what parsed is kept; err names the lines that did not
	for _, d := range devs {
		addDevice(s, in, d)
	}
	if l, ok := parse.ShowGIDsCount(in.Data); ok {
		stamp(&l, in.Spec, in.Path)
		s.GIDListings = append(s.GIDListings, l)
	}
	return err
}
