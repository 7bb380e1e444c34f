package schema

import (
	"encoding/json"
	"fmt"

	"github.com/invopop/jsonschema"
	"github.com/rdmadoctor/rdmadoctor/facts"
)

// ProfileID is the $id of the site profile's schema.
const ProfileID = "https://github.com/rdmadoctor/rdmadoctor/docs/profile.schema.json"

// profileEnum is one key of the profile with a closed set of values: path is the key as the
// --profile loader names it ("*" for any device name or port number), def and prop locate it in
// the schema.
type profileEnum struct {
	path, def, prop string
	values          []string
}

var (
	fabrics      = []string{"ib", "ethernet"}
	profileEnums = []profileEnum{
		{"fabric", "Profile", "fabric", fabrics},
		{"devices.*.fabric", "DeviceIntent", "fabric", fabrics},
		{"devices.*.ports.*.fabric", "PortIntent", "fabric", fabrics},
		{"ipoib.ipv6", "IPoIBIntent", "ipv6", []string{"disabled", "enabled"}},
		{"ipoib.mode", "IPoIBIntent", "mode", []string{"connected", "datagram"}},
	}
)

// ProfileEnums returns the allowed values of the profile's enumerated keys by key path, e.g.
// "devices.*.ports.*.fabric" -> [ib ethernet]; the schema's enums are the same lists.
func ProfileEnums() map[string][]string {
	out := make(map[string][]string, len(profileEnums))
	for _, e := range profileEnums {
		out[e.path] = append([]string(nil), e.values...)
	}
	return out
}

// Profile returns the JSON Schema of the site profile (facts.Profile, the --profile YAML),
// indented, with a trailing newline; docs/profile.schema.json is this document.
func Profile() []byte {
	b, err := json.MarshalIndent(reflectProfile(comments()), "", "  ")
	if err != nil {
		panic(err) // static types: a programming error
	}
	return append(b, '\n')
}

// reflectProfile builds the profile schema: the Go types with their doc comments, unknown keys
// forbidden (the loader rejects them too), the enumerated values, and port keys that are numbers.
func reflectProfile(commentMap map[string]string) *jsonschema.Schema {
	r := &jsonschema.Reflector{RequiredFromJSONSchemaTags: true, CommentMap: commentMap}
	s := r.Reflect(&facts.Profile{})
	s.ID = ProfileID
	s.Title = "rdmadoctor site profile"
	for _, e := range profileEnums {
		p := property(s, e.def, e.prop)
		for _, v := range e.values {
			p.Enum = append(p.Enum, v)
		}
	}
	ports := property(s, "DeviceIntent", "ports")
	ports.PropertyNames = &jsonschema.Schema{Pattern: "^[0-9]+$"}
	return s
}

func property(s *jsonschema.Schema, def, prop string) *jsonschema.Schema {
	d, ok := s.Definitions[def]
	if !ok || d.Properties == nil {
		panic(fmt.Sprintf("profile schema: no definition %s", def))
	}
	p, ok := d.Properties.Get(prop)
	if !ok {
		panic(fmt.Sprintf("profile schema: %s has no property %s", def, prop))
	}
	return p
}
