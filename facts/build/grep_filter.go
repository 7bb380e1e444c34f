package build

import (
	"regexp"
	"strings"
)

// partialMarks are the corpus's marks of a capture that is part of an output (corpus README:
// `_EXCERPT`, `_FILTERED`, `_TRUNCATED`): what it lacks is unknown, and by which filter is not said.
var partialMarks = []string{"EXCERPT", "FILTERED", "TRUNCATED", "excerpt", "filtered", "truncated"}

// grepFilter reads the line filter of a capture from its file name's arguments: what follows
// "grep_" (`lspci -vvv | grep LnkSta` saved as lspci_-vvv_grep_LnkSta gives "LnkSta"), as a
// regular expression over the tool's lines. sos mangles "|" and " " alike to "_", so the words
// are alternatives ("grep -E 'Width|PCIeGen'" -> "Width|PCIeGen"); "-e" separates patterns too,
// "-i" makes the pattern case-insensitive, other flags are dropped. filtered is true for a grep
// and for a name marked as part of an output (partialMarks); pattern is "" when the name does
// not say which lines were kept (a mark, `grep -v`, a pattern that is not a regular expression).
func grepFilter(args string) (pattern string, filtered bool) {
	for _, w := range strings.Split(args, "_") {
		filtered = filtered || isPartialMark(w)
	}
	_, pat, ok := strings.Cut("_"+args, "_grep_")
	if !ok {
		return "", filtered
	}
	var alts []string
	fold := false
	for _, w := range strings.Split(pat, "_") {
		switch {
		case w == "" || w == "-e" || w == "-E" || w == "-P" || w == "-w" || isPartialMark(w):
		case w == "-i":
			fold = true
		case w == "-v":
			return "", true // the lines kept are those that do not match: unknown which
		case strings.HasPrefix(w, "-"):
		default:
			alts = append(alts, w)
		}
	}
	if len(alts) == 0 {
		return "", true
	}
	pattern = strings.Join(alts, "|")
	if fold {
		pattern = "(?i)" + pattern
	}
	if _, err := regexp.Compile(pattern); err != nil {
		return "", true
	}
	return pattern, true
}

func isPartialMark(w string) bool {
	for _, m := range partialMarks {
		if w == m {
			return true
		}
	}
	return false
}
