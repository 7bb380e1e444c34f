package render

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"

	"github.com/rdmadoctor/rdmadoctor/report"
)

// FleetJSON writes the fleet report as indented JSON (docs/fleet.md,
// docs/fleet-report.schema.json), byte for byte what encoding/json writes for the whole
// document, but one node at a time: a fleet of 10,000 nodes is never held encoded in memory.
func FleetJSON(w io.Writer, f *report.Fleet) error {
	bw := bufio.NewWriterSize(w, 1<<16)
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	field := func(name string, v any, last bool) error {
		buf.Reset()
		enc.SetIndent("  ", "  ")
		if err := enc.Encode(v); err != nil {
			return err
		}
		bw.WriteString("  \"" + name + "\": ")
		bw.Write(bytes.TrimRight(buf.Bytes(), "\n"))
		if !last {
			bw.WriteString(",")
		}
		bw.WriteString("\n")
		return nil
	}
	bw.WriteString("{\n")
	if err := field("schema_version", f.SchemaVersion, false); err != nil {
		return err
	}
	if err := field("tool", f.Tool, false); err != nil {
		return err
	}
	if f.Nodes == nil {
		if err := field("nodes", f.Nodes, false); err != nil {
			return err
		}
	} else if len(f.Nodes) == 0 {
		bw.WriteString("  \"nodes\": [],\n")
	} else {
		bw.WriteString("  \"nodes\": [\n")
		enc.SetIndent("    ", "  ")
		for i, n := range f.Nodes {
			buf.Reset()
			if err := enc.Encode(n); err != nil {
				return err
			}
			bw.WriteString("    ")
			bw.Write(bytes.TrimRight(buf.Bytes(), "\n"))
			if i < len(f.Nodes)-1 {
				bw.WriteString(",")
			}
			bw.WriteString("\n")
		}
		bw.WriteString("  ],\n")
	}
	if err := field("groups", f.Groups, false); err != nil {
		return err
	}
	if err := field("fleet_diagnoses", f.FleetDiagnoses, false); err != nil {
		return err
	}
	if err := field("skipped", f.Skipped, true); err != nil {
		return err
	}
	bw.WriteString("}\n")
	return bw.Flush()
}
