package main

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestTruncatedArchive: a .tar.gz cut mid-stream (a copy that stopped) is diagnosed as far as
// it goes, and the report names the archive as truncated (partial, with the member it stopped in
// and the byte offset), not only through the capture that was cut. The members are corpus case
// 017's real captures (ibstat, then mlxlink); the gzip stream is stored, so that cutting it at a
// byte cuts the tar stream at about that byte, inside mlxlink's content.
func TestTruncatedArchive(t *testing.T) {
	dir := filepath.Join("..", "..", "fixtures", "corpus", "017-cx4-back-to-back-linkup-initializing-no-sm-fdr-cable")
	const mlxlink = "mlxlink_-d_.dev.mst.mt4115_pciconf1"
	var tb bytes.Buffer
	tw := tar.NewWriter(&tb)
	for _, name := range []string{"ibstat", mlxlink} {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if err := tw.WriteHeader(&tar.Header{Name: "node07/" + name, Mode: 0o644, Size: int64(len(b)), Typeflag: tar.TypeReg}); err != nil {
			t.Fatal(err)
		}
		tw.Write(b)
	}
	tw.Close()
	var gz bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&gz, gzip.NoCompression)
	zw.Write(tb.Bytes())
	zw.Close()
	p := filepath.Join(t.TempDir(), "node07.tar.gz")
	if err := os.WriteFile(p, gz.Bytes()[:2400], 0o644); err != nil { // mlxlink's content starts at 2048
		t.Fatal(err)
	}

	code, stdout, stderr := runCLI(t, "diagnose", "--snapshot", p, "--format", "json")
	if code != exitFindings {
		t.Errorf("exit %d, want 1 (ibstat's no-SM diagnosis)\n%s", code, stderr)
	}
	cut := `truncated archive: the stream ends in member \\?"node07/` + regexp.QuoteMeta(mlxlink) + `\\?" at byte [0-9]{4} of the tar stream`
	if !regexp.MustCompile(`"name": "archive",\s+"origin": "` + regexp.QuoteMeta(p) + `",\s+"status": "partial",\s+"error": "` + cut).MatchString(stdout) {
		t.Errorf("the report does not name the archive as truncated, partial, with member and offset:\n%s", stdout)
	}
	if !strings.Contains(stdout, `"complete": false`) || !strings.Contains(stdout, `"ib-port-no-subnet-manager"`) {
		t.Errorf("want an incomplete report that still diagnoses ibstat:\n%s", stdout)
	}
	if !regexp.MustCompile(`(?m)^rdmadoctor: warning: ` + regexp.QuoteMeta(p) + `: partly read: ` + cut).MatchString(stderr) {
		t.Errorf("stderr does not name the cut:\n%s", stderr)
	}

	// fleet: the node is partial (not unreadable), its incomplete inputs name the archive.
	code, stdout, stderr = runCLI(t, "fleet", "--format", "json", p)
	if code != exitFindings || !strings.Contains(stdout, `"status": "partial"`) || !strings.Contains(stdout, `"archive (`+p+`)"`) {
		t.Errorf("fleet: exit %d, want 1 and a partial node naming the archive\n%s\n%s", code, stdout, stderr)
	}
}
