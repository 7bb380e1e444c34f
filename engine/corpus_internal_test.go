package engine

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/facts/build"
	"github.com/rdmadoctor/rdmadoctor/facts/source"
	"github.com/rdmadoctor/rdmadoctor/fixtures"
)

// corpusSnapshots builds every case of fixtures/corpus, by case folder name.
func corpusSnapshots(t testing.TB) map[string]*facts.Snapshot {
	t.Helper()
	dirs, _ := filepath.Glob(filepath.Join(fixtures.CorpusDir(t), "*"))
	out := map[string]*facts.Snapshot{}
	for _, d := range dirs {
		if st, err := os.Stat(d); err != nil || !st.IsDir() {
			continue
		}
		fsys, info, err := source.Open(d)
		if err != nil {
			t.Fatal(err)
		}
		s, err := build.Snapshot(fsys, info)
		if err != nil {
			t.Fatal(err)
		}
		out[filepath.Base(d)] = s
	}
	return out
}
