package main

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestConcatenatedArchives: `cat node07.tar.gz node29.tar.gz > both.tar.gz` (gzip decodes the
// two as one stream) is diagnosed as node07's archive, partial: the report names the second
// archive, from where in the tar stream, as not read, in JSON and in the table, and nothing of
// node29 is in it (two hosts are never merged). node07 holds corpus case 017's ibstat (no SM),
// node29 case 029's (a port locally disabled).
func TestConcatenatedArchives(t *testing.T) {
	corpus := filepath.Join("..", "..", "fixtures", "corpus")
	var both []byte
	sizes := map[string]int{}
	for _, n := range []struct{ host, file string }{
		{"node07", "017-cx4-back-to-back-linkup-initializing-no-sm-fdr-cable/ibstat"},
		{"node29", "029-mlx4-dual-fabric-port-locally-disabled-ibportstate/ibstat_after_ibportstate_38_1_disable_TRUNCATED"},
	} {
		b, err := os.ReadFile(filepath.Join(corpus, n.file))
		if err != nil {
			t.Fatal(err)
		}
		var tb bytes.Buffer
		tw := tar.NewWriter(&tb)
		if err := tw.WriteHeader(&tar.Header{Name: n.host + "/ibstat", Mode: 0o644, Size: int64(len(b)), Typeflag: tar.TypeReg}); err != nil {
			t.Fatal(err)
		}
		tw.Write(b)
		tw.Close()
		sizes[n.host] = tb.Len()
		var gz bytes.Buffer
		zw := gzip.NewWriter(&gz)
		zw.Write(tb.Bytes())
		zw.Close()
		both = append(both, gz.Bytes()...)
	}
	p := filepath.Join(t.TempDir(), "both.tar.gz")
	if err := os.WriteFile(p, both, 0o644); err != nil {
		t.Fatal(err)
	}
	second := regexp.QuoteMeta("concatenated archives: a second tar archive (" + strconv.Itoa(sizes["node29"]) + " bytes) follows the first's end-of-archive blocks, from byte " +
		strconv.Itoa(sizes["node07"]) + " of the tar stream (uncompressed), and is not read")

	code, stdout, stderr := runCLI(t, "diagnose", "--snapshot", p, "--format", "json")
	if code != exitFindings {
		t.Errorf("exit %d, want 1 (node07's no-SM diagnosis)\n%s", code, stderr)
	}
	if !regexp.MustCompile(`"name": "archive",\s+"origin": "` + regexp.QuoteMeta(p) + `",\s+"status": "partial",\s+"error": "` + second).MatchString(stdout) {
		t.Errorf("the report does not name the archive as partial, with the second archive and its offset:\n%s", stdout)
	}
	if !strings.Contains(stdout, `"complete": false`) || !strings.Contains(stdout, `"ib-port-no-subnet-manager"`) || strings.Contains(stdout, `"port-physical-link-down"`) {
		t.Errorf("want an incomplete report of node07 alone (no-SM, not node29's disabled port):\n%s", stdout)
	}
	if !regexp.MustCompile(`(?m)^rdmadoctor: warning: ` + regexp.QuoteMeta(p) + `: partly read: ` + second).MatchString(stderr) {
		t.Errorf("stderr does not name the second archive:\n%s", stderr)
	}

	code, stdout, stderr = runCLI(t, "diagnose", "--snapshot", p, "--format", "table")
	table := strings.Join(strings.Fields(stdout), " ") // lines wrapped to the width joined again
	if code != exitFindings || !strings.Contains(table, "1 input not (fully) read: results may be incomplete") ||
		!regexp.MustCompile(`partial archive \(`+regexp.QuoteMeta(p)+`\): `+second).MatchString(table) {
		t.Errorf("table: exit %d, want 1, the archive partial and the second archive named\n%s\n%s", code, stdout, stderr)
	}
}

// TestConcatenatedNoRDMA: exit codes of an archive of a node with nothing about RDMA (a notes
// file, no capture): read whole, zero padding after its end included, it is "no RDMA" (exit 3);
// with a second archive after it, it is input not read whole (exit 2, DESIGN.md section 1):
// what was not read may hold the RDMA captures, and "no RDMA" drains no node.
func TestConcatenatedNoRDMA(t *testing.T) {
	archive := func(name, body string, pad int) []byte {
		var tb bytes.Buffer
		tw := tar.NewWriter(&tb)
		if err := tw.WriteHeader(&tar.Header{Name: name, Mode: 0o644, Size: int64(len(body)), Typeflag: tar.TypeReg}); err != nil {
			t.Fatal(err)
		}
		tw.Write([]byte(body))
		tw.Close()
		var gz bytes.Buffer
		zw := gzip.NewWriter(&gz)
		zw.Write(append(tb.Bytes(), make([]byte, pad)...))
		zw.Close()
		return gz.Bytes()
	}
	ibstat, err := os.ReadFile(filepath.Join("..", "..", "fixtures", "corpus", "017-cx4-back-to-back-linkup-initializing-no-sm-fdr-cable", "ibstat"))
	if err != nil {
		t.Fatal(err)
	}
	notes := archive("node01/notes.txt", "rack 4, slot 2\n", 10240-4*512) // header, content, end blocks: to a 10240-byte record
	dir := t.TempDir()
	for _, tc := range []struct {
		name string
		data []byte
		want int
	}{
		{"padded", notes, exitNoFacts},
		{"concatenated", append(bytes.Clone(notes), archive("node07/ibstat", string(ibstat), 0)...), exitUsage},
	} {
		p := filepath.Join(dir, tc.name+".tar.gz")
		if err := os.WriteFile(p, tc.data, 0o644); err != nil {
			t.Fatal(err)
		}
		code, stdout, stderr := runCLI(t, "diagnose", "--snapshot", p)
		if code != tc.want || !strings.Contains(stderr, "nothing about RDMA could be evaluated") {
			t.Errorf("%s: exit %d, want %d and nothing about RDMA\n%s\n%s", tc.name, code, tc.want, stdout, stderr)
		}
	}
}
