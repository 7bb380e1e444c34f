package engine_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io/fs"
	"math/rand"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/facts/build"
	"github.com/rdmadoctor/rdmadoctor/fixtures"
	"github.com/rdmadoctor/rdmadoctor/report"
)

// mutations damage one capture the ways real captures get damaged (issue 10).
var mutations = []struct {
	kind string
	do   func(r *rand.Rand, b []byte) []byte
}{
	{"truncate", func(r *rand.Rand, b []byte) []byte { return b[:r.Intn(len(b))] }},
	{"drop-line", func(r *rand.Rand, b []byte) []byte {
		lines := bytes.SplitAfter(b, []byte("\n"))
		i := r.Intn(len(lines))
		return bytes.Join(append(lines[:i:i], lines[i+1:]...), nil)
	}},
	{"duplicate-line", func(r *rand.Rand, b []byte) []byte {
		lines := bytes.SplitAfter(b, []byte("\n"))
		i := r.Intn(len(lines))
		l := append(append([]byte{}, lines[i]...), '\n')
		return bytes.Join(append(append(lines[:i+1:i+1], l), lines[i+1:]...), nil)
	}},
	{"crlf", func(r *rand.Rand, b []byte) []byte { return bytes.ReplaceAll(b, []byte("\n"), []byte("\r\n")) }},
	{"non-utf8-byte", func(r *rand.Rand, b []byte) []byte {
		i := r.Intn(len(b) + 1)
		return append(append(append([]byte{}, b[:i]...), 0xe9), b[i:]...)
	}},
	{"number-to-word", func(r *rand.Rand, b []byte) []byte {
		locs := numberRe.FindAllIndex(b, -1)
		if len(locs) == 0 {
			return nil
		}
		l := locs[r.Intn(len(locs))]
		return append(append(append([]byte{}, b[:l[0]]...), "fifty"...), b[l[1]:]...)
	}},
}

var numberRe = regexp.MustCompile(`\b\d+\b`)

// TestMutantsNeverSilent: over mutants of every corpus case with diagnoses (a fixed seed, a
// fixed number per case and kind), a diagnosis of the undamaged case may disappear only when
// the report names a problem with the damaged file (its source is not ok). A silent loss is the
// false "No problem found" this tool must not give. One loss no reader can notice is excused:
// a dropped line that was itself the evidence of the lost diagnosis, in a list of independent
// lines (an ibv_devices row, a job log line) that stays a complete capture without it.
func TestMutantsNeverSilent(t *testing.T) {
	if testing.Short() {
		t.Skip("diagnoses a few hundred mutants")
	}
	perKind := 8
	if n, err := strconv.Atoi(os.Getenv("RDMADOCTOR_MUTANTS")); err == nil && n > 0 {
		perKind = n // more mutants per case and kind, e.g. RDMADOCTOR_MUTANTS=8
	}
	e := builtinEngine(t)
	r := rand.New(rand.NewSource(10))
	dirs, _ := filepath.Glob(filepath.Join(fixtures.CorpusDir(t), "[0-9]*"))
	counts := map[string]*[4]int{} // kind -> mutants, diagnosis lost but named, lost silently, lost with its only proof line
	for _, m := range mutations {
		counts[m.kind] = &[4]int{}
	}
	for _, dir := range dirs {
		if _, err := os.Stat(filepath.Join(dir, "expect.json")); err != nil {
			continue
		}
		base := loadMapFS(t, dir)
		baseRep := mutantReport(t, e, base)
		want := diagnosisKeys(baseRep)
		proof := evidenceLines(baseRep)
		if len(want) == 0 {
			continue
		}
		files := mutableFiles(base)
		for _, m := range mutations {
			for k := 0; k < perKind; k++ {
				name := files[r.Intn(len(files))]
				orig := base[name].Data
				if len(orig) == 0 {
					continue
				}
				mutated := m.do(r, orig)
				if mutated == nil || bytes.Equal(mutated, orig) {
					continue
				}
				fsys := fstest.MapFS{}
				for p, f := range base {
					fsys[p] = f
				}
				fsys[name] = &fstest.MapFile{Data: mutated, Mode: 0o644}
				rep := mutantReport(t, e, fsys)
				c := counts[m.kind]
				c[0]++
				got := diagnosisKeys(rep)
				var lost []string
				for _, k := range want {
					if !contains(got, k) {
						lost = append(lost, k)
					}
				}
				if len(lost) == 0 {
					continue
				}
				if named(rep, name) {
					c[1]++
					continue
				}
				if m.kind == "drop-line" && provedOnlyBy(lost, proof, name, droppedLine(orig, mutated)) {
					c[3]++
					continue
				}
				c[2]++
				t.Errorf("%s: %s of %s lost %v silently", filepath.Base(dir), m.kind, name, lost)
			}
		}
	}
	kinds := make([]string, 0, len(counts))
	for k := range counts {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	for _, k := range kinds {
		c := counts[k]
		t.Logf("%-15s %3d mutants, %3d lost a diagnosis and named the file, %d silent, %d lost with the dropped line that proved it", k, c[0], c[1], c[2], c[3])
	}
}

func loadMapFS(t testing.TB, dir string) fstest.MapFS {
	t.Helper()
	fsys := fstest.MapFS{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		fsys[filepath.ToSlash(rel)] = &fstest.MapFile{Data: b, Mode: 0o644}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return fsys
}

// mutableFiles are the case's captures, sorted (CASE.md and the expectations are not input).
func mutableFiles(fsys fstest.MapFS) []string {
	var out []string
	for p := range fsys {
		switch filepath.Base(p) {
		case "CASE.md", "expect.json", "profile.yaml", "README.md":
			continue
		}
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

func mutantReport(t *testing.T, e interface {
	Diagnose(context.Context, *facts.Snapshot) (*report.Report, error)
}, fsys fs.FS) *report.Report {
	t.Helper()
	s, err := build.Snapshot(fsys, facts.SourceInfo{})
	if err != nil {
		t.Fatal(err)
	}
	if b, err := fs.ReadFile(fsys, "profile.yaml"); err == nil {
		var p facts.Profile
		if json.Unmarshal(b, &p) == nil {
			s.Profile = &p
		}
	}
	rep, err := e.Diagnose(context.Background(), s)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// diagnosisKeys are the report's diagnoses as "id subject". A subject is its device and port
// (or its PCI function, or its netdev when it names nothing else): a diagnosis of mlx5_6/1 that
// comes without "(ib1)" because the damaged capture no longer joins the netdev is still found.
func diagnosisKeys(rep *report.Report) []string {
	var out []string
	for _, d := range rep.Diagnoses {
		sub := d.Subject
		if sub.Device != "" || sub.PCI != "" {
			sub.Netdev = ""
		}
		out = append(out, d.ID+" "+sub.String())
	}
	return out
}

// evidenceLines maps each diagnosis key to the "path:line" of its evidence.
func evidenceLines(rep *report.Report) map[string][]string {
	keys := diagnosisKeys(rep)
	out := map[string][]string{}
	for i, d := range rep.Diagnoses {
		for _, ev := range d.Evidence {
			out[keys[i]] = append(out[keys[i]], ev.Path+":"+strconv.Itoa(ev.Line))
		}
	}
	return out
}

// droppedLine is the 1-based number of the line drop-line removed from orig.
func droppedLine(orig, mutated []byte) int {
	a, b := bytes.SplitAfter(orig, []byte("\n")), bytes.SplitAfter(mutated, []byte("\n"))
	for i := range a {
		if i >= len(b) || !bytes.Equal(a[i], b[i]) {
			return i + 1
		}
	}
	return 0
}

// provedOnlyBy reports whether line n of file was among the evidence of every lost diagnosis.
func provedOnlyBy(lost []string, proof map[string][]string, file string, n int) bool {
	for _, k := range lost {
		if !contains(proof[k], file+":"+strconv.Itoa(n)) {
			return false
		}
	}
	return n > 0
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// named reports whether the report names a problem with file p: a source read from it (or from
// the tree holding it) whose status is not ok.
func named(rep *report.Report, p string) bool {
	for _, s := range rep.Sources {
		if s.Origin == "" || s.Status == facts.StatusOK || s.Status == facts.StatusMissing {
			continue
		}
		if s.Origin == p || strings.HasPrefix(p, s.Origin+"/") {
			return true
		}
	}
	return false
}
