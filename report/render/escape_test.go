package render

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"gopkg.in/yaml.v3"

	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/report"
)

// title is the terminal title sequence and screen clear of issue 10.
const title = "\x1b]0;pwned\a\x1b[2J"

// hostileReport has control characters, backticks and "|" in every field that comes from the
// input: the device, the evidence path and line, the fix command and note, the skipped reason,
// a source's origin and error, the host.
func hostileReport() *report.Report {
	r := testReport()
	dev := "mlx5" + title
	r.Host.Hostname = "node\r\n01"
	r.Source.Path = "tickets/a\nb"
	d := &r.Diagnoses[0]
	d.Subject.Device = dev
	d.Message = dev + " port 1 is LinkUp but Initializing\nrow"
	d.Evidence = append(d.Evidence, facts.Evidence{Source: "ibstat", Path: "node\n01/ibstat", Line: 2, Text: "CA '" + dev + "'\x9b2J ```"})
	d.Fix = []report.Fix{{Command: "sminfo -C 'mlx5" + title + "\n```\n# x' -P 1", Note: "on " + dev + "\nreboot"}}
	r.Skipped[0].Reason = "no " + title
	r.Needs["nvconfig"] = report.Need{What: "mstconfig output", How: "no " + title}
	r.Sources[5].Origin = "notes\n.txt`|`"
	r.Sources[5].Error = "line 1: \"" + title + "\""
	return r
}

// TestEscapedTableAndMarkdown: no control character from the input reaches the table or the
// Markdown, each is shown escaped, a newline starts no row or line, and the input cannot close
// a code block or span.
func TestEscapedTableAndMarkdown(t *testing.T) {
	for _, format := range []string{"table", "markdown"} {
		var b bytes.Buffer
		if err := Write(&b, format, hostileReport(), Options{}); err != nil {
			t.Fatal(err)
		}
		out := b.String()
		if i := strings.IndexFunc(out, rawControl); i >= 0 {
			t.Errorf("%s: raw control character %q at %d:\n%s", format, out[i], i, out)
		}
		for _, want := range []string{`mlx5\x1b]0;pwned\a\x1b[2J`, `node\r\n01`, `node\n01/ibstat:2`, `\x9b2J`, `# x' -P 1`, `no \x1b]0;pwned`} {
			if !strings.Contains(out, want) {
				t.Errorf("%s: no %q in\n%s", format, want, out)
			}
		}
		for _, line := range strings.Split(out, "\n") {
			if strings.HasPrefix(strings.TrimSpace(line), "row") || strings.HasPrefix(line, "reboot") || strings.HasPrefix(line, "# x") {
				t.Errorf("%s: a newline from the input started the line %q", format, line)
			}
		}
	}
	var b bytes.Buffer
	if err := Markdown(&b, hostileReport()); err != nil {
		t.Fatal(err)
	}
	md := b.String()
	for _, want := range []string{"\n````sh\n# on mlx5", "\n````\n", "\n````text\n", "`` notes\\n.txt`\\|` ``"} {
		if !strings.Contains(md, want) {
			t.Errorf("markdown: no %q in\n%s", want, md)
		}
	}
}

// rawControl is a control character that is not the output's own newline or a captured tab.
func rawControl(r rune) bool {
	return r < 0x20 && r != '\n' && r != '\t' || r == 0x7f || r >= 0x80 && r <= 0x9f
}

// TestEscapedKeepsColours: the table's own colours survive, the input's escapes do not.
func TestEscapedKeepsColours(t *testing.T) {
	var b bytes.Buffer
	if err := Table(&b, hostileReport(), Options{Color: true}); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	if !strings.Contains(out, "\x1b[1;91mcritical") {
		t.Errorf("no coloured severity in\n%q", out)
	}
	if strings.Contains(out, "\x1b]") || strings.Contains(out, "\a") || strings.Contains(out, "\x1b[2J") {
		t.Errorf("an escape sequence from the input reached the table:\n%q", out)
	}
}

// TestEscapedCopy: the escaped copy shares nothing with the report, which is left as it was.
func TestEscapedCopy(t *testing.T) {
	r := hostileReport()
	e := escaped(r)
	if diff := cmp.Diff(hostileReport(), r, cmp.AllowUnexported(report.Report{})); diff != "" {
		t.Errorf("escaped changed its argument (-want +got):\n%s", diff)
	}
	if e.Diagnoses[0].Subject.Device != `mlx5\x1b]0;pwned\a\x1b[2J` || *e.Diagnoses[1].ExplainedBy != "ib-port-no-subnet-manager" || *e.Diagnoses[0].Subject.Port != 1 {
		t.Errorf("escaped = %+v", e.Diagnoses[0])
	}
}

// TestJSONAndYAMLEscapeControls: the encoders escape control characters themselves, and the
// values decode back as they were (programs get the real names).
func TestJSONAndYAMLEscapeControls(t *testing.T) {
	for _, format := range []string{"json", "yaml"} {
		var b bytes.Buffer
		if err := Write(&b, format, hostileReport(), Options{}); err != nil {
			t.Fatal(err)
		}
		if i := strings.IndexFunc(b.String(), rawControl); i >= 0 {
			t.Errorf("%s: raw control character %q at %d", format, b.String()[i], i)
		}
		var got struct {
			Diagnoses []report.Diagnosis `json:"diagnoses" yaml:"diagnoses"`
		}
		var err error
		if format == "json" {
			err = json.Unmarshal(b.Bytes(), &got)
		} else {
			err = yaml.Unmarshal(b.Bytes(), &got)
		}
		if err != nil {
			t.Fatalf("%s: %v", format, err)
		}
		if len(got.Diagnoses) == 0 || got.Diagnoses[0].Fix[0] != hostileReport().Diagnoses[0].Fix[0] {
			t.Errorf("%s: fix decodes as %+v", format, got.Diagnoses)
		}
	}
}
