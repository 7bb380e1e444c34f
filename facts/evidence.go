package facts

// Evidence points at the input line that proves a fact, so a diagnosis can quote it.
type Evidence struct {
	// Source is the spec name of the input, e.g. "ibstat" or "sysfs_infiniband".
	Source string `json:"source"`
	// Path is the file inside the snapshot, e.g. "sos_commands/infiniband/ibstat".
	Path string `json:"path"`
	// Line is 1-based; 0 when the whole file is the evidence (a sysfs attribute).
	Line int `json:"line"`
	// Text is the line as read, without its trailing newline.
	Text string `json:"text"`
}

// EvidenceMap maps a fact's JSON field name (e.g. "state", "counters.symbol_error") to the line
// it was read from.
type EvidenceMap map[string]Evidence

// Set records ev for field unless the field already has evidence.
func (m *EvidenceMap) Set(field string, ev Evidence) {
	if *m == nil {
		*m = EvidenceMap{}
	}
	if _, ok := (*m)[field]; !ok {
		(*m)[field] = ev
	}
}

// Stamp fills Source and Path of every entry that lacks them: parsers know lines, not files.
func (m EvidenceMap) Stamp(source, path string) {
	for k, ev := range m {
		if ev.Source == "" {
			ev.Source = source
		}
		if ev.Path == "" {
			ev.Path = path
		}
		m[k] = ev
	}
}
