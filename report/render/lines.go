package render

import (
	"bufio"
	"io"
	"strings"

	"github.com/rdmadoctor/rdmadoctor/internal/visible"
	"github.com/rdmadoctor/rdmadoctor/report"
)

// Lines writes one line per diagnosis shown, in rank order, for shell scripts (the Slurm
// HealthCheckProgram and the NHC check in contrib/): severity, rule id, subject and message,
// separated by tabs,
//
//	critical	ib-port-no-subnet-manager	ibp4s0/1 (ib0)	ibp4s0 port 1 is LinkUp but Initializing: no SM has assigned it a LID
//
// read with `IFS=$(printf '\t') read -r severity id subject message`. Each field is escaped so
// that it is unambiguous and one field: a backslash is written \\, a tab \t, and every other
// control character as visible.Escape writes it (\n, \r, \x1b, \u202e), so a field never
// splits, a line is always one diagnosis, and the text "\n" (backslash, n) in the input reads
// \\n, never as an escaped line feed. No diagnosis, no line.
func Lines(w io.Writer, r *report.Report) error {
	bw := bufio.NewWriter(w)
	for _, d := range r.Diagnoses {
		for i, f := range []string{d.Severity, d.ID, d.Subject.String(), d.Message} {
			if i > 0 {
				bw.WriteByte('\t')
			}
			bw.WriteString(lineField(f))
		}
		bw.WriteByte('\n')
	}
	return bw.Flush()
}

// lineFieldEscapes double the backslashes first, so that the escapes visible.Escape adds after
// are the only single backslashes, and write the tab that visible.Escape keeps.
var lineFieldEscapes = strings.NewReplacer(`\`, `\\`, "\t", `\t`)

// lineField is one field of a Lines line: backslash and tab escaped, then the other control
// characters made visible.
func lineField(s string) string {
	return visible.Escape(lineFieldEscapes.Replace(s))
}
