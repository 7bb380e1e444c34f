package facts

import (
	"fmt"
	"unicode/utf8"
)

// Source statuses, as they appear in sources[].status.
const (
	StatusOK           = "ok"           // read and parsed
	StatusMissing      = "missing"      // looked for, not in the snapshot / command not installed
	StatusError        = "error"        // present but unreadable or unparsable
	StatusTimeout      = "timeout"      // the command was killed at its timeout
	StatusUnsupported  = "unsupported"  // the tool ran and refused (e.g. "No IB devices found")
	StatusUnrecognized = "unrecognized" // a file in the snapshot that no parser recognises
)

// Source records one input that was looked for.
type Source struct {
	// Name is the spec name, e.g. "ibstat", "mstconfig_query", "sysfs_infiniband".
	Name string `json:"name"`
	// Origin is the file inside the snapshot, or the command line for a live run.
	Origin string `json:"origin"`
	// Status is one of ok, missing, error, timeout, unsupported, unrecognized.
	Status string `json:"status"`
	// Error explains any status but ok, e.g. "mstconfig not installed" or "line 7: ...".
	Error string `json:"error,omitempty"`
	// Note says what of an input that was read was not kept, e.g. "12,345 more link_down
	// lines not kept (the first and last 64 are)", or what was skipped of an archive.
	Note string `json:"note,omitempty"`
	// RecognisedBy says how a loose capture was identified: "path", "name" or "content".
	RecognisedBy string `json:"recognised_by,omitempty"`
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
