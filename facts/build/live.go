package build

import "strings"

// Scope says what a live command runs for: once per node, or once per object that the live
// gather (facts/live Discover) finds under its root.
type Scope int

// The scopes, with the placeholders their argv templates may use.
const (
	// PerNode runs once.
	PerNode Scope = iota
	// PerDevice runs for each RDMA device of sys/class/infiniband: {dev}.
	PerDevice
	// PerActiveIBPort runs for each ACTIVE InfiniBand port: {dev} and {port}. sos, too, queries
	// the fabric only from such ports; from any other port the tools fail or hang.
	PerActiveIBPort
	// PerPF runs for each Mellanox (vendor 15b3) physical function: {pci}. Never for a VF:
	// firmware tools on a VF fail or, worse, hang.
	PerPF
	// PerNetdev runs for each netdev with a device behind it (a PCI function or an IPoIB
	// child): {netdev}.
	PerNetdev
)

// The placeholders of argv templates, replaced by the object of the command's Scope.
const (
	ArgDev    = "{dev}"
	ArgPort   = "{port}"
	ArgPCI    = "{pci}"
	ArgNetdev = "{netdev}"
)

// LiveCommand is a command that `rdmadoctor gather` runs for a spec. Its output is written to
// sos_commands/<Spec.Plugin>/<Mangle(argv)>, where the spec's Commands find it again.
type LiveCommand struct {
	Per Scope
	// Alts are argv templates tried in order: the first whose tool is installed runs, e.g.
	// {"mstconfig", "-d", ArgPCI, "-e", "q"} then {"mlxconfig", ...}. Each tool must be one of
	// the spec's Tools, and each expanded argv must pass its grammar.
	Alts [][]string
	// Fallback also tries the next installed alternative when the chosen one exits non-zero
	// (dmesg is refused to unprivileged users; journalctl -k may still work).
	Fallback bool
	// Counters marks output that `gather --sample` reads a second time (ethtool -S).
	Counters bool
	// AsRoot says the output lacks what the rules need unless root runs it (lspci shows the
	// capability registers, LnkCap/LnkSta, only to root); the skip hints say so.
	AsRoot bool
}

// Tool is a program that a spec's live commands run.
type Tool struct {
	// Name is argv[0], the bare program name, e.g. "mstconfig".
	Name string
	// Package is what installs it, for "mstconfig not installed (package: mstflint)".
	Package string
	// Allow are the read-only invocations of Name this spec needs; an argv is run only when one
	// grammar of one spec accepts it (facts/live Check).
	Allow []Grammar
}

// Template renders an argv template for a person, placeholders as <dev>, <port>, <pci>,
// <netdev>: "mstconfig -d <pci> -e q".
func Template(argv []string) string {
	r := strings.NewReplacer("{", "<", "}", ">")
	return r.Replace(strings.Join(argv, " "))
}
