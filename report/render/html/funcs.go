package html

import (
	"html/template"
	"strconv"
	"strings"

	"github.com/rdmadoctor/rdmadoctor/report"
)

// funcs are the template's helpers; none of them returns unescaped markup.
var funcs = template.FuncMap{
	"cut":     cut,
	"subject": func(s report.Subject) string { return s.String() },
	"status":  func(s string) string { return strings.ReplaceAll(s, "_", " ") },
	"trim":    strings.TrimSpace,
	"itoa":    strconv.Itoa,
	"join":    strings.Join,
	"f1":      func(x float64) string { return strconv.FormatFloat(x, 'f', 1, 64) },
	"add":     func(a, b int) int { return a + b },
	"thousands": func(n int) string {
		s := strconv.Itoa(n)
		for i := len(s) - 3; i > 0; i -= 3 {
			s = s[:i] + "," + s[i:]
		}
		return s
	},
}

// cut shortens s to MaxTextRunes runes, saying how much it left out. Fix commands are never cut
// (they are copied and run).
func cut(s string) string {
	r := []rune(s)
	if len(r) <= MaxTextRunes {
		return s
	}
	return string(r[:MaxTextRunes]) + " … (" + strconv.Itoa(len(r)-MaxTextRunes) + " more characters)"
}
