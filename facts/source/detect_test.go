package source_test

import (
	"strings"
	"testing"

	"github.com/rdmadoctor/rdmadoctor/facts/source"
)

func TestIsBinary(t *testing.T) {
	text := strings.Repeat("CA 'mlx5_0'\n", 700) // over 8 KiB
	for _, tc := range []struct {
		name string
		data string
		want bool
	}{
		{"empty", "", false},
		{"ascii", "CA 'mlx5_0'\n", false},
		{"utf-8", "Gerät: Mellanox®\n", false},
		{"NUL", "CA 'mlx5_0'\x00\n", true},
		{"latin-1", "Ger\xe4t\n", false},
		{"latin-1 in dmesg", "[    0.000000] DMI: Soci\xe9t\xe9 Anonyme/X11, BIOS 1.0\n", false},
		{"UTF-8 BOM", "\xef\xbb\xbfCA 'mlx5_0'\n", false},
		{"mostly not text", "\x01\x02\x03\xff\xfe\x80abc", true},
		{"UTF-16LE with BOM", "\xff\xfeC\x00A\x00", true},
		{"ELF", "\x7fELF\x02\x01\x01\x00", true},
		// Only the first 8 KiB count, as for --input; a rune cut at that boundary is not junk.
		{"junk after 8 KiB", text + "\x00\xff", false},
		{"rune cut at 8 KiB", text[:8191] + "é" + text, false},
	} {
		if got := source.IsBinary([]byte(tc.data)); got != tc.want {
			t.Errorf("%s: IsBinary = %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestText(t *testing.T) {
	for in, want := range map[string]string{
		"\xef\xbb\xbfCA 'mlx5_0'\n":    "CA 'mlx5_0'\n",
		"DMI: Soci\xe9t\xe9 Anonyme\n": "DMI: Soci\uFFFDt\uFFFD Anonyme\n",
		"plain\n":                      "plain\n",
	} {
		if got := string(source.Text([]byte(in))); got != want {
			t.Errorf("Text(%q) = %q, want %q", in, got, want)
		}
	}
}
