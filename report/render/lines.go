package render

import (
	"bufio"
	"io"
	"strings"

	"github.com/rdmadoctor/rdmadoctor/report"
)

// Lines writes one line per diagnosis shown, in rank order, for shell scripts (the Slurm
// HealthCheckProgram and the NHC check in contrib/): severity, rule id, subject and message,
// separated by tabs,
//
//	critical	ib-port-no-subnet-manager	ibp4s0/1 (ib0)	ibp4s0 port 1 is LinkUp but Initializing: no SM has assigned it a LID
//
// read with `IFS=$(printf '\t') read -r severity id subject message`. Control characters in
// any field (a tab, a line feed: the subject and message quote the input) are made visible
// (\t, \n), so a field never splits and a line is always one diagnosis. No diagnosis, no line.
func Lines(w io.Writer, r *report.Report) error {
	bw := bufio.NewWriter(w)
	tab := strings.NewReplacer("\t", `\t`) // visible.Escape keeps tabs, which tables want
	for _, d := range escaped(r).Diagnoses {
		for i, f := range []string{d.Severity, d.ID, d.Subject.String(), d.Message} {
			if i > 0 {
				bw.WriteByte('\t')
			}
			bw.WriteString(tab.Replace(f))
		}
		bw.WriteByte('\n')
	}
	return bw.Flush()
}
