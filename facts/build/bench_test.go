package build

import (
	"os"
	"path/filepath"
	"testing"
	"testing/fstest"

	"github.com/rdmadoctor/rdmadoctor/fixtures"

	"github.com/rdmadoctor/rdmadoctor/facts"
)

// corpusCase loads a case of fixtures/corpus into memory, so the benchmark measures recognition,
// parsing, merging and joins rather than the disk.
func corpusCase(b *testing.B, name string) fstest.MapFS {
	b.Helper()
	root := filepath.Join(fixtures.CorpusDir(b), name)
	m := fstest.MapFS{}
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		m[filepath.ToSlash(rel)] = &fstest.MapFile{Data: data, Mode: 0o444}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	return m
}

// BenchmarkBuild parses the largest corpus cases: 005 (a whole /sys/class/infiniband tree of an
// 8-port H100 node, 205 KB) and 108 (96 VLAN netdevs, 196 GIDs).
func BenchmarkBuild(b *testing.B) {
	for _, c := range []string{
		"005-h100-ib-ndr-sysfs-tree-link-downed-255",
		"108-cx4lx-show-gids-96-vlan-subifs-link-local-only-no-ipv4-gids",
	} {
		b.Run(c[:3], func(b *testing.B) {
			fsys := corpusCase(b, c)
			b.ReportAllocs()
			for b.Loop() {
				s, err := Snapshot(fsys, facts.SourceInfo{Kind: "captures"})
				if err != nil || len(s.Devices) == 0 {
					b.Fatalf("build: %v, %d devices", err, len(s.Devices))
				}
			}
		})
	}
}
