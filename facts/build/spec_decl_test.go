package build

import (
	"fmt"
	"path"
	"slices"
	"strings"
	"testing"

	"github.com/rdmadoctor/rdmadoctor/facts"
)

// The tables derived from the specs (the live plan, the allow-list, the package hints,
// facts.FactGroups, the skip hints) are only as right as the declarations agree with each other.
// These tests fail when they do not.

// sampleArgs are objects to expand the argv templates with.
var sampleArgs = map[string]string{ArgDev: "mlx5_0", ArgPort: "1", ArgPCI: "0000:41:00.0", ArgNetdev: "ibp65s0"}

// scopeArgs are the placeholders each scope provides.
var scopeArgs = map[Scope][]string{
	PerNode: nil, PerDevice: {ArgDev}, PerActiveIBPort: {ArgDev, ArgPort}, PerPF: {ArgPCI}, PerNetdev: {ArgNetdev},
}

// TestLiveCommandsAgreeWithTheirSpec: every live command uses only its scope's placeholders, runs
// one of its spec's tools, is allowed by that tool's grammar in the same spec, and writes a file
// that the same spec reads.
func TestLiveCommandsAgreeWithTheirSpec(t *testing.T) {
	for _, sp := range Specs() {
		for _, lc := range sp.Live {
			if len(lc.Alts) == 0 {
				t.Errorf("%s: a live command without argv", sp.Name)
			}
			for _, tmpl := range lc.Alts {
				argv := make([]string, len(tmpl))
				for i, a := range tmpl {
					if strings.HasPrefix(a, "{") {
						if !slices.Contains(scopeArgs[lc.Per], a) {
							t.Errorf("%s: %s: %s is not a placeholder of its scope", sp.Name, Template(tmpl), a)
						}
						a = sampleArgs[a]
					}
					argv[i] = a
				}
				if err := sp.accept(argv); err != nil {
					t.Errorf("%s: %v", sp.Name, err)
				}
				file := path.Join("sos_commands", sp.Plugin, Mangle(strings.Join(argv, " ")))
				if got := SpecOf(file); got != sp.Name {
					t.Errorf("%s: %s writes %s, which spec %q reads", sp.Name, Template(tmpl), file, got)
				}
			}
		}
	}
}

// accept checks argv against the grammars sp declares for its tool.
func (sp Spec) accept(argv []string) error {
	var err error
	for _, tool := range sp.Tools {
		if tool.Name != argv[0] {
			continue
		}
		for _, g := range tool.Allow {
			if err = g.Accept(argv); err == nil {
				return nil
			}
		}
		return err
	}
	return fmt.Errorf("%s is not one of the spec's Tools", argv[0])
}

// TestEverySpecSaysHowItIsCollected: a spec is collected live (Live, with the Tools it runs),
// copied from the node (Root, Paths), or says why not (NotLive); a tool has one package.
func TestEverySpecSaysHowItIsCollected(t *testing.T) {
	pkgs := map[string]string{}
	for _, sp := range Specs() {
		live, copied := len(sp.Live) > 0, sp.Root != "" || len(sp.Paths) > 0
		switch {
		case live && sp.NotLive != "":
			t.Errorf("%s: has live commands and says it has none (NotLive)", sp.Name)
		case !live && !copied && sp.NotLive == "":
			t.Errorf("%s: neither live commands nor copied paths, and no NotLive reason", sp.Name)
		case live && sp.Plugin == "":
			t.Errorf("%s: live commands need a sos Plugin folder", sp.Name)
		case !live && len(sp.Tools) > 0:
			t.Errorf("%s: Tools without live commands", sp.Name)
		}
		for _, tool := range sp.Tools {
			if tool.Package == "" || len(tool.Allow) == 0 {
				t.Errorf("%s: tool %s needs a Package and an allowed grammar", sp.Name, tool.Name)
			}
			if p, ok := pkgs[tool.Name]; ok && p != tool.Package {
				t.Errorf("%s: tool %s from package %q, elsewhere %q", sp.Name, tool.Name, tool.Package, p)
			}
			pkgs[tool.Name] = tool.Package
		}
	}
}

// TestFactGroupsAreFedAndTitled: every group a spec feeds has a title, and every titled group is
// fed by some spec, with a hint on how to get it.
func TestFactGroupsAreFedAndTitled(t *testing.T) {
	for _, sp := range Specs() {
		for _, g := range sp.Groups {
			if _, ok := facts.GroupTitles[g]; !ok {
				t.Errorf("%s feeds group %q, which facts.GroupTitles does not name", sp.Name, g)
			}
		}
	}
	for g := range facts.GroupTitles {
		if len(facts.FactGroups[g]) == 0 {
			t.Errorf("group %q: no spec feeds it", g)
		}
		if HowToGet(g) == "" {
			t.Errorf("group %q: no hint on how to get it", g)
		}
	}
}

func TestHowToGet(t *testing.T) {
	for g, want := range map[string]string{
		"nvconfig":     "run `mstconfig -d <pci> -e q` (mstflint) or `mlxconfig -d <pci> -e q` (NVIDIA MFT)",
		"ib_ports":     "run `ibstat` (infiniband-diags), or copy /sys/class/infiniband",
		"perfquery":    "run `perfquery -C <dev> -P <port>` (infiniband-diags) on a node with an ACTIVE InfiniBand port",
		"irqs":         "copy /proc/interrupts",
		"fabric_nodes": "install infiniband-diags; needs an ACTIVE InfiniBand port (fails on RoCE), or run `ibdiagnet` (ibutils2, or MLNX_OFED/DOCA) on a node of the fabric and add its output folder (/var/tmp/ibdiagnet2)",
	} {
		if got := HowToGet(g); got != want {
			t.Errorf("HowToGet(%q) = %q, want %q", g, got, want)
		}
	}
}
