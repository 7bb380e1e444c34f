package parse_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/facts/parse"
	"github.com/rdmadoctor/rdmadoctor/fixtures"
)

func TestSystemctlStatus(t *testing.T) {
	const (
		lsb    = "systemctl/opensm-lsb-active-standby.txt"
		exited = "systemctl/opensmd-active-exited.txt"
	)
	for _, tc := range []struct {
		fixture string
		want    map[string]facts.Service
	}{
		// Case 101: a SysV script wrapped by systemd ("generated"), running.
		{lsb, map[string]facts.Service{"opensm": {Loaded: "loaded", Enabled: "generated", Active: "active", Sub: "running", Evidence: fixtureEv(t, lsb, 3)}}},
		// Case 112: MLNX_OFED's opensmd script exited after starting (the daemon itself failed to bind).
		{exited, map[string]facts.Service{"opensmd": {Loaded: "loaded", Enabled: "generated", Active: "active", Sub: "exited", Evidence: fixtureEv(t, exited, 3)}}},
	} {
		got, err := parse.SystemctlStatus(fixtures.Read(t, tc.fixture))
		if err != nil {
			t.Fatalf("%s: %v", tc.fixture, err)
		}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tc.fixture, diff)
		}
	}
}

func TestSystemctlListUnits(t *testing.T) {
	const f = "systemctl/list-units-hotsos_EXCERPT.txt"
	got, err := parse.SystemctlListUnits(fixtures.Read(t, f))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]facts.Service{
		"user@1000": {Loaded: "loaded", Active: "active", Sub: "running", Evidence: fixtureEv(t, f, 1)},
		"uuidd":     {Loaded: "loaded", Active: "active", Sub: "running", Evidence: fixtureEv(t, f, 2)},
		"virtlogd":  {Loaded: "loaded", Active: "active", Sub: "running", Evidence: fixtureEv(t, f, 3)},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("%s (-want +got):\n%s", f, diff)
	}
}

func TestOpenIBD(t *testing.T) {
	const (
		restart = "systemctl/openibd-restart-mlx5-failed.txt"
		status  = "systemctl/openibd-status.txt"
	)
	got, err := parse.OpenIBD(fixtures.Read(t, restart))
	if err != nil {
		t.Fatal(err)
	}
	r := func(n int, msg string) facts.ToolRefusal {
		return facts.ToolRefusal{Tool: "openibd", Message: msg, Evidence: fixtureEv(t, restart, n)}
	}
	// Case 111: MLNX_OFED built for another kernel, so its modules do not load.
	want := []facts.ToolRefusal{
		r(2, "Failed loading kernel module mlx5_ib"),
		r(3, "Loading Mellanox MLX5_IB HCA driver"),
		r(4, "Failed loading kernel module mlx5_core"),
		r(5, "Loading Mellanox MLX5 HCA driver"),
		r(6, "Loading HCA driver and Access Layer"),
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("%s (-want +got):\n%s", restart, diff)
	}
	if got, err := parse.OpenIBD(fixtures.Read(t, status)); err != nil || got != nil {
		t.Errorf("%s: %+v, %v", status, got, err)
	}
}
