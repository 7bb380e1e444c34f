package visible

import (
	"os/exec"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestEscape(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"mlx5_0", "mlx5_0"},
		{"0000:81:00.0", "0000:81:00.0"},
		{"LnkSta:\tSpeed 8GT/s", "LnkSta:\tSpeed 8GT/s"},
		{`printf 'a\n'`, `printf 'a\n'`},
		{"Société ñ 日本", "Société ñ 日本"},
		{"\x1b]0;pwned\a\x1b[2J", `\x1b]0;pwned\a\x1b[2J`},
		{"a\nb\r\nc", `a\nb\r\nc`},
		{"nul\x00del\x7f", `nul\x00del\x7f`},
		{"csi\u009b31m", `csi\x9b31m`},
		{"raw\x9bbyte", `raw\x9bbyte`},
		{"Soci\xe9t\xe9", `Soci\xe9t\xe9`},
		{"rtl\u202eevil\u2066x\u2029", `rtl\u202eevil\u2066x\u2029`},
	} {
		if got := Escape(tc.in); got != tc.want {
			t.Errorf("Escape(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// FuzzEscape holds that nothing a terminal acts on survives Escape, and that text without
// control characters comes back unchanged.
func FuzzEscape(f *testing.F) {
	for _, s := range []string{"mlx5_0", "\x1b]0;t\a", "a\nb", "\xff\x9b", "\u202e"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := Escape(s)
		if !utf8.ValidString(got) {
			t.Fatalf("Escape(%q) = %q: not UTF-8", s, got)
		}
		if i := strings.IndexFunc(got, needsEscape); i >= 0 {
			t.Fatalf("Escape(%q) = %q: control character at %d", s, got, i)
		}
		if strings.IndexFunc(s, needsEscape) < 0 && utf8.ValidString(s) && got != s {
			t.Fatalf("Escape(%q) = %q, want it unchanged", s, got)
		}
	})
}

// TestCommandForBash: a fix command whose quoted values hold control characters, bidirectional
// marks or bytes that are not UTF-8 is shown with none left (nothing for Escape to rewrite) and
// bash reads it back as the same command: printf gets the values byte for byte, whether the
// value was quoted as a word (ShellQuote) or closed into a template's single quotes; a comment
// is shown escaped and is still a comment.
func TestCommandForBash(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("bash not installed")
	}
	values := []string{"ib\x1b[2J", "a\nreboot", "a\r\nb", "it's\x1b", "x'\a'", `back\slash` + "\x01", "Soci\xe9t\xe9", "ab\u202ecd", "\x1b]0;t\a", "\x9b1", "tab\there\x7f", "\x1bf0"}
	for _, v := range values {
		for _, cmd := range []string{
			`printf '%s\0' ` + ShellQuote(v) + ` /sys/class/net/` + ShellQuote(v) + `/mtu`,
			`printf '%s\0' 'pre ` + strings.ReplaceAll(v, "'", `'\''`) + ` post' # on ` + v,
		} {
			shown := Command(cmd)
			if NeedsEscape(shown) {
				t.Errorf("%q shown as %q: still holds what Escape rewrites", cmd, shown)
			}
			if err := exec.Command(bash, "-n", "-c", shown).Run(); err != nil {
				t.Errorf("bash -n %q: %v", shown, err)
			}
			out, err := exec.Command(bash, "-c", shown).Output()
			if err != nil {
				t.Fatalf("bash -c %q: %v", shown, err)
			}
			want := v + "\x00/sys/class/net/" + v + "/mtu\x00"
			if strings.Contains(cmd, "'pre ") {
				want = "pre " + v + " post\x00"
			}
			if string(out) != want {
				t.Errorf("%q shown as %q: bash reads %q, want %q", cmd, shown, out, want)
			}
		}
	}
	if got, want := Command("ibstat "+ShellQuote("ib\x1b[2J")+" 1"), `ibstat $'ib\x1b[2J' 1`; got != want {
		t.Errorf("Command = %q, want %q", got, want)
	}
	if got := Command("ibstat 'mlx5_0' 1"); got != "ibstat 'mlx5_0' 1" {
		t.Errorf("a command without control characters changed: %q", got)
	}
}
