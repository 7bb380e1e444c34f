package report

// Severities and confidences, most serious first; the index is the rank order.
var (
	Severities  = []string{"critical", "error", "warning", "info"}
	Confidences = []string{"high", "medium", "low"}
)

// SeverityRank is the position of sev in Severities (0 = critical); unknown severities sort last.
func SeverityRank(sev string) int {
	for i, s := range Severities {
		if s == sev {
			return i
		}
	}
	return len(Severities)
}

// ValidSeverity reports whether sev is one of Severities.
func ValidSeverity(sev string) bool { return SeverityRank(sev) < len(Severities) }

// ConfidenceRank is the position of c in Confidences (0 = high); unknown confidences sort last.
func ConfidenceRank(c string) int {
	for i, x := range Confidences {
		if x == c {
			return i
		}
	}
	return len(Confidences)
}
