package render

import (
	"fmt"
	"strings"

	"github.com/jedib0t/go-pretty/v6/table"
	"github.com/jedib0t/go-pretty/v6/text"

	"github.com/rdmadoctor/rdmadoctor/report"
)

// fabricHeadline is the digest's first line: the size of the merged view and the mapping of
// the hosts' ports.
func fabricHeadline(d *report.FabricDigest) string {
	s := fmt.Sprintf("%s (%d switches), %s, %s; %d of %s mapped to the port at the other end of their cable",
		plural(d.Nodes, "node", "nodes"), d.Switches, plural(d.Ports, "port", "ports"), plural(d.Links, "link", "links"),
		d.Mapped, plural(d.HostPorts, "InfiniBand port of the hosts", "InfiniBand ports of the hosts"))
	if d.Incomplete != "" {
		s += "; " + d.Incomplete
	}
	return s
}

// more is "N more WHAT (in the JSON report's fabric)", or "" for none, for a list cut at
// report.DigestCap.
func more(n int, what string) string {
	if n == 0 {
		return ""
	}
	return fmt.Sprintf("%d more %s (in the JSON report's fabric)", n, what)
}

// fleetFabricTable writes the fabric part of the table: the headline, the subnet managers as
// a table, the links with errors (both ends, each host's counters) and the hosts' ports not
// mapped.
func fleetFabricTable(b *strings.Builder, d *report.FabricDigest, p func(text.Colors, string) string, width int) {
	b.WriteString("\nFabric (the fabric captures of all nodes merged):\n")
	for _, l := range wrapText(fabricHeadline(d), width, "  ", "    ") {
		b.WriteString(l + "\n")
	}
	if len(d.SMs) > 0 {
		fmt.Fprintf(b, "\nSubnet managers (%d):\n", len(d.SMs)+d.SMsMore)
		guidw, statew := len("guid"), len("state")
		for _, sm := range d.SMs {
			guidw, statew = max(guidw, cols(sm.GUID)), max(statew, cols(sm.State))
		}
		last := lastColumn(width, guidw, len("lid"), len("priority"), statew)
		t := fleetTable(width)
		t.AppendHeader(table.Row{"guid", "lid", "priority", "state", "seen by"})
		for _, sm := range d.SMs {
			seen := wrapText(strings.Join(sm.SeenBy, ", ")+" ("+strings.Join(sm.Via, ", ")+")", last, "", "")
			t.AppendRow(table.Row{sm.GUID, sm.LID, sm.Priority, sm.State, seen[0]})
			for _, l := range seen[1:] {
				t.AppendRow(table.Row{"", "", "", "", l})
			}
		}
		b.WriteString(t.Render() + "\n")
		if m := more(d.SMsMore, "subnet managers"); m != "" {
			b.WriteString("  " + m + "\n")
		}
	}
	if len(d.ErrorLinks) > 0 {
		b.WriteString("\n")
		for _, l := range wrapText(fmt.Sprintf("Links with receive errors over rdma-core's thresholds at either end (%d, rising during ibdiagnet's sample first):", len(d.ErrorLinks)+d.ErrorLinksMore), width, "", "  ") {
			b.WriteString(l + "\n")
		}
		for _, l := range d.ErrorLinks {
			for i, e := range []report.DigestEnd{l.A, l.B} {
				lead := "  "
				if i == 1 {
					lead = "  <-> "
				}
				for _, s := range wrapText(e.Port, width, lead, "        ") {
					b.WriteString(s + "\n")
				}
				for _, c := range e.Counters {
					for _, s := range wrapText(c.Host+": "+c.Text, width, "        ", "          ") {
						b.WriteString(p(text.Colors{text.Faint}, s) + "\n")
					}
				}
				if len(e.Counters) == 0 {
					b.WriteString(p(text.Colors{text.Faint}, "        no error counted") + "\n")
				}
			}
		}
		if m := more(d.ErrorLinksMore, "links with errors"); m != "" {
			b.WriteString("  " + m + "\n")
		}
	}
	if len(d.Unmapped) > 0 {
		n := len(d.Unmapped) + d.UnmappedMore
		list := strings.Join(d.Unmapped, ", ")
		if d.UnmappedMore > 0 {
			list += ", and " + more(d.UnmappedMore, "host ports")
		}
		fmt.Fprintf(b, "\nHost ports not mapped to the fabric (%d: no capture shows their cable):\n", n)
		for _, l := range wrapText(list, width, "  ", "  ") {
			b.WriteString(l + "\n")
		}
	}
}

// fleetFabricMarkdown writes the fabric part of the Markdown report.
func fleetFabricMarkdown(b *strings.Builder, d *report.FabricDigest) {
	b.WriteString("\n### Fabric\n\n" + mdEscape(fabricHeadline(d)) + "\n")
	if len(d.SMs) > 0 {
		b.WriteString("\n| SM GUID | LID | Priority | State | Seen by |\n|---|---|---|---|---|\n")
		for _, sm := range d.SMs {
			fmt.Fprintf(b, "| %s | %s | %s | %s | %s (%s) |\n", code(sm.GUID), sm.LID, sm.Priority, sm.State, mdEscape(strings.Join(sm.SeenBy, ", ")), strings.Join(sm.Via, ", "))
		}
		if m := more(d.SMsMore, "subnet managers"); m != "" {
			b.WriteString("\n" + m + "\n")
		}
	}
	if len(d.ErrorLinks) > 0 {
		b.WriteString("\n| Link end | Error counters (host: counters) | Other end | Error counters (host: counters) |\n|---|---|---|---|\n")
		counters := func(e report.DigestEnd) string {
			if len(e.Counters) == 0 {
				return "none"
			}
			var parts []string
			for _, c := range e.Counters {
				parts = append(parts, mdEscape(c.Host+": "+c.Text))
			}
			return strings.Join(parts, "<br>")
		}
		for _, l := range d.ErrorLinks {
			fmt.Fprintf(b, "| %s | %s | %s | %s |\n", mdEscape(l.A.Port), counters(l.A), mdEscape(l.B.Port), counters(l.B))
		}
		if m := more(d.ErrorLinksMore, "links with errors"); m != "" {
			b.WriteString("\n" + m + "\n")
		}
	}
	if len(d.Unmapped) > 0 {
		list := mdEscape(strings.Join(d.Unmapped, ", "))
		if d.UnmappedMore > 0 {
			list += ", and " + more(d.UnmappedMore, "host ports")
		}
		fmt.Fprintf(b, "\nHost ports not mapped to the fabric (%d: no capture shows their cable): %s\n", len(d.Unmapped)+d.UnmappedMore, list)
	}
}
