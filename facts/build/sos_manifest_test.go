package build_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/facts/build"
	"github.com/rdmadoctor/rdmadoctor/facts/source"
	"github.com/rdmadoctor/rdmadoctor/fixtures"
)

// cutIBStat is the real ibstat of corpus 003 (12 CAs) cut after its 4th CA block (line 68), as
// sos writes the output of an ibstat it killed at its timeout: whole blocks, nothing to see.
func cutIBStat(t *testing.T) []byte {
	t.Helper()
	lines := bytes.SplitAfter(fixtures.Read(t, "ibstat/h100-ndr-eth-disabled.txt"), []byte("\n"))
	return bytes.Join(lines[:68], nil)
}

// sosWithManifest writes a sosreport folder sosreport-node01-1/ in a temporary folder: the cut
// ibstat, sos's real lscpu, and the manifest fixture (none when manifest is ""); it returns
// the folder and a .tar.gz of it made by tar.
func sosWithManifest(t *testing.T, manifest string) (dir, archive string) {
	t.Helper()
	var b []byte
	if manifest != "" {
		b = fixtures.Read(t, "sos_manifest/"+manifest)
	}
	return sosWith(t, b)
}

// sosWith is sosWithManifest with the manifest's content (none when nil).
func sosWith(t *testing.T, manifest []byte) (dir, archive string) {
	t.Helper()
	return sosOf(t, cutIBStat(t), manifest)
}

// sosOf is sosWith with the ibstat's content.
func sosOf(t *testing.T, ibstat, manifest []byte) (dir, archive string) {
	t.Helper()
	tmp := t.TempDir()
	dir = filepath.Join(tmp, "sosreport-node01-1")
	files := map[string][]byte{
		"sos_commands/infiniband/ibstat": ibstat,
		"sos_commands/processor/lscpu":   fixtures.Read(t, "sos_manifest/lscpu"),
	}
	if manifest != nil {
		files[build.SosManifest] = manifest
	}
	for name, b := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	archive = filepath.Join(tmp, "sosreport-node01-1.tar.gz")
	if out, err := exec.Command("tar", "-czf", archive, "-C", tmp, "sosreport-node01-1").CombinedOutput(); err != nil {
		t.Fatalf("tar: %v\n%s", err, out)
	}
	return dir, archive
}

// openSnapshot builds the snapshot of path (a folder or an archive) as diagnose does.
func openSnapshot(t *testing.T, path string) *facts.Snapshot {
	t.Helper()
	fsys, info, err := source.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	s, err := build.Snapshot(fsys, info)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func sourceNamed(s *facts.Snapshot, name, origin string) (facts.Source, bool) {
	for _, src := range s.Sources {
		if src.Name == name && src.Origin == origin {
			return src, true
		}
	}
	return facts.Source{}, false
}

func incomplete(s *facts.Snapshot) []string {
	var out []string
	for _, src := range s.Sources {
		if src.Incomplete() {
			out = append(out, src.Name+" "+src.Origin)
		}
	}
	return out
}

// A command sos killed at its timeout (return_code 124 in its manifest): the file it wrote is
// partial, its devices read are kept, and the report is incomplete; in a folder and in an
// archive alike. The same report with sos's real manifest (ibstat returned 0) is complete.
func TestSosManifestTimeout(t *testing.T) {
	for _, tc := range []struct {
		manifest string
		partial  bool
	}{
		{"ibstat-timeout.json", true},
		{"infiniband-pci-processor.json", false},
	} {
		dir, archive := sosWithManifest(t, tc.manifest)
		for _, path := range []string{dir, archive} {
			s := openSnapshot(t, path)
			if s.Source.Kind != "sosreport" {
				t.Fatalf("%s: kind %q", path, s.Source.Kind)
			}
			src, ok := sourceNamed(s, "ibstat", "sos_commands/infiniband/ibstat")
			if !ok {
				t.Fatalf("%s %s: no ibstat source: %+v", tc.manifest, filepath.Base(path), s.Sources)
			}
			if len(s.Devices) != 4 {
				t.Errorf("%s %s: %d devices, want the 4 CAs ibstat printed before it was killed", tc.manifest, filepath.Base(path), len(s.Devices))
			}
			if _, ok := sourceNamed(s, "sos_manifest", build.SosManifest); ok {
				t.Errorf("%s %s: the manifest is named as a source: %+v", tc.manifest, filepath.Base(path), s.Sources)
			}
			if !tc.partial {
				if src.Status != facts.StatusOK || len(incomplete(s)) != 0 {
					t.Errorf("%s %s: ibstat %s %q, incomplete %v; want ok and complete", tc.manifest, filepath.Base(path), src.Status, src.Error, incomplete(s))
				}
				continue
			}
			want := "timed out (sos: return code 124 after its timeout; ibstat ran 300 s): only what it printed until then was read"
			if src.Status != facts.StatusPartial || src.Error != want {
				t.Errorf("%s %s: ibstat %s %q, want partial %q", tc.manifest, filepath.Base(path), src.Status, src.Error, want)
			}
			if got := incomplete(s); !cmp.Equal(got, []string{"ibstat sos_commands/infiniband/ibstat"}) {
				t.Errorf("%s %s: incomplete %v, want the ibstat alone", tc.manifest, filepath.Base(path), got)
			}
			if !slices.Contains(s.Available, "ib_ports") {
				t.Errorf("%s %s: available %v: the ports read are kept", tc.manifest, filepath.Base(path), s.Available)
			}
		}
	}
}

// A timeout on a file no spec reads (sos's lscpu) changes nothing: the sources are those of the
// manifest without it, and of no manifest at all.
func TestSosManifestTimeoutElsewhere(t *testing.T) {
	var want []facts.Source
	for _, manifest := range []string{"infiniband-pci-processor.json", "lscpu-timeout.json", ""} {
		dir, archive := sosWithManifest(t, manifest)
		for _, path := range []string{dir, archive} {
			s := openSnapshot(t, path)
			if want == nil {
				want = s.Sources
				continue
			}
			if diff := cmp.Diff(want, s.Sources); diff != "" {
				t.Errorf("manifest %q, %s: sources differ from the real manifest's (-want +got):\n%s", manifest, filepath.Base(path), diff)
			}
		}
	}
}

// A manifest that cannot be parsed (cut mid-copy; the real one with ibstat's return code a
// string; null, {}: no plugins at all) is a partial source of its own, saying why and at which byte; the rest is read as
// without it.
func TestSosManifestMalformed(t *testing.T) {
	real := fixtures.Read(t, "sos_manifest/ibstat-timeout.json")
	for manifest, why := range map[string]string{
		string(fixtures.Read(t, "sos_manifest/cut-at-12000-bytes.json")): "not JSON: byte 12000 of 12000: unexpected end of JSON input",
		strings.Replace(string(real), `"return_code": 124`, `"return_code": "124"`, 1): "not sos's layout: byte 2763: " +
			"components.report.plugins.commands.return_code is a JSON string",
		"null":                 "not sos's layout: no components.report.plugins",
		"{}":                   "not sos's layout: no components.report.plugins",
		`{"components": null}`: "not sos's layout: no components.report.plugins",
	} {
		dir, archive := sosWith(t, []byte(manifest))
		for _, path := range []string{dir, archive} {
			malformed(t, path, why)
		}
	}
}

// malformed checks the snapshot at path, whose manifest cannot be used for why.
func malformed(t *testing.T, path, why string) {
	t.Helper()
	s := openSnapshot(t, path)
	src, ok := sourceNamed(s, "sos_manifest", build.SosManifest)
	if want := why + ": the commands sos may have cut at their timeout are not known"; !ok || src.Status != facts.StatusPartial || src.Error != want {
		t.Errorf("%s: manifest source %+v (found %v), want partial %q", filepath.Base(path), src, ok, want)
	}
	if ib, _ := sourceNamed(s, "ibstat", "sos_commands/infiniband/ibstat"); ib.Status != facts.StatusOK || len(s.Devices) != 4 {
		t.Errorf("%s: ibstat %s with %d devices, want ok and 4", filepath.Base(path), ib.Status, len(s.Devices))
	}
	if got := incomplete(s); !cmp.Equal(got, []string{"sos_manifest " + build.SosManifest}) {
		t.Errorf("%s: incomplete %v, want the manifest alone", filepath.Base(path), got)
	}
}

// A plugin that hit its timeout (timeout_hit, edited into sos's real manifest): sos ran none of
// its remaining commands, so the infiniband plugin's is a timeout source naming it; the
// processor plugin's, whose files no spec reads, changes nothing.
func TestSosManifestPluginTimeout(t *testing.T) {
	real := fixtures.Read(t, "sos_manifest/infiniband-pci-processor.json")
	hit := []byte(`"timeout_hit": true`)
	first := bytes.Replace(real, []byte(`"timeout_hit": false`), hit, 1) // infiniband, the first plugin
	i := bytes.LastIndex(real, []byte(`"timeout_hit": false`))           // processor, the last
	last := append(append(bytes.Clone(real[:i]), hit...), real[i+len(`"timeout_hit": false`):]...)
	for _, tc := range []struct {
		manifest []byte
		want     []string
	}{
		{first, []string{"sos_manifest " + build.SosManifest}},
		{last, nil},
	} {
		dir, archive := sosWith(t, tc.manifest)
		for _, path := range []string{dir, archive} {
			s := openSnapshot(t, path)
			if got := incomplete(s); !cmp.Equal(got, tc.want) {
				t.Errorf("%s: incomplete %v, want %v", filepath.Base(path), got, tc.want)
			}
			src, ok := sourceNamed(s, "sos_manifest", build.SosManifest)
			if want := "sos plugin infiniband hit its timeout: the commands it had not run by then are not in the report"; tc.want != nil &&
				(!ok || src.Status != facts.StatusTimeout || src.Error != want) {
				t.Errorf("%s: manifest source %+v, want timeout %q", filepath.Base(path), src, want)
			}
		}
	}
}

// An ibstat sos killed before it printed anything (an empty file, return_code 124): the source
// is timeout, not empty (a command that printed nothing), and the report is incomplete.
func TestSosManifestTimeoutEmpty(t *testing.T) {
	dir, archive := sosOf(t, nil, fixtures.Read(t, "sos_manifest/ibstat-timeout.json"))
	for _, path := range []string{dir, archive} {
		s := openSnapshot(t, path)
		src, _ := sourceNamed(s, "ibstat", "sos_commands/infiniband/ibstat")
		if want := "timed out (sos: return code 124 after its timeout; ibstat ran 300 s)"; src.Status != facts.StatusTimeout || src.Error != want {
			t.Errorf("%s: ibstat %s %q, want timeout %q", filepath.Base(path), src.Status, src.Error, want)
		}
		if got := incomplete(s); !cmp.Equal(got, []string{"ibstat sos_commands/infiniband/ibstat"}) {
			t.Errorf("%s: incomplete %v, want the ibstat alone", filepath.Base(path), got)
		}
	}
}

// A command sos killed at its timeout that left no file at all (the plugin's timeout hit while it
// ran): the spec that reads it is a timeout saying so, not "not in snapshot: install ..." (fresh
// findings, second pass, F6).
func TestSosTimeoutNoFile(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "sosreport-node01-1")
	for name, b := range map[string][]byte{
		"sos_commands/processor/lscpu": fixtures.Read(t, "sos_manifest/lscpu"),
		build.SosManifest:              fixtures.Read(t, "sos_manifest/ibstat-timeout.json"),
	} {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	s, err := build.Snapshot(os.DirFS(dir), facts.SourceInfo{Path: dir, Kind: "sosreport"})
	if err != nil {
		t.Fatal(err)
	}
	spec := build.SpecOf("sos_commands/infiniband/ibstat")
	found := false
	for _, src := range s.Sources {
		if src.Name != spec {
			continue
		}
		found = true
		if src.Status != facts.StatusTimeout || src.Origin != "sos_commands/infiniband/ibstat" ||
			!strings.HasPrefix(src.Error, "timed out (sos: return code 124 after its timeout") || !strings.HasSuffix(src.Error, "sos left no file of its output") {
			t.Errorf("source %+v, want a timeout of sos_commands/infiniband/ibstat saying sos left no file", src)
		}
	}
	if !found {
		t.Errorf("no %s source in %+v", spec, s.Sources)
	}
}
