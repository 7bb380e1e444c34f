package build

import (
	"io"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/google/go-cmp/cmp"

	"github.com/rdmadoctor/rdmadoctor/facts/parse"
)

// TestLongLines: a line longer than parse.MaxLineBytes is emptied (its newline kept, the lines
// after it keep their numbers) and named with its number and length, read whole or streamed
// (through a reader that hands out one byte at a time, and one that hands out all it can).
func TestLongLines(t *testing.T) {
	long := strings.Repeat("A", parse.MaxLineBytes+1)
	for _, tc := range []struct {
		name, in, want string
		lines          []int
		sizes          []string
	}{
		{"none", "a\nb\n", "a\nb\n", nil, nil},
		{"at the cap", "a\n" + long[1:] + "\nb", "a\n" + long[1:] + "\nb", nil, nil},
		{"one", "a\n" + long + "\nb\n", "a\n\nb\n", []int{2}, []string{"65537 bytes"}},
		{"first, crlf", long + "\r\nb\n", "\nb\n", []int{1}, []string{"65538 bytes"}},
		{"last, no newline", "a\nb\n" + long + long, "a\nb\n", []int{3}, []string{"131074 bytes"}},
		{"two", long + "\n" + long + "\nc", "\n\nc", []int{1, 2}, []string{"65537 bytes", "65537 bytes"}},
		{"after short lines", strings.Repeat("x\n", 40000) + long + "\nz\n", strings.Repeat("x\n", 40000) + "\nz\n", []int{40001}, []string{"65537 bytes"}},
	} {
		check := func(how string, got []byte, ps parse.Problems) {
			t.Helper()
			if string(got) != tc.want {
				t.Errorf("%s %s: got %d bytes %.40q, want %d bytes %.40q", tc.name, how, len(got), got, len(tc.want), tc.want)
			}
			var lines []int
			for i, p := range ps {
				lines = append(lines, p.Line)
				if !strings.Contains(p.Why, "a line of "+tc.sizes[i]) || !strings.Contains(p.Why, "not read") || len(p.Text) > longQuote {
					t.Errorf("%s %s: problem %+v", tc.name, how, p)
				}
			}
			if diff := cmp.Diff(tc.lines, lines); diff != "" {
				t.Errorf("%s %s: lines named (-want +got):\n%s", tc.name, how, diff)
			}
		}
		got, ps := cutLongLines([]byte(tc.in))
		check("whole", got, ps)
		for how, r := range map[string]io.Reader{"streamed": strings.NewReader(tc.in), "streamed byte by byte": iotest.OneByteReader(strings.NewReader(tc.in))} {
			lc := newLineCapper(r)
			got, err := io.ReadAll(lc)
			if err != nil {
				t.Fatal(err)
			}
			check(how, got, lc.Long)
		}
	}
}
