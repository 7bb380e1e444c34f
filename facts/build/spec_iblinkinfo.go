package build

import (
	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/facts/parse"
)

var iblinkinfoSniffRe = mustSniff(`\[[^\]]*\] ==\(.*\)==>`)

func init() {
	register(Spec{
		Name:        "iblinkinfo",
		Plugin:      "infiniband",
		Commands:    []string{"iblinkinfo"},
		Sniff:       func(h []byte) bool { return iblinkinfoSniffRe.Match(h) },
		Apply:       applyIBLinkInfo,
		MissingHint: "install infiniband-diags; sos runs iblinkinfo only for ACTIVE InfiniBand ports",
		Groups:      []string{"iblinkinfo"},
		Live:        []LiveCommand{{Per: PerActiveIBPort, Alts: [][]string{{"iblinkinfo", "-C", ArgDev, "-P", ArgPort}}}},
		Tools:       []Tool{{Name: "iblinkinfo", Package: infinibandDiags, Allow: []Grammar{{Valued: ibDevPort}}}},
	})
}

func applyIBLinkInfo(s *facts.Snapshot, in Input) error {
	links, err := parse.IBLinkInfo(in.Data)
	if err != nil {
		return err
	}
	s.Fabric.Links = append(s.Fabric.Links, links...)
	return nil
}
