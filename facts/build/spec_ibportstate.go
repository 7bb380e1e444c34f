package build

import (
	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/facts/parse"
)

var ibportstateSniffRe = mustSniff(`(?m)^# Port info: Lid \d+ port \d+\s*$`)

func init() {
	register(Spec{
		Name:     "ibportstate",
		Plugin:   "infiniband",
		Commands: []string{"ibportstate"},
		Sniff: func(h []byte) bool {
			return ibportstateSniffRe.Match(h) && hasLinePrefix(h, "LinkWidthActive:")
		},
		Apply:       applyIBPortState,
		MissingHint: "run `ibportstate <lid> <port> query` (infiniband-diags) and save its output",
		Groups:      []string{"port_info"},
		NotLive: "ibportstate needs the port's LID and its other operations (enable, disable, reset, speed, width) change the port; " +
			"the live gather reads width and speed from sysfs rate and ibv_devinfo instead",
	})
}

// applyIBPortState adds the PortInfo blocks of one ibportstate output; -C/-P in the file name
// say which local port sent the query.
func applyIBPortState(s *facts.Snapshot, in Input) error {
	out, err := parse.IBPortState(in.Data) // parse.Problems: the blocks returned are still good
	if _, ok := parse.AsProblems(err); err != nil && !ok {
		return err
	}
	dev, port, _ := caPortArgs(in.Args)
	for _, b := range out.Blocks {
		b.Device, b.Port = dev, port
		stamp(&b, in.Spec, in.Path)
		s.PortInfo = append(s.PortInfo, b)
	}
	if r := fabricRefused(s, "ibportstate", out.Refusal); r != nil && len(out.Blocks) == 0 {
		return r
	}
	return err
}
