// Package html writes a fleet report (report.Fleet) as one self-contained HTML page: a summary
// of the nodes by worst severity, the groups (one rule on many nodes), the fleet diagnoses with
// their evidence and fix commands, a nodes x rules heat map, plots of what the nodes' summaries
// hold (port rates per CA type, firmware versions per PSID, counter outliers), and each node's
// own diagnoses in an element that expands.
//
// The page loads nothing: its CSS and its few lines of JavaScript (copy buttons) are inline, the
// plots are SVG written here, and its Content-Security-Policy forbids every fetch, so it opens the
// same from a file, a ticket attachment or a machine without network. Every value from the input
// goes through html/template (escaped for its context) after its control characters were made
// visible (internal/visible, as the table and Markdown views do).
//
// The page is bounded for fleets of 10,000 nodes and more: the limits below cap what is drawn
// and listed, and the page says each time what it left out.
package html

import (
	"embed"
	"fmt"
	"html/template"
	"io"
	"reflect"
	"sync"

	"github.com/rdmadoctor/rdmadoctor/internal/rewrite"
	"github.com/rdmadoctor/rdmadoctor/internal/visible"
	"github.com/rdmadoctor/rdmadoctor/report"
)

// Limits of the page. Past each, the page says what it cut.
const (
	// MaxHeatRows is the number of heat map rows: one per node up to this many nodes, else one per
	// set of nodes with the same findings (status and severity per rule), the most severe first.
	MaxHeatRows = 200
	// MaxHeatCols is the number of rule columns of the heat map, most severe and widest first.
	MaxHeatCols = 60
	// MaxDetailedNodes is the number of nodes (worst first) whose diagnoses are listed with their
	// evidence and fix commands; the next MaxListedNodes are one line each (lead diagnosis).
	MaxDetailedNodes = 300
	MaxListedNodes   = 5000
	// MaxNodeDiagnoses caps the diagnoses shown for one node, MaxEvidence the evidence lines of
	// one diagnosis, MaxTileHosts the hosts named under a summary tile.
	MaxNodeDiagnoses = 25
	MaxEvidence      = 12
	MaxTileHosts     = 12
	// MaxCleanHosts caps the names of nodes without findings (they are counted in full).
	MaxCleanHosts = 5000
	// MaxTextRunes cuts a message, evidence line or fix command longer than this.
	MaxTextRunes = 600
)

//go:embed page.tmpl page.css page.js
var assets embed.FS

// page is the parsed page template, parsed on the first Write: not at start-up, which every
// diagnose pays (1.3 ms and 3,500 allocations of package init).
var page = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("page.tmpl").Funcs(funcs).ParseFS(assets, "page.tmpl"))
})

// Write writes f as one HTML document to w. f is not modified.
func Write(w io.Writer, f *report.Fleet) error {
	if f == nil {
		return fmt.Errorf("html: no fleet report")
	}
	css, err := assets.ReadFile("page.css")
	if err != nil {
		return err
	}
	js, err := assets.ReadFile("page.js")
	if err != nil {
		return err
	}
	c := *f // a copy whose every string has its control characters made visible
	// (a fix command quoted for bash instead: ibstat $'ib\x1b[2J' 1, visible.Command)
	rewrite.StringsBy(reflect.ValueOf(&c).Elem(), visible.Escape, map[rewrite.Field]func(string) string{
		{Type: reflect.TypeOf(report.Fix{}), Name: "Command"}: visible.Command,
	})
	v := build(&c)
	v.CSS = template.CSS(css)
	v.JS = template.JS(js)
	return page().Execute(w, v)
}
