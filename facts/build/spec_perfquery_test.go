package build_test

import (
	"testing"
	"testing/fstest"

	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/facts/build"
	"github.com/rdmadoctor/rdmadoctor/fixtures"
)

// A perfquery of a remote LID (perfquery -x 10 1, infiniband-diags issue 16) is never taken as
// the counters of the CA it was sent from; perfquery -C <ca> -P <port> without a target is.
func TestPerfQueryLocalOrRemote(t *testing.T) {
	remote := fixtures.Read(t, "perfquery/rhel75-extended.txt")
	for _, tc := range []struct {
		name        string
		local       *bool
		deviceCount bool
	}{
		{"sos_commands/infiniband/perfquery_-C_mlx5_0_-P_1_-x_10_1", ptrBool(false), false},
		{"sos_commands/infiniband/perfquery_-C_mlx5_0_-P_1", ptrBool(true), true},
		{"perfquery.txt", nil, false},
	} {
		s, err := build.Snapshot(fstest.MapFS{tc.name: {Data: remote}}, facts.SourceInfo{})
		if err != nil {
			t.Fatal(err)
		}
		if len(s.Fabric.PerfCounters) != 1 {
			t.Fatalf("%s: %d perf counter records", tc.name, len(s.Fabric.PerfCounters))
		}
		pc := s.Fabric.PerfCounters[0]
		if (pc.Local == nil) != (tc.local == nil) || pc.Local != nil && *pc.Local != *tc.local {
			t.Errorf("%s: local = %v, want %v", tc.name, pc.Local, tc.local)
		}
		got := len(s.Devices) == 1 && len(s.Devices[0].Ports) == 1 && s.Devices[0].Ports[0].Counters != nil
		if got != tc.deviceCount {
			t.Errorf("%s: counters on the device port = %v, want %v", tc.name, got, tc.deviceCount)
		}
	}
}

func ptrBool(b bool) *bool { return &b }
