package build

import (
	"bytes"
	"io/fs"
	"os"
	"testing"

	"github.com/rdmadoctor/rdmadoctor/facts/source"
	"github.com/rdmadoctor/rdmadoctor/fixtures"
)

// TestSniffMatchesRegexp holds every sniff expression of the package to its expression on the real
// captures of fixtures/: each file's head as classify reads it, and each of its lines (split
// sniffs lines).
func TestSniffMatchesRegexp(t *testing.T) {
	if len(sniffRes) < 20 {
		t.Fatalf("only %d sniff expressions registered", len(sniffRes))
	}
	files, matches := 0, make([]int, len(sniffRes))
	check := func(name string, b []byte, findAll bool) {
		for i, s := range sniffRes {
			want := s.Regexp().Match(b)
			if got := s.Match(b); got != want {
				t.Errorf("%s: %s: Match = %v, the expression says %v", name, s, got, want)
			}
			if want {
				matches[i]++
			}
			if !findAll {
				continue
			}
			if got, want := len(s.FindAll(b, 5)), len(s.Regexp().FindAll(b, 5)); got != want {
				t.Errorf("%s: %s: FindAll found %d, the expression %d", name, s, got, want)
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
		if n == 0 && sniffRes[i].Needs() != nil {
			// Not an error: a spec may have no capture in fixtures/ yet.
			t.Logf("%s matches no fixture", sniffRes[i])
		}
	}
}
