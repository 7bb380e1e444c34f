package build

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/facts/parse"
)

func init() {
	register(Spec{
		Name:        "ibstat",
		Plugin:      "infiniband",
		Commands:    []string{"ibstat"},
		Sniff:       func(head []byte) bool { return hasLinePrefix(head, "CA '") },
		Apply:       applyIBStat,
		Priority:    20,
		MissingHint: "install infiniband-diags (rdma-core) and run ibstat",
		Groups:      []string{"rdma_devices", "ib_ports"},
		Live:        []LiveCommand{{Alts: [][]string{{"ibstat"}}}},
		// Plain ibstat covers every device; a per-device `ibstat <dev>` capture of the same device
		// would be taken for a second capture (another node, or before/after).
		Tools: []Tool{{Name: "ibstat", Package: infinibandDiags, Allow: []Grammar{{Pos: posAt(isDev, isPort)}}}},
	})
}

func applyIBStat(s *facts.Snapshot, in Input) error {
	out, err := parse.IBStat(in.Data)
	in = addDevices(s, in, out.Devices)                          // before the error: what parsed before a bad line is kept
	r := refused(s, in, "ibstat", out.Refusal, len(out.Devices)) // kept in host whatever else is returned
	switch {
	case err != nil:
		return err // lines it could not use say more than the refusal
	case r != nil:
		return r
	case out.Omitted > 0:
		// Read, but not all of it: the devices past the limit are unknown, so the source is
		// partial and the report incomplete, not a note beside an "ok".
		return parse.Problems{{Why: fmt.Sprintf("%d more CA blocks not read (only the first %d are)", out.Omitted, parse.MaxDevices)}}
	}
	return nil
}

// deviceArgs drops a device name from the arguments of a per-device capture ("ibstat mlx5_7"
// is saved as "ibstat_mlx5_7"): it names the device, not the capture. What follows the name
// ("ibstat_mlx5_0_node02") still labels the capture.
func deviceArgs(in Input, devs []facts.Device) Input {
	if in.Label != "" || in.Args == "" {
		return in
	}
	for _, d := range devs {
		if in.Args == d.Name {
			in.Args = ""
			return in
		}
		if rest, ok := strings.CutPrefix(in.Args, d.Name+"_"); ok {
			in.Args = rest
			return in
		}
	}
	return in
}

// refused records a tool's own error (ibpanic, "No IB devices found", ...) with the user-space
// messages and returns it: a refusal when the tool listed no device (listed == 0); a problem of
// that line when it listed devices first (ibstat's ibpanic on a CA that vanished while it ran,
// corpus 002), so the source is partial: the devices read are kept, those it would have listed
// next are unknown. The problem quotes the line without the "ibpanic: " marker of
// infiniband-diags (its whole text stays in host.userspace), so that warnings on stderr quote the
// line they are about but do not carry "panic:", which health-check wrappers read as a crash.
func refused(s *facts.Snapshot, in Input, tool string, r *facts.ToolRefusal, listed int) error {
	if r == nil {
		return nil
	}
	t := *r
	t.Tool = tool
	mergeHost(s, in, facts.Host{Userspace: []facts.ToolRefusal{t}})
	if listed > 0 {
		text, marker := t.Evidence.Text, ""
		if i := strings.Index(text, "ibpanic: "); i >= 0 {
			text, marker = strings.TrimSpace(text[i+len("ibpanic: "):]), ", an ibpanic"
		}
		return parse.Problems{{Line: t.Evidence.Line, Text: text, Why: fmt.Sprintf("%s aborted here (its own error%s, kept in host.userspace) after %d device(s): the devices it would have listed next are unknown", tool, marker, listed)}}
	}
	return Refused(t.Message)
}

// hasLinePrefix reports whether some line of head starts with prefix.
func hasLinePrefix(head []byte, prefix string) bool {
	if prefix == "" {
		return true
	}
	for len(head) > 0 {
		line, rest, _ := bytes.Cut(head, []byte("\n"))
		if bytes.HasPrefix(line, []byte(prefix)) {
			return true
		}
		head = rest
	}
	return false
}
