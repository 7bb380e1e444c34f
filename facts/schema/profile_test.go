package schema

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestProfileMatchesDocs checks that Profile() (what the CLI documents) is the committed file.
func TestProfileMatchesDocs(t *testing.T) {
	want, err := os.ReadFile(profileFile)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(string(want), string(Profile())); diff != "" {
		t.Errorf("Profile() differs from %s; %s (-want +got):\n%s", profileFile, regenerate, diff)
	}
}

// TestProfileSchema checks the parts of the profile schema that are not reflected from the Go
// types: the enumerations, closed objects and numeric port keys.
func TestProfileSchema(t *testing.T) {
	type prop struct {
		Enum          []string `json:"enum"`
		PropertyNames *struct {
			Pattern string `json:"pattern"`
		} `json:"propertyNames"`
	}
	var doc struct {
		Defs map[string]struct {
			AdditionalProperties *bool           `json:"additionalProperties"`
			Properties           map[string]prop `json:"properties"`
		} `json:"$defs"`
	}
	if err := json.Unmarshal(Profile(), &doc); err != nil {
		t.Fatal(err)
	}
	got := map[string][]string{}
	for def, d := range doc.Defs {
		if d.AdditionalProperties == nil || *d.AdditionalProperties {
			t.Errorf("%s: additionalProperties is not false; the loader rejects unknown keys", def)
		}
		for name, p := range d.Properties {
			if len(p.Enum) > 0 {
				got[def+"."+name] = p.Enum
			}
		}
	}
	want := map[string][]string{
		"Profile.fabric":      {"ib", "ethernet"},
		"DeviceIntent.fabric": {"ib", "ethernet"},
		"PortIntent.fabric":   {"ib", "ethernet"},
		"IPoIBIntent.ipv6":    {"disabled", "enabled"},
		"IPoIBIntent.mode":    {"connected", "datagram"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("enums (-want +got):\n%s", diff)
	}
	if pn := doc.Defs["DeviceIntent"].Properties["ports"].PropertyNames; pn == nil || pn.Pattern != "^[0-9]+$" {
		t.Errorf("DeviceIntent.ports: propertyNames = %+v, want pattern ^[0-9]+$", pn)
	}
	if len(ProfileEnums()) != len(want) {
		t.Errorf("ProfileEnums() has %d keys, want %d", len(ProfileEnums()), len(want))
	}
}
