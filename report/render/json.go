package render

import (
	"encoding/json"
	"io"

	"github.com/rdmadoctor/rdmadoctor/report"
)

// JSON writes the report as indented JSON (docs/report.md). HTML escaping is off so fix
// commands keep their "<netdev>" and "&&" as typed.
func JSON(w io.Writer, r *report.Report) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}
