package golden

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// marker is the line before a quoted block of docs/integrations.md: `<!-- output: integrations/NAME.txt -->`.
var marker = regexp.MustCompile(`^<!-- output: integrations/([A-Za-z0-9._-]+\.txt) -->$`)

// quotedBlocks returns the blocks of a Markdown page that follow a marker line, by file name:
// the lines between the fence that opens right after the marker and the one that closes it.
func quotedBlocks(t *testing.T, page []byte) map[string]string {
	t.Helper()
	out := map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(page))
	n := 0
	for sc.Scan() {
		n++
		m := marker.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		if !sc.Scan() || !strings.HasPrefix(sc.Text(), "```") {
			t.Errorf("docs/integrations.md:%d: %s is not followed by a ``` block", n, m[0])
			continue
		}
		n++
		var b strings.Builder
		closed := false
		for sc.Scan() {
			n++
			if sc.Text() == "```" {
				closed = true
				break
			}
			b.WriteString(sc.Text() + "\n")
		}
		if !closed {
			t.Errorf("docs/integrations.md: the block of %s is not closed", m[1])
		}
		if _, dup := out[m[1]]; dup {
			t.Errorf("docs/integrations.md:%d: %s is quoted twice", n, m[1])
		}
		out[m[1]] = b.String()
	}
	return out
}

// TestDocQuotesGoldenFiles: every block of docs/integrations.md marked as the output of an
// integration test is its golden file, byte for byte, and every golden file is quoted. With
// RDMADOCTOR_UPDATE_GOLDEN=1 it first rewrites the marked blocks from the files (make golden).
func TestDocQuotesGoldenFiles(t *testing.T) {
	path := filepath.Join(filepath.Dir(Dir()), "integrations.md")
	page, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if os.Getenv(UpdateEnv) == "1" {
		page = requote(t, page)
		if err := os.WriteFile(path, page, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	blocks := quotedBlocks(t, page)
	files, err := filepath.Glob(filepath.Join(Dir(), "*.txt"))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range files {
		names = append(names, filepath.Base(f))
	}
	sort.Strings(names)
	if len(names) == 0 {
		t.Fatal("no golden files in docs/integrations")
	}
	for _, name := range names {
		want, err := os.ReadFile(filepath.Join(Dir(), name))
		if err != nil {
			t.Fatal(err)
		}
		got, ok := blocks[name]
		if !ok {
			t.Errorf("docs/integrations/%s is quoted nowhere in docs/integrations.md (want a block after <!-- output: integrations/%s -->)", name, name)
			continue
		}
		if diff := cmp.Diff(string(want), got); diff != "" {
			t.Errorf("docs/integrations.md's block of %s differs from the file (-file +page):\n%s", name, diff)
		}
		delete(blocks, name)
	}
	for name := range blocks {
		t.Errorf("docs/integrations.md quotes integrations/%s, which no test writes", name)
	}
}

// requote returns page with the block after each marker replaced by the marker's file.
func requote(t *testing.T, page []byte) []byte {
	t.Helper()
	lines := strings.SplitAfter(string(page), "\n")
	var out strings.Builder
	for i := 0; i < len(lines); i++ {
		out.WriteString(lines[i])
		m := marker.FindStringSubmatch(strings.TrimSuffix(lines[i], "\n"))
		if m == nil || i+1 >= len(lines) || !strings.HasPrefix(lines[i+1], "```") {
			continue
		}
		b, err := os.ReadFile(filepath.Join(Dir(), m[1]))
		if err != nil {
			t.Fatal(err)
		}
		out.WriteString(lines[i+1])
		out.Write(b)
		for i += 2; i < len(lines) && strings.TrimSuffix(lines[i], "\n") != "```"; i++ {
		}
		if i < len(lines) {
			out.WriteString(lines[i])
		}
	}
	return []byte(out.String())
}

// TestQuotedBlocks: the marker takes the next fenced block whole; a marker without a block is
// an error.
func TestQuotedBlocks(t *testing.T) {
	page := []byte("text\n<!-- output: integrations/a.txt -->\n```\n$ sinfo -R\nREASON\n```\nmore\n```\nnot quoted\n```\n")
	if got := quotedBlocks(t, page); !cmp.Equal(got, map[string]string{"a.txt": "$ sinfo -R\nREASON\n"}) {
		t.Errorf("%q", got)
	}
}

// TestRequote: a marked block is replaced by its file, the rest of the page kept.
func TestRequote(t *testing.T) {
	page := []byte("text\n<!-- output: integrations/deb.txt -->\n```\nold\nlines\n```\nmore\n```\nnot quoted\n```\n")
	b, err := os.ReadFile(filepath.Join(Dir(), "deb.txt"))
	if err != nil {
		t.Fatal(err)
	}
	want := "text\n<!-- output: integrations/deb.txt -->\n```\n" + string(b) + "```\nmore\n```\nnot quoted\n```\n"
	if got := string(requote(t, page)); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// TestNormalizer: the volatile values become their stand-ins, literal replacements first.
func TestNormalizer(t *testing.T) {
	n := (&Normalizer{}).Replace("/tmp/TestX123/001", "$TMP")
	got := n.Apply(`node_textfile_mtime_seconds{file="/tmp/TestX123/001/rdmadoctor.prom"} 1.796182778e+09` + "\n" +
		"root      2026-12-02T04:18:05 rdnode\nGET 127.0.0.1:41234 guid 0x0002c90300000001\n" +
		"rdmadoctor_last_run_timestamp_seconds 1.79621697e+09\n") // %g drops a trailing zero
	want := `node_textfile_mtime_seconds{file="$TMP/rdmadoctor.prom"} UNIX_TIME` + "\n" +
		"root      YYYY-MM-DDThh:mm:ss rdnode\nGET 127.0.0.1:PORT guid 0x0002c90300000001\n" +
		"rdmadoctor_last_run_timestamp_seconds UNIX_TIME\n"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}
