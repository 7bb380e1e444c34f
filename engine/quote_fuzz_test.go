package engine

import (
	"fmt"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"

	"github.com/rdmadoctor/rdmadoctor/internal/visible"
	"github.com/rdmadoctor/rdmadoctor/report"
)

// fuzzTemplates are the fix commands of the built-in rules and templates that put placeholders
// where the built-in ones do not yet: inside the template's quotes, after a comment line.
func fuzzTemplates(t testing.TB) []string {
	set, err := Load(Builtin())
	if err != nil {
		t.Fatal(err)
	}
	tmpls := []string{
		"echo '{{device}} and {{netdev}}' > /tmp/x",
		`sysctl -w "a.{{netdev}}.b={{value}}" x"{{pci}}"y`,
		"# {{vendor}}'s tools\nibstat {{device}}",
		"echo a#{{device}} \\'{{netdev}}",
		"modprobe -a {{modules}}",
	}
	for _, r := range set.Rules {
		for _, f := range r.Fix {
			if placeholderPattern.MatchString(f.Command) {
				// What the operator replaces whole is one word to the check (the shell would read
				// the quote of "<cpus of the slot's socket>"); TestFillQuotes covers fill's side.
				tmpls = append(tmpls, operatorPlaceholders.ReplaceAllString(f.Command, "OPERATOR"))
			}
		}
	}
	return tmpls
}

var operatorPlaceholders = regexp.MustCompile(`<[A-Za-z][^<>\n]*>`)

// FuzzFixCommandQuoting fills every fix template with hostile subject names and vars and reads
// the command back with a real shell parser (mvdan.cc/sh, as bash reads it): it must have the
// same structure (statements, commands, pipes, redirects, words) as the template filled with
// plain words, every word must expand to the template's word with the value in place, no
// unquoted character may come from the value but those of a plain word, and a comment must hold
// the value with its control characters made visible. So nothing in a value can end the
// command, start another, expand, glob or substitute.
func FuzzFixCommandQuoting(f *testing.F) {
	for _, seed := range [][3]string{
		{"x;reboot;$(id)", "ib0", "0000:81:00.0"},
		{"mlx5_0", "`id`", "a'b"},
		{"a\nreboot", "b\r\nreboot", "c\"$HOME\""},
		{"\x1b]0;pwned\a\x1b[2J", "* ?[a]", "~root"},
		{"it's", "a|b&c", "${x}$((1+1))"},
		{"'", "\\", "=ls"},
		{"#c", "a b\tc", "!!"},
	} {
		f.Add(seed[0], seed[1], seed[2])
	}
	tmpls := fuzzTemplates(f)
	f.Fuzz(func(t *testing.T, device, netdev, value string) {
		if strings.ContainsRune(device+netdev+value, 0) {
			t.Skip("a NUL cannot be in a shell word")
		}
		if !utf8.ValidString(device) || !utf8.ValidString(netdev) || !utf8.ValidString(value) {
			t.Skip("mvdan.cc/sh reads UTF-8 only; TestShellQuoteSh gives other bytes to the system's shells")
		}
		if device == "" || netdev == "" || value == "" {
			t.Skip("an empty value fills as <name>, which TestFillQuotes checks")
		}
		port := 1
		// raw holds the values by placeholder name, sentinel the plain words that stand for them.
		raw := map[string]string{"device": device, "netdev": netdev, "pci": value, "port": "1"}
		sentinel := map[string]string{"device": "Q0device0Q", "netdev": "Q0netdev0Q", "pci": "Q0pci0Q", "port": "1"}
		vars, plainVars := map[string]any{}, map[string]any{}
		for _, tmpl := range tmpls {
			for _, m := range placeholderPattern.FindAllStringSubmatch(tmpl, -1) {
				if _, ok := sentinel[m[1]]; !ok {
					raw[m[1]], sentinel[m[1]] = value, "Q0"+m[1]+"0Q"
					vars[m[1]], plainVars[m[1]] = value, sentinel[m[1]]
				}
			}
		}
		got := fill(fixes(tmpls), report.Subject{Device: device, Port: &port, PCI: value, Netdev: netdev}, vars)
		plain := fill(fixes(tmpls), report.Subject{Device: sentinel["device"], Port: &port, PCI: sentinel["pci"], Netdev: sentinel["netdev"]}, plainVars)
		for i, tmpl := range tmpls {
			if err := sameCommand(got[i].Command, plain[i].Command, sentinel, raw); err != nil {
				t.Fatalf("template %q with device %q, netdev %q, value %q:\n%s\n%v", tmpl, device, netdev, value, got[i].Command, err)
			}
		}
	})
}

func fixes(tmpls []string) []report.Fix {
	out := make([]report.Fix, len(tmpls))
	for i, t := range tmpls {
		out[i] = report.Fix{Command: t}
	}
	return out
}

// shellShape is what a parsed command consists of: the node types in order (a word counts as
// one node), the words and the comments.
type shellShape struct {
	nodes    []string
	words    []*syntax.Word
	comments []string
}

func parseShell(cmd string) (shellShape, error) {
	file, err := syntax.NewParser(syntax.KeepComments(true)).Parse(strings.NewReader(cmd), "")
	if err != nil {
		return shellShape{}, err
	}
	var s shellShape
	syntax.Walk(file, func(n syntax.Node) bool {
		switch n := n.(type) {
		case nil:
			return true
		case *syntax.Word:
			s.nodes = append(s.nodes, "Word")
			s.words = append(s.words, n)
			return false
		case *syntax.Comment:
			s.comments = append(s.comments, n.Text)
		}
		s.nodes = append(s.nodes, fmt.Sprintf("%T", n))
		return true
	})
	return s, nil
}

// sameCommand checks got, a command filled with the raw values, against plain, the same
// template filled with sentinel words.
func sameCommand(got, plain string, sentinel, raw map[string]string) error {
	g, err := parseShell(got)
	if err != nil {
		return fmt.Errorf("does not parse: %v", err)
	}
	p, err := parseShell(plain)
	if err != nil {
		return fmt.Errorf("the template filled with plain words does not parse: %v", err)
	}
	if strings.Join(g.nodes, " ") != strings.Join(p.nodes, " ") {
		return fmt.Errorf("structure\n  %v\nwant\n  %v", g.nodes, p.nodes)
	}
	put := func(s string, value func(string) string) string {
		for name, sen := range sentinel {
			s = strings.ReplaceAll(s, sen, value(raw[name]))
		}
		return s
	}
	for i := range g.words {
		gl, err := oneField(g.words[i])
		if err != nil {
			return fmt.Errorf("word %d: %v", i, err)
		}
		pl, err := oneField(p.words[i])
		if err != nil {
			return fmt.Errorf("word %d of the plain command: %v", i, err)
		}
		// mvdan.cc/sh reads CR LF as LF, quoted or not; TestShellQuoteSh checks CR with the
		// system's shells.
		if want := put(pl, func(v string) string { return strings.ReplaceAll(v, "\r\n", "\n") }); gl != want {
			return fmt.Errorf("word %d expands to %q, want %q", i, gl, want)
		}
		allowed := unquotedText(p.words[i])
		for _, r := range unquotedText(g.words[i]) {
			if !strings.ContainsRune(allowed, r) && !strings.ContainsRune(plainChars, r) {
				return fmt.Errorf("word %d: unquoted %q from the input", i, r)
			}
		}
	}
	for i := range g.comments {
		if want := put(p.comments[i], visible.Escape); g.comments[i] != want {
			return fmt.Errorf("comment %q, want %q", g.comments[i], want)
		}
	}
	return nil
}

// plainChars are the characters of a plain word (visible.ShellQuote's plain word).
const plainChars = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_@%+=:,./-"

// oneField expands w as sh does an argument (without globbing, which the unquoted-character
// check covers) and insists on one field.
func oneField(w *syntax.Word) (string, error) {
	fields, err := expand.Fields(nil, w)
	if err != nil {
		return "", err
	}
	if len(fields) != 1 {
		return "", fmt.Errorf("expands to %d fields %q", len(fields), fields)
	}
	return fields[0], nil
}

// unquotedText is the text of the unquoted literal parts of a word, without the characters a
// backslash quotes.
func unquotedText(w *syntax.Word) string {
	var b strings.Builder
	for _, part := range w.Parts {
		if lit, ok := part.(*syntax.Lit); ok {
			for i := 0; i < len(lit.Value); i++ {
				if lit.Value[i] == '\\' {
					i++
					continue
				}
				b.WriteByte(lit.Value[i])
			}
		}
	}
	return b.String()
}

// TestShellQuoteSh: the system's shells read each quoted value back as one argument equal to it.
func TestShellQuoteSh(t *testing.T) {
	values := []string{"x;reboot;$(id)", "it's", "a\nb", "a\r\nb", "`id`", "$HOME", "* ?", "~root", "=ls", "a b", "\\", "!!", "\x1b]0;t\a", "Soci\xe9t\xe9"}
	for _, sh := range []string{"sh", "bash", "dash"} {
		path, err := exec.LookPath(sh)
		if err != nil {
			continue
		}
		var args []string
		for _, v := range values {
			args = append(args, visible.ShellQuote(v))
		}
		out, err := exec.Command(path, "-c", `printf '%s\0' `+strings.Join(args, " ")).Output()
		if err != nil {
			t.Fatalf("%s: %v", sh, err)
		}
		got := strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00")
		if strings.Join(got, "|") != strings.Join(values, "|") || len(got) != len(values) {
			t.Errorf("%s read %q back as %q", sh, values, got)
		}
	}
}
