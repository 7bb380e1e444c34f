package report

// Ignore is one entry of the site's ignore list: a rule id, optionally narrowed to a subject,
// and why the site accepts the condition.
type Ignore struct {
	ID string
	// Subject narrows the entry: each field that is set must equal the diagnosis' field (a device
	// alone matches every port of it); an empty Subject matches every subject.
	Subject Subject
	Reason  string
}

// Matches reports whether the entry covers the diagnosis.
func (ig Ignore) Matches(d Diagnosis) bool {
	s := ig.Subject
	return ig.ID == d.ID &&
		(s.Device == "" || s.Device == d.Subject.Device) &&
		(s.Port == nil || d.Subject.Port != nil && *s.Port == *d.Subject.Port) &&
		(s.PCI == "" || s.PCI == d.Subject.PCI) &&
		(s.Netdev == "" || s.Netdev == d.Subject.Netdev) &&
		(s.NodeGUID == "" || s.NodeGUID == d.Subject.NodeGUID)
}

// Ignored is a diagnosis the ignore list covers: the report shows it with the reason, outside
// the ranked list.
type Ignored struct {
	ID       string  `json:"id"`
	Severity string  `json:"severity"`
	Subject  Subject `json:"subject"`
	Reason   string  `json:"reason"`
	Message  string  `json:"message"`
}

// Ignore moves the diagnoses an entry of list covers (the first matching entry gives the reason)
// from Diagnoses to Ignored and renumbers the rest; AtLeast does not see them. Apply it before
// HideBelow so that hidden diagnoses can be ignored too.
func (r *Report) Ignore(list []Ignore) {
	if r.Ignored == nil {
		r.Ignored = []Ignored{}
	}
	r.Diagnoses = r.remove(func(d Diagnosis) bool {
		for _, ig := range list {
			if ig.Matches(d) {
				r.Ignored = append(r.Ignored, Ignored{ID: d.ID, Severity: d.Severity, Subject: d.Subject, Reason: ig.Reason, Message: d.Message})
				return true
			}
		}
		return false
	})
}

// IsIgnored reports whether a diagnosis of rule id was ignored (to explain a consequence whose
// cause is not in the list).
func (r *Report) IsIgnored(id string) bool {
	for _, ig := range r.Ignored {
		if ig.ID == id {
			return true
		}
	}
	return false
}
