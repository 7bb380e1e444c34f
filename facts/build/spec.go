package build

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"slices"
	"sort"
	"sync"

	"github.com/rdmadoctor/rdmadoctor/facts"
)

// Spec is one kind of input, a command's output or a set of copied files, declared once: how
// the builder recognises and reads it, which fact groups it feeds, and how `rdmadoctor gather`
// collects it. The live plan, the allow-list, the "not installed" package hints, the "not run
// because" reasons, facts.FactGroups and the skip hints are all derived from these fields.
type Spec struct {
	// Name is the stable id used in sources[] and in rules' `requires`, e.g. "ibstat".
	Name string
	// Plugin is the sos plugin folder its command output lives in, e.g. "infiniband".
	Plugin string
	// Commands are the command's file names as sos mangles them, without arguments: "ibstat",
	// "ibv_devinfo_-v", "ethtool_-m". A file matches when its base name is one of them or starts
	// with one followed by "_" (arguments, then "__label"). The longest match over all specs wins.
	Commands []string
	// Paths are path.Match patterns of copied files, e.g. "proc/interrupts".
	Paths []string
	// Sniff recognises the output by its first bytes, for captures whose names say nothing.
	Sniff func(head []byte) bool
	// Apply parses one file and merges its records into s. Return Refused(msg) when the tool
	// itself reported that it could not run ("No IB devices found"), or an error naming the line.
	Apply func(s *facts.Snapshot, in Input) error
	// Stream is Apply for inputs read line by line (kernel logs, which can be hundreds of MB):
	// it gets the file's content as r, in.Data is nil, and the file is never held whole. A
	// spec has Apply or Stream. Return Noted(...) when what was read was kept only in part.
	Stream func(s *facts.Snapshot, in Input, r io.Reader) error
	// Tree, for specs that read a whole directory tree (sysfs), reads fsys and returns one
	// source per device or file read. Root is the tree's top, e.g. "sys/class/infiniband".
	Tree func(s *facts.Snapshot, fsys fs.FS) []facts.Source
	Root string
	// Answered, for outputs that can answer without a fact that has evidence (an empty GID
	// table, sysctl values of parameters no rule quotes), reports whether data is such an
	// answer; a file of any other spec that gives no facts is recorded as unrecognized.
	Answered func(data []byte) bool
	// Priority orders specs: facts from a lower number win when two sources disagree
	// (sysfs 10, ibstat 20, ibv_devinfo 30, ibstatus 40, others 50).
	Priority int
	// MissingHint says how to get this input, e.g. "install mstflint"; sources[] quotes it when
	// the input is not in the snapshot.
	MissingHint string
	// Groups are the fact groups (facts.GroupTitles) this input feeds; rules `require` groups.
	// facts.FactGroups is derived from them.
	Groups []string
	// Live are the commands `rdmadoctor gather` runs to collect this input, and Tools the
	// programs they run. A spec without Live is either copied from the node (Root, Paths; see
	// facts/live copy.go) or says in NotLive why the live gather does not collect it.
	Live    []LiveCommand
	Tools   []Tool
	NotLive string
	// FabricWide marks outputs that describe the fabric or a switch, whatever host ran the tool
	// (ibdiagnet2's files, ibswinfo, ibqueryerrors): the same output in two folders is not a
	// sign of two hosts' captures.
	FabricWide bool
}

// Input is one file matched to a spec.
type Input struct {
	// Spec is the name of the spec the file was matched to.
	Spec string
	// Path inside the snapshot.
	Path string
	// Args is what followed the command name in the file name, e.g. "enp1s0" for
	// "ethtool_-m_enp1s0", "-d_0000_81_00.0_-e_q" for "mstconfig_-d_0000_81_00.0_-e_q".
	Args string
	// Label is the part after "__", used to tell two captures of one command apart.
	Label string
	Data  []byte
	// how says whether the file was recognised by path, name or content.
	how string
	// note is the source's Note: the file's name said another tool, or it is one part of a
	// file holding several outputs (Data is then set, the other parts' lines blanked).
	note string
	// sniffFailed is set when the file's name matched a spec whose Sniff does not recognise
	// the content: if the spec then reads nothing from it, it is nobody's output.
	sniffFailed bool
	// readErr is why the file's first bytes could not be read, when no spec claimed it by
	// path or name: it is then recorded as unreadable, not as unrecognised.
	readErr error
	// linkErr is the Error of an input that is a symbolic link not followed (linkFault): it
	// leaves the snapshot, dangles or loops; the input is an error naming it.
	linkErr string
}

// RefusedError is a tool's own statement that it could not run; the source is recorded as
// "unsupported" with the message, not as an error.
type RefusedError struct{ Message string }

func (e *RefusedError) Error() string { return e.Message }

// Refused returns a RefusedError.
func Refused(msg string) error { return &RefusedError{Message: msg} }

// NotedError is not a failure: the input was read and its facts merged, but not all of it was
// kept; Note says what was left out, and goes to the source's note.
type NotedError struct{ Note string }

func (e *NotedError) Error() string { return e.Note }

// Noted returns a NotedError with the formatted note.
func Noted(format string, args ...any) error {
	return &NotedError{Note: fmt.Sprintf(format, args...)}
}

// IsRefused reports whether err is a tool refusal.
func IsRefused(err error) bool {
	var r *RefusedError
	return errors.As(err, &r)
}

// registry holds the specs in registration order; sorted orders them.
var registry []Spec

// register adds specs; it is called from each spec file's init. It only appends: the order is
// established once, by the first Specs call, so that start-up does not sort at every register.
func register(specs ...Spec) {
	if registrySorted {
		panic("build: register called after Specs")
	}
	registry = append(registry, specs...)
	for _, sp := range specs {
		prios[sp.Name] = prio(sp)
		if sp.FabricWide {
			fabricWide[sp.Name] = true
		}
		for _, g := range sp.Groups {
			facts.FactGroups[g] = insertByPriority(facts.FactGroups[g], sp.Name)
		}
	}
}

// fabricWide are the names of the specs marked FabricWide.
var fabricWide = map[string]bool{}

// prios are the registered specs' priorities, to order the specs of each fact group.
var prios = map[string]int{}

// insertByPriority adds name to the spec names of a fact group, kept in priority order (the
// order Snapshot applies them), then by name, whatever the order of registration.
func insertByPriority(names []string, name string) []string {
	i := sort.Search(len(names), func(i int) bool {
		pi, p := prios[names[i]], prios[name]
		return pi > p || pi == p && names[i] > name
	})
	return slices.Insert(names, i, name)
}

// registrySorted is set when sorted has run; register is only valid before (from init).
var registrySorted bool

// sorted returns the registry in priority order, then by name (stable: registration order breaks
// ties).
var sorted = sync.OnceValue(func() []Spec {
	registrySorted = true
	s := slices.Clone(registry)
	sort.SliceStable(s, func(i, j int) bool {
		pi, pj := prio(s[i]), prio(s[j])
		if pi != pj {
			return pi < pj
		}
		return s[i].Name < s[j].Name
	})
	return s
})

func prio(s Spec) int {
	if s.Priority == 0 {
		return 50
	}
	return s.Priority
}

// Specs returns the registered specs in priority order.
func Specs() []Spec { return slices.Clone(sorted()) }
