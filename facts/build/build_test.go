package build

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"io/fs"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
	"unicode/utf16"

	"github.com/google/go-cmp/cmp"
	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/fixtures"
)

// utf16LE encodes text as Windows tools (PowerShell's Out-File, iconv -t utf-16) save it:
// little endian, after a byte order mark.
func utf16LE(text []byte) []byte {
	out := []byte{0xff, 0xfe}
	for _, u := range utf16.Encode([]rune(string(text))) {
		out = binary.LittleEndian.AppendUint16(out, u)
	}
	return out
}

// junk is n bytes of noise, the same at every run.
func junk(n int) []byte {
	r := rand.New(rand.NewPCG(1, 2))
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	return b
}

// A file named like a tool but holding binary data is an error, not an empty valid output: its
// fact group stays unavailable, so the rules needing it are skipped. The other files still count.
func TestBuildBinaryCapture(t *testing.T) {
	for _, tc := range []struct {
		name      string
		good, bad string // snapshot paths: a real capture, and a binary one
		badData   []byte
		available string // the group of the good file
		missing   string // the group only the bad file provides
	}{
		{"binary lspci", "ibstat", "lspci", junk(5000), "ib_ports", "lspci"},
		{"UTF-16 ibstat", "lspci", "ibstat", utf16LE(fixtures.Read(t, "ibstat/cx4-back-to-back-no-sm.txt")), "lspci", "ib_ports"},
	} {
		fsys := fstest.MapFS{
			"ibstat": {Data: fixtures.Read(t, "ibstat/cx4-back-to-back-no-sm.txt")},
			"lspci":  {Data: fixtures.Read(t, "lspci/cx6-hdr100.txt")},
		}
		fsys[tc.bad] = &fstest.MapFile{Data: tc.badData}
		s, err := Snapshot(fsys, facts.SourceInfo{})
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		want := map[string]facts.Source{
			tc.good: {Name: tc.good, Origin: tc.good, Status: facts.StatusOK, RecognisedBy: "name"},
			tc.bad:  {Name: tc.bad, Origin: tc.bad, Status: facts.StatusError, Error: "binary data, not a captured text output", RecognisedBy: "name"},
		}
		got := map[string]facts.Source{}
		for _, src := range s.Sources {
			if src.Origin != "" {
				got[src.Origin] = src
			}
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s: sources (-want +got):\n%s", tc.name, diff)
		}
		if !slices.Contains(s.Available, tc.available) || slices.Contains(s.Available, tc.missing) {
			t.Errorf("%s: available = %v, want %s and not %s", tc.name, s.Available, tc.available, tc.missing)
		}
		switch tc.good {
		case "ibstat":
			if len(s.Devices) != 1 || s.Devices[0].Name != "ibp4s0" || len(s.PCI) != 0 {
				t.Errorf("%s: devices %+v, pci %+v: want ibp4s0 from ibstat and nothing from lspci", tc.name, s.Devices, s.PCI)
			}
		case "lspci":
			if len(s.PCI) == 0 || len(s.Devices) != 0 {
				t.Errorf("%s: pci %+v, devices %+v: want lspci's functions and nothing from ibstat", tc.name, s.PCI, s.Devices)
			}
		}
	}
}

// TestBuildCompressedLog: a rotated, compressed log beside the current one is not an error and
// not read; the current log still is.
func TestBuildCompressedLog(t *testing.T) {
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	if _, err := zw.Write([]byte("Jan  1 00:00:00 node01 kernel: old line\n")); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	fsys := fstest.MapFS{
		"var/log/messages":             {Data: fixtures.Read(t, "dmesg/cx6-x4-slot-insufficient-power.txt")},
		"var/log/messages-20240101.gz": {Data: gz.Bytes()},
	}
	s, err := Snapshot(fsys, facts.SourceInfo{})
	if err != nil {
		t.Fatal(err)
	}
	seen := 0
	for _, src := range s.Sources {
		switch src.Origin {
		case "var/log/messages":
			seen++
			if src.Status != facts.StatusOK {
				t.Errorf("current log: %+v", src)
			}
		case "var/log/messages-20240101.gz":
			seen++
			if src.Status != facts.StatusUnrecognized || !strings.Contains(src.Error, "compressed") {
				t.Errorf("rotated log: %+v, want unrecognized (compressed)", src)
			}
		}
	}
	if seen != 2 {
		t.Errorf("sources %+v: want both logs listed", s.Sources)
	}
	if !slices.Contains(s.Available, "kernel_log") {
		t.Errorf("available = %v, want kernel_log", s.Available)
	}
}

// A symbolic link out of the snapshot is never followed: one that names an input is that
// input's error, the others are counted in one source.
func TestBuildLinksOutOfSnapshot(t *testing.T) {
	fsys := fstest.MapFS{
		"sos_commands/infiniband/ibstat":                       {Data: []byte("/etc/shadow"), Mode: fs.ModeSymlink},
		"etc/systemd/system/multi-user.target.wants/a.service": {Data: []byte("/usr/lib/systemd/system/a.service"), Mode: fs.ModeSymlink},
		"etc/systemd/system/multi-user.target.wants/b.service": {Data: []byte("../../../../../b"), Mode: fs.ModeSymlink},
		"etc/systemd/system/ok.service":                        {Data: []byte("a.service"), Mode: fs.ModeSymlink},
	}
	s, err := Snapshot(fsys, facts.SourceInfo{Kind: "sosreport"})
	if err != nil {
		t.Fatal(err)
	}
	var ibstat, links *facts.Source
	for i, src := range s.Sources {
		switch src.Name {
		case "ibstat":
			ibstat = &s.Sources[i]
		case "symlink":
			links = &s.Sources[i]
		}
	}
	if ibstat == nil || ibstat.Status != facts.StatusError || ibstat.Origin != "sos_commands/infiniband/ibstat" ||
		ibstat.Error != "not followed: a symbolic link to /etc/shadow, which leaves the snapshot" {
		t.Errorf("ibstat source = %+v, want an error naming the link and its target in our words", ibstat)
	}
	if links == nil || !strings.HasPrefix(links.Error, "2 symbolic link(s) lead out of the snapshot") {
		t.Errorf("symlink source = %+v, want 2 links counted", links)
	}
}
