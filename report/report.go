// Package report holds what a diagnosis run produces: the Report document (schema version 1,
// docs/report.md) with its ranked diagnoses, skipped rules and sources, the severities and
// confidences they are ranked by, and the site's ignore list. The engine makes reports; the
// renderers under report/render write them; neither this package nor render knows the rules.
package report

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"

	"github.com/rdmadoctor/rdmadoctor/facts"
)

// SchemaVersion is the version of the report document (docs/report.md).
const SchemaVersion = 1

// Report is the result of one diagnosis run: ranked diagnoses, the rules that could not run and
// what was read.
type Report struct {
	SchemaVersion int              `json:"schema_version"`
	Tool          Tool             `json:"tool"`
	Host          Host             `json:"host"`
	Source        facts.SourceInfo `json:"source"`
	// Diagnoses in rank order; a consequence follows its cause.
	Diagnoses []Diagnosis `json:"diagnoses"`
	// Ignored are the diagnoses the site's ignore list (.rdmadoctor.yaml) took out of the ranked
	// list, with the reason it gives; they do not count for --fail-on. Always a list ([] for none).
	Ignored []Ignored `json:"ignored"`
	// Skipped are the rules that were not evaluated, by id.
	Skipped []Skipped `json:"skipped"`
	// Sources are the snapshot's inputs with their status.
	Sources []facts.Source `json:"sources"`
	// Complete is false when an input was partial or unreadable (status partial, error or
	// timeout): the diagnoses may then be incomplete, even when there are none. Incomplete
	// names those inputs ("ibstat (sos_commands/infiniband/ibstat)"); always a list.
	Complete   bool     `json:"complete"`
	Incomplete []string `json:"incomplete"`
	// Evaluated counts the rules that ran; Hidden counts diagnoses below --min-severity.
	Evaluated int `json:"evaluated"`
	Hidden    int `json:"hidden,omitempty"`
	// MinSeverity is the --min-severity the report was filtered with (HideBelow), "" when it
	// was not; for the human formats' headline.
	MinSeverity string `json:"-"`
	// Needs says, for each fact group a skipped rule lacks (Skipped.Missing), what it is and how
	// to get it where this snapshot came from: the "Not checked" footer of the table. Not in
	// the JSON, whose skipped[] reasons say the same per rule.
	Needs  map[string]Need `json:"-"`
	hidden []Diagnosis
}

// Need is a missing fact group as the report's reader can get it: What is the group's title
// ("port states"), How the command to run or the file to copy, or why the input that was there
// could not be read (then Unreadable).
type Need struct {
	What       string
	How        string
	Unreadable bool
}

// Tool names the program that wrote the report.
type Tool struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

// Host identifies the node the snapshot is from.
type Host struct {
	Hostname string `json:"hostname,omitempty"`
	Kernel   string `json:"kernel,omitempty"`
}

// Diagnosis is one finding of one rule, joined with the rule's metadata.
type Diagnosis struct {
	// Rank starts at 1.
	Rank       int    `json:"rank"`
	ID         string `json:"id"`
	Title      string `json:"title"`
	Severity   string `json:"severity" jsonschema:"enum=critical,enum=error,enum=warning,enum=info"`
	Confidence string `json:"confidence" jsonschema:"enum=high,enum=medium,enum=low"`
	// Scope is node, device, port or unused_port (ranking: node first, unused ports last).
	Scope   string  `json:"scope" jsonschema:"enum=node,enum=device,enum=port,enum=unused_port"`
	Subject Subject `json:"subject"`
	// Also lists the other subjects of a grouped diagnosis: the same rule's findings about
	// ports not in use are one diagnosis (the first port is Subject), not one line each.
	Also []Subject `json:"also,omitempty"`
	// Message is one line that states the proof.
	Message  string           `json:"message"`
	Evidence []facts.Evidence `json:"evidence"`
	// Fix commands with the subject filled in.
	Fix         []Fix `json:"fix"`
	NeedsReboot bool  `json:"needs_reboot"`
	// Explains lists the ids of the diagnoses in this report that this one accounts for.
	Explains []string `json:"explains"`
	// ExplainedBy is the id of the diagnosis that accounts for this one, and ExplainedByRank its rank.
	ExplainedBy     *string  `json:"explained_by" jsonschema:"oneof_type=string;null"`
	ExplainedByRank int      `json:"explained_by_rank,omitempty"`
	References      []string `json:"references"`
}

// Subject is what a diagnosis is about; all empty means the whole node.
type Subject struct {
	Device string `json:"device,omitempty"`
	Port   *int   `json:"port,omitempty"`
	PCI    string `json:"pci,omitempty"`
	Netdev string `json:"netdev,omitempty"`
	// NodeGUID names a fabric node that is not one of this host's RDMA devices (a switch, another
	// host's HCA) as a fabric tool saw it (ibdiagnet, ibswinfo, iblinkinfo, perfquery of a remote
	// LID), 0x + 16 hex digits; Port is then that node's port. NodeDescription is its node
	// description, for people: the GUID is the identity.
	NodeGUID        string `json:"node_guid,omitempty"`
	NodeDescription string `json:"node_description,omitempty"`
}

// String names the subject the way operators write it: "mlx5_0/1 (ib0)", "mlx5_0
// (0000:81:00.0)", "ib0", a fabric node's port "0xfc6a1c030091cf00/12 (Quantum-2 Mellanox
// Technologies)", or "node".
func (s Subject) String() string {
	var main string
	var extra []string
	switch {
	case s.Device == "" && (s.NodeGUID != "" || s.NodeDescription != ""):
		main = s.NodeGUID
		if main == "" {
			main = s.NodeDescription
		} else if s.NodeDescription != "" {
			extra = append(extra, s.NodeDescription)
		}
		if s.Port != nil {
			main += "/" + strconv.Itoa(*s.Port)
		}
	case s.Device != "" && s.Port != nil:
		main = s.Device + "/" + strconv.Itoa(*s.Port)
	case s.Device != "":
		main = s.Device
	case s.Netdev != "":
		main = s.Netdev
	case s.PCI != "":
		main = s.PCI
	case s.Port != nil:
		main = "port " + strconv.Itoa(*s.Port)
	default:
		return "node"
	}
	if s.Netdev != "" && main != s.Netdev {
		extra = append(extra, s.Netdev)
	}
	if s.PCI != "" && main != s.PCI && s.Port == nil {
		extra = append(extra, s.PCI)
	}
	if len(extra) > 0 {
		main += " (" + strings.Join(extra, ", ") + ")"
	}
	return main
}

// Skipped is a rule that was not evaluated, and why.
type Skipped struct {
	ID     string `json:"id"`
	Reason string `json:"reason"`
	// Missing lists the fact groups the rule requires that the snapshot lacks; for a rule with
	// several evidence alternatives, those any alternative lacks (getting one alternative's
	// groups suffices: Reason says which sets).
	Missing []string `json:"missing,omitempty"`
	// Failed says the rule ran but its evaluation failed or ran out of time: that it found
	// nothing proves nothing, and the report is incomplete.
	Failed bool `json:"failed,omitempty"`
	// NotJudged lists the subjects ("mlx5_0", "mlx5_0/1") a rule that ran could not judge,
	// a fact it needs being unknown for them (an empty fw_ver, a port without a rate): Reason
	// says what for each. What it found on the others is in diagnoses; that it found nothing
	// on these proves nothing.
	NotJudged []string `json:"not_judged,omitempty"`
}

// MarshalJSON writes the report with "ignored" as [] rather than null when nothing was ignored,
// so the schema is the same whether or not an ignore list was applied. HTML escaping stays off
// (fix commands keep "<netdev>" and "&&").
func (r Report) MarshalJSON() ([]byte, error) {
	type plain Report // without the method
	p := plain(r)
	if p.Ignored == nil {
		p.Ignored = []Ignored{}
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(p); err != nil {
		return nil, err
	}
	return bytes.TrimRight(b.Bytes(), "\n"), nil
}

// Count returns how many diagnoses have each severity.
func (r *Report) Count() map[string]int {
	n := map[string]int{}
	for _, d := range r.Diagnoses {
		n[d.Severity]++
	}
	return n
}

// AtLeast reports whether a diagnosis of severity sev or worse exists (hidden ones included).
func (r *Report) AtLeast(sev string) bool {
	limit := SeverityRank(sev)
	for _, d := range r.all() {
		if SeverityRank(d.Severity) <= limit {
			return true
		}
	}
	return false
}

func (r *Report) all() []Diagnosis {
	return append(append([]Diagnosis(nil), r.Diagnoses...), r.hidden...)
}

// HideBelow removes the diagnoses less severe than min (--min-severity) and renumbers the rest;
// AtLeast still sees the hidden ones.
func (r *Report) HideBelow(min string) {
	limit := SeverityRank(min)
	r.Diagnoses = r.remove(func(d Diagnosis) bool {
		if SeverityRank(d.Severity) > limit {
			r.hidden = append(r.hidden, d)
			return true
		}
		return false
	})
	r.Hidden = len(r.hidden)
	r.MinSeverity = min
}

// HiddenCount returns how many diagnoses of each severity HideBelow hid.
func (r *Report) HiddenCount() map[string]int {
	n := map[string]int{}
	for _, d := range r.hidden {
		n[d.Severity]++
	}
	return n
}

// remove drops the diagnoses drop returns true for, renumbers the rest from 1 and points
// ExplainedByRank at the new ranks (0 when the cause was dropped).
func (r *Report) remove(drop func(Diagnosis) bool) []Diagnosis {
	newRank := map[int]int{}
	kept := []Diagnosis{}
	for _, d := range r.Diagnoses {
		if drop(d) {
			continue
		}
		newRank[d.Rank] = len(kept) + 1
		d.Rank = len(kept) + 1
		kept = append(kept, d)
	}
	for i := range kept {
		if kept[i].ExplainedByRank != 0 {
			kept[i].ExplainedByRank = newRank[kept[i].ExplainedByRank]
		}
	}
	return kept
}

// Fix is one remedy: a command and why to run it. In a rule's metadata the command is a template
// ({{device}}, {{port}}, {{pci}}, {{netdev}}, a finding's vars); in a diagnosis it is filled in.
type Fix struct {
	Command string `json:"command"`
	Note    string `json:"note,omitempty"`
}

// SetCompleteness sets Complete and Incomplete from the sources that were not (fully) read and
// the rules whose evaluation failed ("rule <id>").
func (r *Report) SetCompleteness() {
	r.Incomplete = []string{}
	for _, s := range r.Sources {
		if !s.Incomplete() {
			continue
		}
		name := s.Name
		if s.Origin != "" && s.Origin != s.Name {
			name += " (" + s.Origin + ")"
		}
		r.Incomplete = append(r.Incomplete, name)
	}
	for _, sk := range r.Skipped {
		if sk.Failed {
			r.Incomplete = append(r.Incomplete, "rule "+sk.ID)
		}
	}
	r.Complete = len(r.Incomplete) == 0
}

// NotJudgedRules counts the rules that ran but could not judge some subjects (Skipped.NotJudged).
func (r *Report) NotJudgedRules() int {
	n := 0
	for _, sk := range r.Skipped {
		if len(sk.NotJudged) > 0 {
			n++
		}
	}
	return n
}

// FailedRules counts the rules whose evaluation failed.
func (r *Report) FailedRules() int {
	n := 0
	for _, sk := range r.Skipped {
		if sk.Failed {
			n++
		}
	}
	return n
}
