package regexplit

import (
	"regexp"
	"regexp/syntax"
	"strings"
	"testing"
)

// needString renders a need: "lit" (~lit when case-folded), all as (a & b), any as (a | b),
// nil as *.
func needString(n *Need) string {
	switch {
	case n == nil:
		return "*"
	case n.Lit != "" && n.Fold:
		return "~" + n.Lit
	case n.Lit != "":
		return n.Lit
	}
	parts, sep := n.All, " & "
	if n.All == nil {
		parts, sep = n.Any, " | "
	}
	out := make([]string, len(parts))
	for i, p := range parts {
		out[i] = needString(p)
	}
	return "(" + strings.Join(out, sep) + ")"
}

func TestNeedOf(t *testing.T) {
	for expr, want := range map[string]string{
		`(?m)^# Port (extended )?counters: `:                      "(# Port  & counters: )",
		`(?m)^(Ca|Switch)\s*: 0x[0-9a-f]+ ports \d+ "`:            `((Ca | Switch) & : 0x &  ports  &  ")`,
		`(?m)^(Errors for (0x[0-9a-fA-F]+ )?"|## Summary: \d+ n)`: `(Errors for  | (## Summary:  &  n))`,
		`(?m)^(a|Switch)x`: "*", // one alternative needs nothing long enough
		`(?i)mellanox`:     "~MELLANOX",
		`(?i)bind failed|Error from osm|ERR 5426`: "(~BIND FAILED | ~ERR)", // (?i) holds to the end; ERR is the prefix both others share
		`\bERR [0-9A-F]{4}\b|(?i)\berror\b`:       "(ERR  | ~ERROR)",
		`(?i)disk`:                                "*", // k also matches the Kelvin sign
		`(?i)status`:                              "*", // s also matches the long s
		`(?i)größe`:                               "*", // not ASCII
		`(?m)^\s*hca_id:`:                         "hca_id:",
		`x{2,}yz`:                                 "yz",
		`(?:ab)*cd`:                               "cd",
		`(?:ab){0,3}cd(?:ef)+`:                    "(cd & ef)",
		`\[[^\]]*\] ==\(.*\)==>`:                  "(] ==( & )==>)",
	} {
		parsed, err := syntax.Parse(expr, syntax.Perl)
		if err != nil {
			t.Fatal(err)
		}
		if got := needString(needOf(parsed.Simplify())); got != want {
			t.Errorf("needOf(%s) = %s, want %s", expr, got, want)
		}
	}
}

// TestMatchesRegexp: Match and MatchString answer as the expression, case-folded literals
// included.
func TestMatchesRegexp(t *testing.T) {
	exprs := []string{`(?i)bind failed|Error from osm_opensm_bind|ERR 5426`, `\bERR [0-9A-F]{4}\b|(?i)\berror\b`,
		`(?i)disk full`, `(?m)^# Port (extended )?counters: `, `SUBNET UP`}
	inputs := []string{"", "osm_sm_bind: ERR 2E10: SM MAD Controller BIND FAILED", "Error from osm_opensm_bind (0x2A)",
		"an ERROR here", "no errors", "terror", "DISK FULL", "disK full", "dis\u212a full", "# Port counters: Lid 1",
		"# Port extended counters: ", "x\n# Port counters: ", "SUBNET UP", "subnet up", "ERR 5426", "Bind Failed"}
	for _, expr := range exprs {
		r, re := New(expr), regexp.MustCompile(expr)
		for _, in := range inputs {
			if got, want := r.MatchString(in), re.MatchString(in); got != want {
				t.Errorf("%s on %q: MatchString = %v, the expression says %v", expr, in, got, want)
			}
			if got, want := r.Match([]byte(in)), re.Match([]byte(in)); got != want {
				t.Errorf("%s on %q: Match = %v, the expression says %v", expr, in, got, want)
			}
		}
	}
}
