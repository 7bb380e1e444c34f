package build

import (
	"reflect"

	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/facts/parse"
)

func init() {
	register(
		Spec{
			Name:        "opensm_conf",
			Plugin:      "infiniband",
			Commands:    []string{"etc_opensm_opensm.conf", "etc.opensm.opensm.conf", "etc_rdma_opensm.conf"},
			Paths:       []string{"etc/opensm/opensm.conf", "etc/rdma/opensm.conf", "etc/ofed/opensm.conf"},
			Apply:       applyOpenSMConf,
			MissingHint: "copy /etc/opensm/opensm.conf (or /etc/rdma/opensm.conf)",
			Groups:      []string{"opensm"},
		},
		Spec{
			Name:     "opensm_log",
			Plugin:   "infiniband",
			Commands: []string{"opensm_stdout", "opensm"},
			Paths:    []string{"var/log/opensm*"},
			Sniff: func(head []byte) bool {
				return hasLinePrefix(head, "OpenSM ") || hasLinePrefix(head, "Error from osm_opensm_bind")
			},
			Apply:       applyOpenSMLog,
			MissingHint: "copy /var/log/opensm.log",
			Groups:      []string{"opensm"},
		},
	)
}

func applyOpenSMConf(s *facts.Snapshot, in Input) error {
	cfg, ev, err := parse.OpenSMConf(in.Data)
	if err != nil {
		return err
	}
	addOpenSM(s, in, cfg, ev, nil)
	return nil
}

func applyOpenSMLog(s *facts.Snapshot, in Input) error {
	evs, err := parse.OpenSMLog(in.Data) // parse.Problems: the events returned are still good
	if _, ok := parse.AsProblems(err); err != nil && !ok {
		return err
	}
	addOpenSM(s, in, nil, nil, evs)
	return err
}

// addOpenSM merges options (first file wins per option) and appends log events of every file.
func addOpenSM(s *facts.Snapshot, in Input, cfg map[string]string, ev facts.EvidenceMap, evs []facts.OpenSMEvent) {
	o := facts.OpenSM{Config: cfg, Evidence: ev, LogEvents: evs}
	stamp(&o, in.Spec, in.Path)
	if s.Host.OpenSM == nil {
		s.Host.OpenSM = &facts.OpenSM{}
	}
	s.Host.OpenSM.LogEvents = append(s.Host.OpenSM.LogEvents, o.LogEvents...)
	o.LogEvents = nil
	fill(reflect.ValueOf(s.Host.OpenSM).Elem(), reflect.ValueOf(o))
}
