package build

import (
	"bytes"
	"io/fs"
	"os"
	"regexp/syntax"
	"testing"

	"github.com/rdmadoctor/rdmadoctor/facts/source"
	"github.com/rdmadoctor/rdmadoctor/fixtures"
)

// needString renders a need: "lit", all as (a & b), any as (a | b), nil as *.
func needString(n *need) string {
	if n == nil {
		return "*"
	}
	if n.lit != nil {
		return string(n.lit)
	}
	parts, sep := n.all, " & "
	if n.all == nil {
		parts, sep = n.any, " | "
	}
	s := "("
	for i, p := range parts {
		if i > 0 {
			s += sep
		}
		s += needString(p)
	}
	return s + ")"
}

func TestNeedOf(t *testing.T) {
	for expr, want := range map[string]string{
		`(?m)^# Port (extended )?counters: `:                      "(# Port  & counters: )",
		`(?m)^(Ca|Switch)\s*: 0x[0-9a-f]+ ports \d+ "`:            `((Ca | Switch) & : 0x &  ports  &  ")`,
		`(?m)^(Errors for (0x[0-9a-fA-F]+ )?"|## Summary: \d+ n)`: `(Errors for  | (## Summary:  &  n))`,
		`(?m)^(a|Switch)x`:       "*", // one alternative needs nothing long enough
		`(?i)mellanox`:           "*", // case-folded
		`(?m)^\s*hca_id:`:        "hca_id:",
		`x{2,}yz`:                "yz",
		`(?:ab)*cd`:              "cd",
		`(?:ab){0,3}cd(?:ef)+`:   "(cd & ef)",
		`\[[^\]]*\] ==\(.*\)==>`: "(] ==( & )==>)",
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

// TestSniffMatchesRegexp holds every sniffRe of the package to its expression on the real
// captures of fixtures/: each file's head as classify reads it, and each of its lines (split
// sniffs lines).
func TestSniffMatchesRegexp(t *testing.T) {
	if len(sniffRes) < 20 {
		t.Fatalf("only %d sniff expressions registered", len(sniffRes))
	}
	files, matches := 0, make([]int, len(sniffRes))
	check := func(name string, b []byte, findAll bool) {
		for i, s := range sniffRes {
			want := s.re.Regexp().Match(b)
			if got := s.Match(b); got != want {
				t.Errorf("%s: %s: Match = %v, the expression says %v", name, s.re, got, want)
			}
			if want {
				matches[i]++
			}
			if !findAll {
				continue
			}
			if got, want := len(s.FindAll(b, 5)), len(s.re.Regexp().FindAll(b, 5)); got != want {
				t.Errorf("%s: %s: FindAll found %d, the expression %d", name, s.re, got, want)
			}
		}
	}
	err := fs.WalkDir(os.DirFS(fixtures.Dir()), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(fixtures.Path(p))
		if err != nil {
			return err
		}
		if source.IsBinary(data) || source.IsCompressed(data) {
			return nil
		}
		files++
		head := source.Text(data[:min(len(data), sniffBytes)])
		check(p, head, true)
		for _, l := range bytes.SplitAfter(head, []byte("\n")) {
			check(p, l, false)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d files", files)
	for i, n := range matches {
		if n == 0 && sniffRes[i].needs() != nil {
			// Not an error: a spec may have no capture in fixtures/ yet.
			t.Logf("%s matches no fixture", sniffRes[i].re)
		}
	}
}
