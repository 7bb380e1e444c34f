package build

import (
	"bytes"
	"path"
	"reflect"
	"strings"

	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/facts/parse"
)

func init() {
	register(Spec{
		Name:        "ethtool",
		Plugin:      "networking",
		Commands:    []string{"ethtool"},
		Sniff:       func(h []byte) bool { return bytes.HasPrefix(bytes.TrimSpace(h), []byte("Settings for ")) },
		Apply:       applyEthtool,
		MissingHint: "run `ethtool <if>` for each RDMA netdev (sos networking plugin collects it)",
		Groups:      []string{"netdevs", "ethtool"},
		Live:        []LiveCommand{{Per: PerNetdev, Alts: [][]string{{"ethtool", ArgNetdev}}}},
		// The other query options are allowed too; their files match this spec's command name and
		// are skipped by applyEthtool.
		Tools: []Tool{{Name: "ethtool", Package: "ethtool", Allow: []Grammar{
			{Pos: posAt(isNetdev), Need: 1},
			ethtoolQuery("-k", "-g", "-l", "-c", "-T", "-P", "--show-priv-flags", "--show-eee", "--phy-statistics"),
		}}},
	})
}

// applyEthtool reads plain `ethtool <if>`. Files of other ethtool options that no spec claims
// (ethtool_-k_<if>, ethtool_-g_<if>, ...) match this command name too and are skipped.
func applyEthtool(s *facts.Snapshot, in Input) error {
	if strings.HasPrefix(in.Args, "-") {
		return nil
	}
	n, err := parse.Ethtool(in.Data)
	if err != nil {
		return err
	}
	name, label := argNetdev(in)
	if n.Name == "" {
		n.Name = name
	}
	if n.Name == "" {
		return nil
	}
	addNetdevCapture(s, in, n, label)
	if n.EthtoolRefusal != "" {
		return Refused(n.EthtoolRefusal)
	}
	return nil
}

// argNetdev splits a file's arguments into the interface name (the first argument that is not
// an option) and what follows it, which labels a second capture of the same interface:
// "enp1s0_AFTER" -> ("enp1s0", "AFTER"), "-i_eth4" -> ("eth4", ""). The "__label" wins.
func argNetdev(in Input) (name, label string) {
	parts := strings.Split(in.Args, "_")
	for i, p := range parts {
		if p == "" || strings.HasPrefix(p, "-") {
			continue
		}
		name = p
		label = strings.Join(parts[i+1:], "_")
		break
	}
	if in.Label != "" {
		label = in.Label
	}
	if label == "" {
		label = path.Base(in.Path)
	}
	return name, label
}

// addNetdevCapture merges n like addNetdev, except that a second file of the same spec about
// the same interface (before/after, two hosts, patched/unpatched) is kept apart with Capture
// set to label, as addDevice does for devices: mixing two modules' EEPROMs would invent one.
func addNetdevCapture(s *facts.Snapshot, in Input, n facts.Netdev, label string) {
	stamp(&n, in.Spec, in.Path)
	seen := false
	for i := range s.Netdevs {
		e := &s.Netdevs[i]
		if e.Name != n.Name {
			continue
		}
		seen = true
		if fromOtherFile(e, in) || (e.Capture != "" && e.Capture != label) {
			continue
		}
		fill(reflect.ValueOf(e).Elem(), reflect.ValueOf(n))
		return
	}
	if seen {
		n.Capture = label
	}
	s.Netdevs = append(s.Netdevs, n)
}

// fromOtherFile reports whether e already holds facts that in's spec read from another file.
func fromOtherFile(e *facts.Netdev, in Input) bool {
	maps := []facts.EvidenceMap{e.Evidence}
	if e.Module != nil {
		maps = append(maps, e.Module.Evidence)
	}
	for _, m := range maps {
		for _, ev := range m {
			if ev.Source == in.Spec && ev.Path != in.Path {
				return true
			}
		}
	}
	return false
}

// ethtoolTool is ethtool allowed only to run the given query options, for a spec that reads
// one of them.
func ethtoolTool(opts ...string) Tool {
	return Tool{Name: "ethtool", Package: "ethtool", Allow: []Grammar{ethtoolQuery(opts...)}}
}

// ethtoolQuery accepts `ethtool OPT IF` for each query option OPT (each takes the interface as
// its value).
func ethtoolQuery(opts ...string) Grammar {
	g := Grammar{Valued: map[string]func(string) bool{}, Single: true}
	for _, o := range opts {
		g.Valued[o] = isNetdev
	}
	return g
}
