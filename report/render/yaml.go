package render

import (
	"bytes"
	"encoding/json"
	"io"
	"regexp"

	"gopkg.in/yaml.v3"

	"github.com/rdmadoctor/rdmadoctor/report"
)

// YAML writes the report as YAML with the same keys, in the same order, as the JSON.
func YAML(w io.Writer, r *report.Report) error { return YAMLOf(w, r) }

// YAMLOf writes any JSON-encodable value (a report, a facts.Snapshot) as YAML with the JSON's
// keys in the JSON's order: the JSON document is read into a yaml.Node (JSON is YAML) and
// written back in block style.
func YAMLOf(w io.Writer, v any) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return err
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(buf.Bytes(), &doc); err != nil {
		return err
	}
	blockStyle(&doc)
	ye := yaml.NewEncoder(w)
	ye.SetIndent(2)
	if err := ye.Encode(&doc); err != nil {
		return err
	}
	return ye.Close()
}

// sexagesimal matches strings such as the PCI address "0000:04:00.0" that YAML 1.1 readers
// (PyYAML) take for base-60 numbers unless they are quoted.
var sexagesimal = regexp.MustCompile(`^[-+]?[0-9][0-9_]*(:[0-9_]+)+(\.[0-9_]*)?$`)

// blockStyle clears the flow and quoting styles the JSON syntax gave every node, so the encoder
// picks block collections and quotes strings only where YAML needs it. Empty collections stay
// in flow style ([] and {}), the only way to write them.
func blockStyle(n *yaml.Node) {
	if n.Kind == yaml.SequenceNode || n.Kind == yaml.MappingNode {
		if len(n.Content) > 0 {
			n.Style = 0
		}
	} else {
		n.Style = 0
		if n.Tag == "!!str" && sexagesimal.MatchString(n.Value) {
			n.Style = yaml.SingleQuotedStyle
		}
	}
	for _, c := range n.Content {
		blockStyle(c)
	}
}
