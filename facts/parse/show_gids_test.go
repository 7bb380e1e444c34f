package parse_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/facts/parse"
	"github.com/rdmadoctor/rdmadoctor/fixtures"
)

func TestShowGIDsMacvlan(t *testing.T) {
	got, err := parse.ShowGIDs(fixtures.Read(t, "show_gids/macvlan-truncated.txt"))
	// the stored copy is cut after a row: the closing count is missing, the rows are kept
	if ps, ok := parse.AsProblems(err); !ok || len(ps) != 1 || ps[0].Line != 11 || !strings.Contains(ps[0].Why, "no closing n_gids_found=N line") {
		t.Fatalf("want the missing count named at line 11, got %v", err)
	}
	if len(got) != 3 {
		t.Fatalf("got %d devices, want 3", len(got))
	}
	l := []string{3: "mlx5_0\t1\t4\tfe80:0000:0000:0000:a4ed:ccff:fe8b:1994\t\t\tv1\tnet1",
		"mlx5_0\t1\t5\tfe80:0000:0000:0000:a4ed:ccff:fe8b:1994\t\t\tv2\tnet1",
		"mlx5_0\t1\t6\t0000:0000:0000:0000:0000:ffff:0a98:000c\t10.152.0.12  \tv1\tnet1",
		"mlx5_0\t1\t7\t0000:0000:0000:0000:0000:ffff:0a98:000c\t10.152.0.12  \tv2\tnet1"}
	want := facts.Device{Name: "mlx5_0", Evidence: facts.EvidenceMap{"name": ibEv(3, l[3])}, Ports: []facts.Port{{
		Number: 1, Netdev: "net1",
		Evidence: facts.EvidenceMap{"number": ibEv(3, l[3]), "netdev": ibEv(3, l[3])},
		GIDs: []facts.GID{
			{Index: 4, GID: "fe80:0000:0000:0000:a4ed:ccff:fe8b:1994", Type: "RoCE v1", Netdev: "net1", Evidence: ibEv(3, l[3])},
			{Index: 5, GID: "fe80:0000:0000:0000:a4ed:ccff:fe8b:1994", Type: "RoCE v2", Netdev: "net1", Evidence: ibEv(4, l[4])},
			{Index: 6, GID: "0000:0000:0000:0000:0000:ffff:0a98:000c", Type: "RoCE v1", IPv4: "10.152.0.12", Netdev: "net1", Evidence: ibEv(5, l[5])},
			{Index: 7, GID: "0000:0000:0000:0000:0000:ffff:0a98:000c", Type: "RoCE v2", IPv4: "10.152.0.12", Netdev: "net1", Evidence: ibEv(6, l[6])},
		},
	}}}
	if diff := cmp.Diff(want, got[0]); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestShowGIDsCaptures(t *testing.T) {
	for _, tc := range []struct {
		fixture string
		devices int
		gids    int
		v2IPv4  []string // IPv4 of the RoCE v2 GIDs, in file order
	}{
		{"show_gids/empty.txt", 0, 0, nil},
		{"show_gids/bond-vxlan-spaces.txt", 1, 6, []string{"", "192.0.2.175", "192.0.2.175"}},
		{"show_gids/excerpt-no-header.txt", 1, 2, []string{"", "192.168.100.10"}},
		{"show_gids/vlan-link-local.txt", 2, 196, nil},
	} {
		devs, err := parse.ShowGIDs(fixtures.Read(t, tc.fixture))
		if ps, ok := parse.AsProblems(err); err != nil && (!ok || len(ps) != 1 || !strings.Contains(ps[0].Why, "no closing n_gids_found=N line") || tc.fixture != "show_gids/bond-vxlan-spaces.txt") {
			t.Fatalf("%s: %v", tc.fixture, err)
		}
		n := 0
		var v2 []string
		for _, d := range devs {
			for _, p := range d.Ports {
				n += len(p.GIDs)
				for _, g := range p.GIDs {
					if g.Type == "RoCE v2" && tc.v2IPv4 != nil {
						v2 = append(v2, g.IPv4)
					}
				}
			}
		}
		if len(devs) != tc.devices || n != tc.gids {
			t.Errorf("%s: %d devices %d GIDs, want %d %d", tc.fixture, len(devs), n, tc.devices, tc.gids)
		}
		if diff := cmp.Diff(tc.v2IPv4, v2); diff != "" {
			t.Errorf("%s: v2 IPv4 (-want +got):\n%s", tc.fixture, diff)
		}
	}
}

func FuzzShowGIDs(f *testing.F) {
	ibSeed(f, "show_gids")
	f.Fuzz(func(t *testing.T, b []byte) {
		parse.ShowGIDs(b) //nolint:errcheck // only panics matter here
	})
}

func BenchmarkShowGIDs(b *testing.B) {
	data := fixtures.Read(b, "show_gids/vlan-link-local.txt")
	for b.Loop() {
		if _, err := parse.ShowGIDs(data); err != nil {
			b.Fatal(err)
		}
	}
}

// TestShowGIDsDamage: a GID that is not eight groups of four hex digits, and an IPv4 column that
// is not the address the GID maps, are problems of their lines (a damaged copy must not read as
// another GID, or break a duplicate).
func TestShowGIDsDamage(t *testing.T) {
	b := fixtures.Read(t, "show_gids/bond-vxlan-spaces.txt")
	for _, tc := range []struct{ from, to, why string }{
		{"ffff:c000:02af 192.0.2.175   v2      bond1", "ffff:c000:fifty 192.0.2.175   v2      bond1", "not eight groups of four hex digits"},
		{"ffff:c000:02af 192.0.2.175   v2      bond1", "ffff:c000:02af fifty.0.2.175   v2      bond1", "is not the address of GID"},
	} {
		_, err := parse.ShowGIDs([]byte(strings.Replace(string(b), tc.from, tc.to, 1)))
		if ps, ok := parse.AsProblems(err); !ok || !strings.Contains(ps.Error(), tc.why) {
			t.Errorf("%s: got %v, want a problem %q", tc.to, err, tc.why)
		}
	}
}
