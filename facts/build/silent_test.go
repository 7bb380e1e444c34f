package build

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/fixtures"
)

// TestNothingReadIsNeverOK: every real capture in fixtures/, saved under every tool's name, is
// either read (it gave facts) or its source is not "ok": a file taken as a tool's output that
// yields nothing is reported as such (issue 11 item 2).
func TestNothingReadIsNeverOK(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(fixtures.Dir(), "*", "*"))
	var silent []string
	for _, f := range files {
		rel, _ := filepath.Rel(fixtures.Dir(), f)
		rel = filepath.ToSlash(rel)
		if strings.HasPrefix(rel, "corpus/") || strings.HasPrefix(rel, "scenarios/") || strings.HasPrefix(rel, "live/") ||
			strings.HasSuffix(rel, ".md") || strings.HasSuffix(rel, ".go") || strings.HasSuffix(rel, ".txtar") {
			continue
		}
		if st, err := os.Stat(f); err != nil || st.IsDir() {
			continue
		}
		data, _ := os.ReadFile(f)
		if len(bytes.TrimSpace(data)) == 0 {
			continue
		}
		for _, sp := range Specs() {
			if logSpecs[sp.Name] {
				continue
			}
			var name string
			switch {
			case len(sp.Commands) > 0:
				name = sp.Commands[0]
			case len(sp.Paths) > 0:
				name = strings.ReplaceAll(sp.Paths[0], "*", "x")
			default:
				continue
			}
			s, err := Snapshot(fstest.MapFS{name: {Data: data}}, facts.SourceInfo{})
			if err != nil {
				continue
			}
			for _, src := range s.Sources {
				if src.Origin != name || src.Status != facts.StatusOK {
					continue
				}
				if reader := specNamed(Specs(), src.Name); reader.Answered != nil && reader.Answered(data) {
					continue // an answer without facts (an empty GID table)
				}
				if stampCount(s, src.Name, name) == 0 {
					silent = append(silent, rel+" as "+name+" -> "+src.Name)
				}
			}
		}
	}
	sort.Strings(silent)
	for _, l := range silent {
		t.Error(l)
	}
}

// TestNothingReadNamesTheFile: an `ethtool -i` output saved without its interface in the name
// (the driver, firmware and bus-info of nobody) is reported, naming the file.
func TestNothingReadNamesTheFile(t *testing.T) {
	s, err := Snapshot(fixtures.Files(t, map[string]string{"ethtool_-i": "ethtool_driver/mlx4-en.txt"}), facts.SourceInfo{})
	if err != nil {
		t.Fatal(err)
	}
	src := sourceOf(t, s, "ethtool_-i")
	if src.Status != facts.StatusUnrecognized || src.Note != "ethtool_-i: read as ethtool_driver output but held none of its lines" ||
		!strings.Contains(src.Error, "none could be tied to a device, port or interface") {
		t.Errorf("source %+v", src)
	}
	if slices.Contains(s.Available, "ethtool_driver") {
		t.Errorf("ethtool_driver available from a file that gave nothing: %v", s.Available)
	}
	// The same output named for its interface is read.
	s, _ = Snapshot(fixtures.Files(t, map[string]string{"ethtool_-i_eth2": "ethtool_driver/mlx4-en.txt"}), facts.SourceInfo{})
	if src := sourceOf(t, s, "ethtool_-i_eth2"); src.Status != facts.StatusOK {
		t.Errorf("named: %+v", src)
	}
}
