package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/open-policy-agent/opa/v1/rego"

	"github.com/rdmadoctor/rdmadoctor/report"
)

const (
	examplesDir   = "../../docs/examples"
	profileSchema = "../../docs/profile.schema.json"
	fixturesDir   = "../../fixtures"
)

// TestProfileExamples loads every docs/examples/profiles/*.yaml with the --profile loader,
// checks it against docs/profile.schema.json, and diagnoses a real capture of that kind of node
// with it: the profile must change what rdma-port-count-below-expected (the rule that reads
// expected_active_ports, expected_rate_gbps and fabric) reports.
func TestProfileExamples(t *testing.T) {
	const countRule = "rdma-port-count-below-expected"
	for _, tc := range []struct {
		profile string
		input   []string // diagnose arguments naming the capture
		edit    [2]string
		want    string // message of countRule with the profile ("" = no finding)
	}{
		// Corpus 003, an H100 node: eight Active 400 Gb/s NDR rails and four front-end Ethernet ports.
		{profile: "ib-gpu-node", input: []string{"--input", fixturesDir + "/ibstat/h100-ndr-eth-disabled.txt"}},
		{profile: "ib-gpu-node", input: []string{"--input", fixturesDir + "/ibstat/h100-ndr-eth-disabled.txt"},
			edit: [2]string{"expected_active_ports: 8", "expected_active_ports: 9"},
			want: "8 of the expected 9 RDMA ports are Active at >= 400 Gb/s"},
		// Corpus 108, a ConnectX-4 Lx RoCE port that trained at 10 Gb/s.
		{profile: "roce-node", input: []string{"--input", fixturesDir + "/ibv_devinfo/cx4lx-roce-verbose-gids.txt"},
			want: "0 of the expected 2 RDMA ports are Active at >= 25 Gb/s; not counted: mlx5_3/1 Active 10 Gb/s"},
		// Corpus 017 and 018: the pair without, then with, a subnet manager.
		{profile: "back-to-back-pair", input: []string{"--snapshot", fixturesDir + "/scenarios/back-to-back-no-sm"},
			want: "0 of the expected 1 RDMA ports are Active at >= 56 Gb/s; not counted: ibp4s0/1 Initializing"},
		{profile: "back-to-back-pair", input: []string{"--input", fixturesDir + "/ibstat/cx4-back-to-back-active-node01.txt"}},
	} {
		name := tc.profile
		if tc.edit[0] != "" {
			name += "/" + tc.edit[1]
		}
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(examplesDir, "profiles", tc.profile+".yaml")
			if tc.edit[0] != "" {
				b, err := os.ReadFile(path)
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Contains(b, []byte(tc.edit[0])) {
					t.Fatalf("%s has no %q", path, tc.edit[0])
				}
				path = filepath.Join(t.TempDir(), tc.profile+".yaml")
				if err := os.WriteFile(path, bytes.Replace(b, []byte(tc.edit[0]), []byte(tc.edit[1]), 1), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			p, err := readProfile(path)
			if err != nil {
				t.Fatal(err)
			}
			checkSchema(t, p)

			without := diagnoseJSON(t, tc.input...)
			with := diagnoseJSON(t, append(tc.input, "--profile", path)...)
			if got := messages(without, countRule); len(got) != 0 {
				t.Errorf("without a profile %s reports %q; it needs expected_active_ports or expected_rate_gbps", countRule, got)
			}
			got := strings.Join(messages(with, countRule), "\n")
			if got != tc.want {
				t.Errorf("with %s, %s reports %q, want %q", tc.profile, countRule, got, tc.want)
			}
		})
	}
}

// checkSchema validates the profile, as rules see it, against the committed JSON Schema.
func checkSchema(t *testing.T, p any) {
	t.Helper()
	b, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	var doc any
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	if ok, why := matchSchema(t, doc); !ok {
		t.Errorf("profile does not match %s: %v", profileSchema, why)
	}
}

// TestProfileSchemaRejects: the schema check in checkSchema can fail.
func TestProfileSchemaRejects(t *testing.T) {
	for _, doc := range []string{
		`{"fabric": "infiniband"}`,
		`{"devices": {"mlx5_0": {"ports": {"one": {"fabric": "ib"}}}}}`,
		`{"ipoib": {"mtu": 4092, "mdoe": "connected"}}`,
	} {
		var v any
		if err := json.Unmarshal([]byte(doc), &v); err != nil {
			t.Fatal(err)
		}
		if ok, _ := matchSchema(t, v); ok {
			t.Errorf("%s matches the profile schema", doc)
		}
	}
}

// matchSchema checks doc against docs/profile.schema.json with OPA's json.match_schema.
func matchSchema(t *testing.T, doc any) (bool, any) {
	t.Helper()
	schema, err := os.ReadFile(profileSchema)
	if err != nil {
		t.Fatal(err)
	}
	rs, err := rego.New(rego.Query("x := json.match_schema(input.doc, input.schema)"),
		rego.Input(map[string]any{"doc": doc, "schema": string(schema)})).Eval(context.Background())
	if err != nil || len(rs) != 1 {
		t.Fatalf("json.match_schema: %v (%d results)", err, len(rs))
	}
	res := rs[0].Bindings["x"].([]any)
	return res[0].(bool), res[1]
}

func diagnoseJSON(t *testing.T, args ...string) *report.Report {
	t.Helper()
	var out, errOut bytes.Buffer
	code := run(append([]string{"rdmadoctor", "diagnose", "--format", "json", "--fail-on", "none"}, args...), nil, &out, &errOut)
	if code != 0 {
		t.Fatalf("diagnose %v: exit %d: %s", args, code, errOut.String())
	}
	var r report.Report
	if err := json.Unmarshal(out.Bytes(), &r); err != nil {
		t.Fatal(err)
	}
	return &r
}

func messages(r *report.Report, id string) []string {
	var out []string
	for _, d := range r.Diagnoses {
		if d.ID == id {
			out = append(out, d.Message)
		}
	}
	return out
}
