package visible

import (
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
