package parse_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/facts/parse"
	"github.com/rdmadoctor/rdmadoctor/fixtures"
)

func TestOpenSMConf(t *testing.T) {
	const f = "opensm/conf-virt-enabled.txt"
	cfg, ev, err := parse.OpenSMConf(fixtures.Read(t, f))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(map[string]string{"virt_enabled": "2"}, cfg); diff != "" {
		t.Errorf("%s (-want +got):\n%s", f, diff)
	}
	if diff := cmp.Diff(facts.EvidenceMap{"config.virt_enabled": fixtureEv(t, f, 1)}, ev); diff != "" {
		t.Errorf("%s evidence (-want +got):\n%s", f, diff)
	}
}

func TestOpenSMLog(t *testing.T) {
	const (
		bind   = "opensm/log-bind-failed.txt"
		port   = "opensm/log-sm-port-unknown.txt"
		stdout = "opensm/stdout-bind-error.txt"
		lsb    = "systemctl/opensm-lsb-active-standby.txt"
	)
	k := func(f string, n int, kind string) facts.OpenSMEvent {
		return facts.OpenSMEvent{Kind: kind, Evidence: fixtureEv(t, f, n)}
	}
	for _, tc := range []struct {
		fixture string
		want    []facts.OpenSMEvent
	}{
		// Case 112: a second opensm on a port the first already holds.
		{bind, []facts.OpenSMEvent{
			k(bind, 1, "bind_failed"), k(bind, 3, "bind_failed"), k(bind, 5, "error"), k(bind, 6, "error"),
			k(bind, 7, "error"), k(bind, 8, "exiting"),
		}},
		// Case 112: opensm -g with a GUID that is not a local port.
		{port, []facts.OpenSMEvent{
			k(port, 1, "error"), k(port, 2, "sm_port_down"), k(port, 3, "error"), k(port, 4, "sm_port_down"),
			k(port, 5, "error"), k(port, 6, "error"),
		}},
		// Case 056: opensm run in the foreground on a host whose port has IsSMDisabled.
		{stdout, []facts.OpenSMEvent{k(stdout, 12, "bind_failed"), k(stdout, 14, "exiting")}},
		// Case 101: the journal lines of `systemctl status opensm`: one instance exits, the other is standby.
		{lsb, []facts.OpenSMEvent{k(lsb, 18, "exiting"), k(lsb, 19, "standby")}},
	} {
		got, err := parse.OpenSMLog(fixtures.Read(t, tc.fixture))
		if err != nil {
			t.Fatalf("%s: %v", tc.fixture, err)
		}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tc.fixture, diff)
		}
	}
}
