// Package schema derives the JSON Schema of the fact document (facts.Snapshot) from the Go types.
// The engine compiles the rules against it, so a rule that reads a field the snapshot does not
// have fails at load time with the rule's file and row; docs/snapshot.schema.json is the same
// schema, committed for rule authors.
package schema

import (
	"encoding/json"
	"reflect"
	"strings"

	"github.com/invopop/jsonschema"
	"github.com/rdmadoctor/rdmadoctor/facts"
)

// ID is the schema's $id.
const ID = "https://github.com/rdmadoctor/rdmadoctor/docs/snapshot.schema.json"

// FleetID is the $id of the fleet document's schema (facts.Fleet, what fleet rules see).
const FleetID = "https://github.com/rdmadoctor/rdmadoctor/docs/fleet.schema.json"

// Snapshot returns the JSON Schema of facts.Snapshot, indented, with a trailing newline.
func Snapshot() []byte { return indent(reflectSnapshot(comments())) }

// Fleet returns the JSON Schema of facts.Fleet, the document fleet rules evaluate, indented,
// with a trailing newline; docs/fleet.schema.json is this document.
func Fleet() []byte { return indent(reflectFleet(comments())) }

func indent(s *jsonschema.Schema) []byte {
	b, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		// The schema is built from static types; failing to marshal it is a programming error.
		panic(err)
	}
	return append(b, '\n')
}

// reflectSnapshot builds the schema with the given Go doc comments (keyed the way
// jsonschema.Reflector.CommentMap wants them).
func reflectSnapshot(commentMap map[string]string) *jsonschema.Schema {
	return reflectDoc(&facts.Snapshot{}, ID, commentMap)
}

// reflectFleet builds the fleet document's schema the same way.
func reflectFleet(commentMap map[string]string) *jsonschema.Schema {
	return reflectDoc(&facts.Fleet{}, FleetID, commentMap)
}

// reflectDoc builds the schema of the document doc points at.
func reflectDoc(doc any, id string, commentMap map[string]string) *jsonschema.Schema {
	r := &jsonschema.Reflector{
		// Fields are optional for the rules (absent facts are null); required lists would only
		// mislead readers.
		RequiredFromJSONSchemaTags: true,
		CommentMap:                 commentMap,
	}
	s := r.Reflect(doc)
	s.ID = jsonschema.ID(id)
	nullable(s, reflect.TypeOf(doc).Elem(), map[reflect.Type]bool{})
	return s
}

// Nullable marks, in root, the properties of t's definition and of those below it that
// encoding/json can write as null, as nullable below does for the fact documents: a generator
// of another schema that holds fact types (the fleet report's node summaries) calls it.
func Nullable(root *jsonschema.Schema, t reflect.Type) { nullable(root, t, map[reflect.Type]bool{}) }

// nullable marks the properties that encoding/json can write as null (pointers, and slices and
// maps without omitempty) as "anyOf: [T, null]", so the schema documents that null means "not
// gathered". OPA's type checker understands anyOf (it ignores oneOf, which the reflector's own
// nullable tag would produce).
func nullable(root *jsonschema.Schema, t reflect.Type, seen map[reflect.Type]bool) {
	for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Map {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct || seen[t] {
		return
	}
	seen[t] = true
	def := root.Definitions[t.Name()]
	for f := range t.Fields() {
		if !f.IsExported() {
			continue
		}
		name, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" {
			continue
		}
		if name == "" {
			name = f.Name
		}
		nullable(root, f.Type, seen)
		if def == nil || def.Properties == nil {
			continue
		}
		p, ok := def.Properties.Get(name)
		if !ok {
			continue
		}
		k := f.Type.Kind()
		omit := strings.Contains(opts, "omitempty")
		if k == reflect.Pointer || (k == reflect.Slice || k == reflect.Map) && !omit {
			def.Properties.Set(name, orNull(p))
		}
	}
}

// NullableField marks, in root, the property name of t's definition as "anyOf: [T, null]": a
// pointer field of a document type that Nullable is not run on as a whole (report.Fleet's
// fabric).
func NullableField(root *jsonschema.Schema, t reflect.Type, name string) {
	if def := root.Definitions[t.Name()]; def != nil && def.Properties != nil {
		if p, ok := def.Properties.Get(name); ok {
			def.Properties.Set(name, orNull(p))
		}
	}
}

func orNull(p *jsonschema.Schema) *jsonschema.Schema {
	desc := p.Description
	inner := *p
	inner.Description = ""
	return &jsonschema.Schema{
		AnyOf:       []*jsonschema.Schema{&inner, {Type: "null"}},
		Description: desc,
	}
}
