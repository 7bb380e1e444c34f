package html_test

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/report"
	"github.com/rdmadoctor/rdmadoctor/report/render/html"
)

func page(t testing.TB, f *report.Fleet) string {
	t.Helper()
	var b bytes.Buffer
	if err := html.Write(&b, f); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestSelfContained: the page of a real fleet references nothing outside itself (no src, no
// stylesheet link, no url(), no @import, no fetch) and forbids every fetch in its policy.
func TestSelfContained(t *testing.T) {
	out := page(t, realistic(t))
	for _, re := range []string{`(?i)\ssrc\s*=`, `(?i)<link\b`, `(?i)url\(`, `(?i)@import`, `(?i)\bfetch\(`, `(?i)XMLHttpRequest`, `(?i)<iframe`} {
		if m := regexp.MustCompile(re).FindString(out); m != "" {
			t.Errorf("page holds %q", m)
		}
	}
	if !strings.Contains(out, `content="default-src 'none';`) {
		t.Error("page has no Content-Security-Policy that forbids fetches")
	}
}

// TestHostileInput: markup, control characters and bidi overrides from a snapshot (a host name,
// a message, an evidence line, a fix command) are shown as text, never as markup, and their
// control characters visible as the table view shows them.
func TestHostileInput(t *testing.T) {
	f := realistic(t)
	n := &f.Nodes[0]
	evil := `<script>alert(1)</script>` + "\x1b]0;pwned\a\u202e"
	n.Host = "gpu001" + evil
	n.Diagnoses = append([]report.Diagnosis(nil), n.Diagnoses...)
	n.Diagnoses = append(n.Diagnoses, report.Diagnosis{ID: "x", Severity: "critical", Message: "m " + evil,
		Evidence: []facts.Evidence{{Path: "sos_commands/infiniband/ibstat", Line: 1, Text: "CA '" + evil + "'"}},
		Fix:      []report.Fix{{Command: "ibstat '" + evil + "'", Note: evil}}})
	n.Worst = "critical"
	f.Groups = append(f.Groups, report.Group{ID: "x" + evil, Severity: "critical", Nodes: []string{n.Host}, HostList: n.Host, Example: evil})
	out := page(t, f)
	if strings.Contains(out, "<script>alert") {
		t.Error("markup from the input reached the page")
	}
	for _, c := range []string{"\x1b", "\a", "\u202e"} {
		if strings.Contains(out, c) {
			t.Errorf("control character %q reached the page", c)
		}
	}
	if !strings.Contains(out, `&lt;script&gt;alert(1)&lt;/script&gt;\x1b]0;pwned\a\u202e`) {
		t.Error("the hostile text is not shown escaped")
	}
	if strings.Count(out, "<script>") != 1 {
		t.Errorf("%d script elements, want the page's own one", strings.Count(out, "<script>"))
	}
}

// TestEmptyPlots: a fleet whose summaries hold nothing to plot says so for each plot, in a
// sentence, and draws no SVG.
func TestEmptyPlots(t *testing.T) {
	f := realistic(t)
	for i := range f.Nodes {
		f.Nodes[i].Summary = nil
	}
	out := page(t, f)
	for _, want := range []string{"No node&#39;s snapshot gave port rates", "No node&#39;s snapshot gave firmware versions", "No node&#39;s snapshot gave a non-zero error counter"} {
		if !strings.Contains(out, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	if strings.Contains(out, "<svg") {
		t.Error("an empty plot drew an SVG")
	}
}

// TestUnreadableAndPartialNamed: the summary names the node that could not be read with the
// reason source.Open gave, and the partial nodes with the inputs they lacked; none of them is
// counted as a node without findings.
func TestUnreadableAndPartialNamed(t *testing.T) {
	f := realistic(t)
	out := page(t, f)
	var bad, partial []report.FleetNode
	clean := 0
	for _, n := range f.Nodes {
		switch {
		case n.Status == report.NodeUnreadable:
			bad = append(bad, n)
		case n.Status == report.NodePartial:
			partial = append(partial, n)
		}
		if n.Status == report.NodeOK && len(n.Diagnoses) == 0 {
			clean++
		}
	}
	if len(bad) != 1 || len(partial) == 0 {
		t.Fatalf("test fleet: %d unreadable, %d partial", len(bad), len(partial))
	}
	summary := out[strings.Index(out, `<section id="summary">`):strings.Index(out, `<section id="groups">`)]
	if !strings.Contains(summary, bad[0].Host+"</b></a>: "+bad[0].Error) {
		t.Errorf("summary does not name %s with its error %q", bad[0].Host, bad[0].Error)
	}
	for _, n := range partial {
		if !strings.Contains(summary, n.Host+"</b></a>: not (fully) read: "+n.Incomplete[0]) {
			t.Errorf("summary does not name partial %s with %s", n.Host, n.Incomplete[0])
		}
	}
	if !strings.Contains(summary, fmt.Sprintf(`<div class="n">%d</div><div class="l">no finding</div>`, clean)) {
		t.Errorf("no-finding tile is not %d", clean)
	}
}

// TestLargeFleetBounded: 10,000 nodes made of the real corpus reports give a page of bounded
// size whose heat map aggregates, whose node list is cut, and which says both.
func TestLargeFleetBounded(t *testing.T) {
	cases := []string{healthyH100, healthyH100, healthyH100, noSM, flapping, memlock, pcieSlow, partialGIDs, hdrPartial, oldFirmware}
	var ms []member
	for i := range 10000 {
		ms = append(ms, member{host: fmt.Sprintf("node%05d", i), corpusCase: cases[i%len(cases)]})
	}
	f := fleetOf(t, ms)
	out := page(t, f)
	t.Logf("10,000 nodes: %d bytes", len(out))
	if len(out) > 12<<20 {
		t.Errorf("page of 10,000 nodes is %d bytes, want at most 12 MiB", len(out))
	}
	if rows := strings.Count(out[strings.Index(out, `<table class="heat">`):], "<tr><th class=\"rl"); rows > html.MaxHeatRows || rows == 0 {
		t.Errorf("%d heat map rows, want 1..%d", rows, html.MaxHeatRows)
	}
	for _, want := range []string{"each row is the nodes with the same findings", "with their lead diagnosis only", "read in full without any finding"} {
		if !strings.Contains(out, want) {
			t.Errorf("page does not say %q", want)
		}
	}
	if n := strings.Count(out, `<details class="node`); n != html.MaxDetailedNodes {
		t.Errorf("%d detailed nodes, want %d", n, html.MaxDetailedNodes)
	}
}
