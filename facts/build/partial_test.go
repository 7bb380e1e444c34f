package build

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/fixtures"
)

// corpusFS loads corpus case prefix into a MapFS, with edit applied to the file named name.
func corpusFS(t *testing.T, prefix, name string, edit func([]byte) []byte) fstest.MapFS {
	t.Helper()
	m, _ := filepath.Glob(filepath.Join(fixtures.CorpusDir(t), prefix+"-*"))
	if len(m) != 1 {
		t.Fatalf("corpus case %s: %d folders", prefix, len(m))
	}
	fsys := fstest.MapFS{}
	err := filepath.WalkDir(m[0], func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(m[0], p)
		rel = filepath.ToSlash(rel)
		if rel == name && edit != nil {
			b = edit(b)
		}
		fsys[rel] = &fstest.MapFile{Data: b, Mode: 0o644}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := fsys[name]; !ok && name != "" {
		t.Fatalf("corpus case %s has no %s", prefix, name)
	}
	return fsys
}

// dropLine is `sed Nd`.
func dropLine(n int) func([]byte) []byte {
	return func(b []byte) []byte {
		lines := strings.SplitAfter(string(b), "\n")
		return []byte(strings.Join(slices.Delete(lines, n-1, n), ""))
	}
}

func replace(old, new string) func([]byte) []byte {
	return func(b []byte) []byte { return []byte(strings.Replace(string(b), old, new, 1)) }
}

func sourceOf(t *testing.T, s *facts.Snapshot, origin string) facts.Source {
	t.Helper()
	for _, src := range s.Sources {
		if src.Origin == origin {
			return src
		}
	}
	t.Fatalf("no source %s in %+v", origin, s.Sources)
	return facts.Source{}
}

// TestPartialRepros are the silent losses of issue 10 on the real captures they start from: each
// damaged file is read as far as it goes, its source is partial and names the lines it could not
// use, and the fact groups it feeds stay available so the rules run on what was kept.
func TestPartialRepros(t *testing.T) {
	for _, tc := range []struct {
		name, prefix, file string
		edit               func([]byte) []byte
		wantLines          []int // the problem lines, in order
		wantWhy            string
		check              func(t *testing.T, s *facts.Snapshot)
	}{
		{"sed 10d: Physical state dropped", "017", "ibstat", dropLine(10), []int{8}, "port block has no Physical state line",
			func(t *testing.T, s *facts.Snapshot) {
				if p := s.Devices[0].Ports[0]; p.State != "Initializing" || *p.RateGbps != 56 {
					t.Errorf("port %+v", p)
				}
			}},
		{"head -c 282: cut mid-block", "017", "ibstat", func(b []byte) []byte { return b[:282] }, []int{8, 10}, "file ends mid-line",
			func(t *testing.T, s *facts.Snapshot) {
				if p := s.Devices[0].Ports[0]; p.State != "Initializing" {
					t.Errorf("port %+v", p)
				}
			}},
		{"Port one:", "017", "ibstat", replace("Port 1:", "Port one:"), []int{8, 3}, "not a port header", nil},
		{"Rate: fifty", "017", "ibstat", replace("Rate: 56", "Rate: fifty"), []int{11}, `rate "fifty"`,
			func(t *testing.T, s *facts.Snapshot) {
				if p := s.Devices[0].Ports[0]; p.State != "Initializing" || p.PhysicalState != "LinkUp" || p.RateGbps != nil {
					t.Errorf("port %+v", p)
				}
			}},
		{"026 bad vendor_part_id", "026", "ibv_devinfo", replace("vendor_part_id:\t\t\t4129", "vendor_part_id:\t\t\tfour"), []int{7}, "vendor_part_id",
			func(t *testing.T, s *facts.Snapshot) {
				if len(s.Devices) != 4 || s.Devices[0].Ports[0].ActiveMTU == nil || *s.Devices[0].Ports[0].ActiveMTU != 1024 {
					t.Errorf("devices %+v", s.Devices)
				}
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := Snapshot(corpusFS(t, tc.prefix, tc.file, tc.edit), facts.SourceInfo{})
			if err != nil {
				t.Fatal(err)
			}
			src := sourceOf(t, s, tc.file)
			if src.Status != facts.StatusPartial {
				t.Fatalf("status %s (%s), want partial", src.Status, src.Error)
			}
			var lines []int
			whys := ""
			for _, p := range src.Problems {
				lines = append(lines, p.Line)
				whys += p.Why + "; "
			}
			if !slices.Equal(lines, tc.wantLines) || !strings.Contains(whys, tc.wantWhy) {
				t.Errorf("problems %+v, want lines %v with %q", src.Problems, tc.wantLines, tc.wantWhy)
			}
			if !slices.Contains(s.Available, "ib_ports") {
				t.Errorf("ib_ports not available: %v", s.Available)
			}
			if tc.check != nil {
				tc.check(t, s)
			}
		})
	}
}

// TestProblemsCapped: a file of many bad lines lists facts.MaxProblems of them and counts the rest.
func TestProblemsCapped(t *testing.T) {
	var b strings.Builder
	b.WriteString("CA 'mlx5_0'\n\tCA type: MT4123\n\tNumber of ports: 30\n\tFirmware version: 20.33.1048\n" +
		"\tHardware version: 0\n\tNode GUID: 0x0c42a10300c6cf52\n\tSystem image GUID: 0x0c42a10300c6cf52\n")
	for i := 1; i <= 30; i++ {
		fmt.Fprintf(&b, "\tPort %d:\n\t\tState: Active\n\t\tPhysical state: LinkUp\n\t\tRate: bad\n", i)
	}
	s, err := Snapshot(fstest.MapFS{"ibstat": {Data: []byte(b.String())}}, facts.SourceInfo{})
	if err != nil {
		t.Fatal(err)
	}
	src := sourceOf(t, s, "ibstat")
	if src.Status != facts.StatusPartial || len(src.Problems) != facts.MaxProblems || src.MoreProblems != 10 {
		t.Errorf("status %s, %d problems + %d more", src.Status, len(src.Problems), src.MoreProblems)
	}
}

// TestUndecodableBytesReplaced: a Latin-1 byte in a dmesg line or a UTF-8 byte order mark
// before ibstat costs that character, not the file (issue 10).
func TestUndecodableBytesReplaced(t *testing.T) {
	prepend := func(p string) func([]byte) []byte {
		return func(b []byte) []byte { return append([]byte(p), b...) }
	}
	for _, tc := range []struct {
		name, prefix, file string
		edit               func([]byte) []byte
		check              func(t *testing.T, s *facts.Snapshot)
	}{
		{"Latin-1 DMI line in dmesg", "007", "dmesg_grep_mlx5_core", prepend("[    0.000000] DMI: Soci\xe9t\xe9 G\xe9n\xe9rale/X11, BIOS 1.0\n"),
			func(t *testing.T, s *facts.Snapshot) {
				if len(s.Host.KernelEvents) == 0 {
					t.Errorf("no kernel log events")
				}
			}},
		{"UTF-8 BOM before ibstat", "017", "ibstat", prepend("\xef\xbb\xbf"),
			func(t *testing.T, s *facts.Snapshot) {
				if len(s.Devices) != 1 || s.Devices[0].Name != "ibp4s0" || s.Devices[0].Ports[0].State != "Initializing" {
					t.Errorf("devices %+v", s.Devices)
				}
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := Snapshot(corpusFS(t, tc.prefix, tc.file, tc.edit), facts.SourceInfo{})
			if err != nil {
				t.Fatal(err)
			}
			if src := sourceOf(t, s, tc.file); src.Status != facts.StatusOK {
				t.Fatalf("status %s: %s", src.Status, src.Error)
			}
			tc.check(t, s)
		})
	}
}

// TestContentChecked: the content of a file is checked also when its name is known (issue 10).
func TestContentChecked(t *testing.T) {
	ibstatus := fixtures.Read(t, "ibstatus/ddr-port-training.txt")
	devinfo := fixtures.Read(t, "ibv_devinfo/dgx-spark-roce-mtu1024.txt")
	ibstat := fixtures.Read(t, "ibstat/cx4-back-to-back-no-sm.txt")
	t.Run("ibstatus saved as ibstat", func(t *testing.T) {
		s, _ := Snapshot(fstest.MapFS{"ibstat": {Data: ibstatus}}, facts.SourceInfo{})
		src := sourceOf(t, s, "ibstat")
		if src.Name != "ibstatus" || src.Status != facts.StatusOK || src.Note != "ibstat: content is ibstatus output, read as ibstatus" || len(s.Devices) == 0 {
			t.Errorf("source %+v, %d devices", src, len(s.Devices))
		}
	})
	t.Run("ibv_devinfo saved as ibstat", func(t *testing.T) {
		s, _ := Snapshot(fstest.MapFS{"ibstat": {Data: devinfo}}, facts.SourceInfo{})
		src := sourceOf(t, s, "ibstat")
		if src.Name != "ibv_devinfo" || src.Status != facts.StatusOK || len(s.Devices) != 4 {
			t.Errorf("source %+v, %d devices", src, len(s.Devices))
		}
	})
	t.Run("ibstat -l saved as ibstat", func(t *testing.T) {
		// `ibstat -l` lists the CA names, one a line (infiniband-diags ibstat.c list_only).
		s, _ := Snapshot(fstest.MapFS{"ibstat": {Data: []byte("mlx5_0\nmlx5_1\n")}}, facts.SourceInfo{})
		if src := sourceOf(t, s, "ibstat"); src.Status != facts.StatusUnrecognized || !strings.Contains(src.Error, "unrecognized content") {
			t.Errorf("source %+v", src)
		}
	})
	t.Run("hello world under every tool's name", func(t *testing.T) {
		for _, sp := range Specs() {
			// opensm.conf is "key value" lines: "hello world" is one, read as it is.
			if len(sp.Commands) == 0 || logSpecs[sp.Name] || sp.Name == "opensm_conf" {
				continue
			}
			s, _ := Snapshot(fstest.MapFS{sp.Commands[0]: {Data: []byte("hello world\n")}}, facts.SourceInfo{})
			for _, src := range s.Sources {
				if src.Origin == sp.Commands[0] && src.Status == facts.StatusOK {
					t.Errorf("%s: %+v", sp.Commands[0], src)
				}
			}
		}
	})
	t.Run("ibstat then ibv_devinfo in one paste", func(t *testing.T) {
		paste := append(append([]byte{}, ibstat...), devinfo...)
		s, _ := Snapshot(fstest.MapFS{"ibstat": {Data: paste}}, facts.SourceInfo{})
		var names []string
		for _, src := range s.Sources {
			if src.Origin == "ibstat" {
				names = append(names, src.Name+" "+src.Status)
			}
		}
		if !slices.Equal(names, []string{"ibstat ok", "ibv_devinfo ok"}) {
			t.Fatalf("sources %v", names)
		}
		if len(s.Devices) != 5 {
			t.Fatalf("%d devices, want 5", len(s.Devices))
		}
		nIB := strings.Count(string(ibstat), "\n")
		for _, d := range s.Devices {
			if ev := d.Evidence["name"]; d.Name != "ibp4s0" && ev.Line != nIB+1 && ev.Line <= nIB {
				t.Errorf("%s named at line %d, want after line %d", d.Name, ev.Line, nIB)
			}
		}
	})
}
