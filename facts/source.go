package facts

import (
	"fmt"
	"unicode/utf8"
)

// Source statuses, as they appear in sources[].status.
const (
	StatusOK           = "ok"           // read and parsed
	StatusPartial      = "partial"      // read, but some lines could not be used (Problems); the rest is kept
	StatusMissing      = "missing"      // looked for, not in the snapshot / command not installed
	StatusError        = "error"        // present but unreadable or unparsable
	StatusTimeout      = "timeout"      // the command was killed at its timeout
	StatusUnsupported  = "unsupported"  // the tool ran and refused (e.g. "No IB devices found")
	StatusUnrecognized = "unrecognized" // a file in the snapshot that no parser recognises
	StatusUnjoined     = "unjoined"     // facts of two inputs not linked: their evidence disagrees or is missing
	StatusEmpty        = "empty"        // present but 0 bytes or only whitespace: not read, and says nothing (not "no device")
)

// Source records one input that was looked for.
type Source struct {
	// Name is the spec name, e.g. "ibstat", "mstconfig_query", "sysfs_infiniband".
	Name string `json:"name"`
	// Origin is the file inside the snapshot, or the command line for a live run.
	Origin string `json:"origin"`
	// Status is one of ok, partial, missing, error, timeout, unsupported, unrecognized, unjoined (Name
	// "join", Origin the device: why it was not linked to a PCI function, so `<pci>` stays),
	// empty (the file is 0 bytes or only whitespace: the command printed nothing, or its capture
	// failed; it was not read and is no evidence of anything).
	Status string `json:"status"`
	// Error explains any status but ok, e.g. "mstconfig not installed" or "line 7: ...".
	Error string `json:"error,omitempty"`
	// RecognisedBy says how a loose capture was identified: "path", "name" or "content".
	RecognisedBy string `json:"recognised_by,omitempty"`
	// Note says how the file was read when that is not what its name says ("ibstat: content is
	// ibstatus output, read as ibstatus"; which lines of a file holding several outputs this
	// source is), and what of an input that was read was not kept ("12,345 more link_down lines
	// not kept (the first and last 64 are)", what was skipped of an archive); "; " joins both.
	Note string `json:"note,omitempty"`
	// Problems are the lines of a partial source that could not be used, at most MaxProblems;
	// MoreProblems counts the others.
	Problems     []Problem `json:"problems,omitempty"`
	MoreProblems int       `json:"more_problems,omitempty"`
}

// MaxProblems caps Source.Problems: a file of garbage must not make a report of garbage.
const MaxProblems = 20

// Problem is one input line a parser could not use, and why; the rest of the file was kept.
type Problem struct {
	// Line is 1-based; 0 when the problem is about the file as a whole.
	Line int `json:"line"`
	// Text is the line as read.
	Text string `json:"text"`
	// Why says what was wrong with it, e.g. "Rate: not a rate" or "Port 1: block has no State line".
	Why string `json:"why"`
}

// Incomplete reports whether the source was present but not (fully) read: its facts may be
// missing or partial, so a report built on it cannot claim the node is healthy.
func (s Source) Incomplete() bool {
	// A file with unrecognized content is not an input: the fact groups it would feed are
	// missing, and the rules that need them are skipped, which the report says.
	return s.Status == StatusPartial || s.Status == StatusError || s.Status == StatusTimeout
}

// ReadInPart records in s, the source of a capture whose command was stopped before it ended
// (cut at the gather's output budget, killed at sos's timeout), that only what it printed was
// read, why saying so: a source read ok becomes partial with why as its error, a partial one
// gets why before its own error, so the report is incomplete; the result is true. For any other
// status it changes nothing and is false: the caller words that case.
func (s *Source) ReadInPart(why string) bool {
	switch s.Status {
	case StatusOK:
		s.Status, s.Error = StatusPartial, Clip(why, MaxMessageBytes)
	case StatusPartial:
		s.Error = Clip(why+"; "+s.Error, MaxMessageBytes)
	default:
		return false
	}
	return true
}

// SourceInfo says where the snapshot came from.
type SourceInfo struct {
	// Kind is live, sosreport, snapshot (a gather output) or captures (loose files).
	Kind string `json:"kind"`
	// Path is the directory, archive or file given by the user; empty for live.
	Path string `json:"path"`
}

// MaxMessageBytes caps a message about an input (a Source's Error and Note, a warning on
// stderr): a parse error quotes its line, and a line can be megabytes long.
const MaxMessageBytes = 1024

// Clip returns s cut to at most max bytes (on a rune boundary), saying how much was left out.
func Clip(s string, max int) string {
	if len(s) <= max {
		return s
	}
	cut := max
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return fmt.Sprintf("%s... (%d more bytes)", s[:cut], len(s)-cut)
}
