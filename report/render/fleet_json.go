package render

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"strconv"

	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/report"
)

// FleetJSON writes the fleet report as indented JSON (docs/fleet.md,
// docs/fleet-report.schema.json), byte for byte what encoding/json writes for the whole
// document, but one node, fabric port and link at a time: a fleet of 10,000 nodes, or a fabric
// of 150,000 ports, is never held encoded in memory.
func FleetJSON(w io.Writer, f *report.Fleet) error {
	jw := &jsonWriter{bw: bufio.NewWriterSize(w, 1<<16)}
	jw.enc = json.NewEncoder(&jw.buf)
	jw.enc.SetEscapeHTML(false)
	const in = "  "
	jw.open("{")
	jw.field(in, "schema_version", f.SchemaVersion)
	jw.field(in, "tool", f.Tool)
	jw.key(in, "nodes")
	writeArray(jw, in, f.Nodes)
	jw.field(in, "groups", f.Groups)
	jw.field(in, "fleet_diagnoses", f.FleetDiagnoses)
	jw.field(in, "skipped", f.Skipped)
	jw.key(in, "fabric")
	writeFabric(jw, in, f.Fabric)
	jw.close("", "}")
	jw.bw.WriteString("\n")
	if jw.err != nil {
		return jw.err
	}
	return jw.bw.Flush()
}

// writeFabric writes the fabric view as the value of a field at indent, its ports, links and
// nodes one at a time.
func writeFabric(jw *jsonWriter, indent string, fab *facts.FleetFabric) {
	if fab == nil {
		jw.value(indent, fab)
		return
	}
	in := indent + "  "
	jw.open("{")
	jw.key(in, "nodes")
	writeArray(jw, in, fab.Nodes)
	jw.key(in, "ports")
	writeArray(jw, in, fab.Ports)
	jw.key(in, "links")
	writeArray(jw, in, fab.Links)
	jw.key(in, "hosts")
	writeArray(jw, in, fab.Hosts)
	jw.key(in, "sm_views")
	writeArray(jw, in, fab.SMViews)
	jw.field(in, "dropped_ports", fab.DroppedPorts)
	jw.field(in, "dropped_links", fab.DroppedLinks)
	jw.close(indent, "}")
}

// jsonWriter writes an indented JSON document in pieces, each as encoding/json's
// Encoder.SetIndent would place it inside the whole; the first error sticks.
type jsonWriter struct {
	bw    *bufio.Writer
	buf   bytes.Buffer
	enc   *json.Encoder
	err   error
	first bool // no member written yet in the object or array just opened
}

// open starts an object or array ("{" or "[").
func (jw *jsonWriter) open(bracket string) {
	jw.bw.WriteString(bracket)
	jw.first = true
}

// close ends the object or array whose opening line is at indent; an empty one is "{}" / "[]".
func (jw *jsonWriter) close(indent, bracket string) {
	if !jw.first {
		jw.bw.WriteString("\n" + indent)
	}
	jw.bw.WriteString(bracket)
	jw.first = false
}

// sep starts the next member at indent.
func (jw *jsonWriter) sep(indent string) {
	if !jw.first {
		jw.bw.WriteString(",")
	}
	jw.bw.WriteString("\n" + indent)
	jw.first = false
}

// key starts the member name of an object at indent; its value follows.
func (jw *jsonWriter) key(indent, name string) {
	jw.sep(indent)
	jw.bw.WriteString(strconv.Quote(name) + ": ")
}

// field writes the member name: v of an object at indent.
func (jw *jsonWriter) field(indent, name string, v any) {
	jw.key(indent, name)
	jw.value(indent, v)
}

// value writes v encoded whole, as a value whose line starts at indent.
func (jw *jsonWriter) value(indent string, v any) {
	if jw.err != nil {
		return
	}
	jw.buf.Reset()
	jw.enc.SetIndent(indent, "  ")
	if err := jw.enc.Encode(v); err != nil {
		jw.err = err
		return
	}
	jw.bw.Write(bytes.TrimRight(jw.buf.Bytes(), "\n"))
	jw.first = false
}

// writeArray writes items as an array value whose line starts at indent, one element at a
// time; nil is null, as encoding/json writes it.
func writeArray[T any](jw *jsonWriter, indent string, items []T) {
	if items == nil {
		jw.value(indent, items)
		return
	}
	in := indent + "  "
	jw.open("[")
	for i := range items {
		jw.sep(in)
		jw.value(in, items[i])
	}
	jw.close(indent, "]")
}
