package parse_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/facts/parse"
	"github.com/rdmadoctor/rdmadoctor/fixtures"
)

func TestLsmod(t *testing.T) {
	const (
		pve   = "lsmod/pve-grep-mlx-no-mlx5.txt"
		ipoib = "lsmod/rhel8-grep-ipoib.txt"
		full  = "lsmod/hotsos-openstack-full.txt"
	)
	e := func(f string, n int) facts.Evidence { return fixtureEv(t, f, n) }
	for _, tc := range []struct {
		fixture string
		want    []facts.KernelModule
	}{
		// Case 111: MLNX_OFED's helper modules are loaded, mlx5_core is not.
		{pve, []facts.KernelModule{
			{Name: "mlxdevm", SizeB: 184320, Evidence: e(pve, 1)},
			{Name: "mlxfw", SizeB: 36864, Evidence: e(pve, 2)},
			{Name: "mlx_compat", SizeB: 20480, UsedBy: []string{"ib_ipoib", "mlxdevm", "ib_umad", "ib_core", "ib_uverbs", "ib_cm"}, Evidence: e(pve, 3)},
		}},
		{ipoib, []facts.KernelModule{
			{Name: "ib_ipoib", SizeB: 147456, Evidence: e(ipoib, 1)},
			{Name: "ib_cm", SizeB: 118784, UsedBy: []string{"rdma_cm", "ib_ipoib", "ib_srpt"}, Evidence: e(ipoib, 2)},
			{Name: "ib_core", SizeB: 405504, UsedBy: []string{"rdma_cm", "ib_ipoib", "rpcrdma", "ib_srpt", "iw_cm", "bnxt_re", "ib_iser",
				"ib_umad", "ib_isert", "rdma_ucm", "ib_uverbs", "mlx5_ib", "ib_cm"}, Evidence: e(ipoib, 3)},
		}},
	} {
		got, err := parse.Lsmod(fixtures.Read(t, tc.fixture))
		if err != nil {
			t.Fatalf("%s: %v", tc.fixture, err)
		}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tc.fixture, diff)
		}
	}
	got, err := parse.Lsmod(fixtures.Read(t, full))
	if err != nil {
		t.Fatal(err)
	}
	// A full lsmod with its header: 119 modules; a long name pushes the size column right.
	want := facts.KernelModule{Name: "vmw_vsock_virtio_transport_common", SizeB: 32768, UsedBy: []string{"vhost_vsock"}, Evidence: e(full, 42)}
	if len(got) != 119 || !cmp.Equal(got[40], want) || got[0].Name != "vhost_net" {
		t.Errorf("%s: %d modules, [40] = %+v", full, len(got), got[40])
	}
}

func TestLsmodRefusal(t *testing.T) {
	if got, want := parse.LsmodRefusal(fixtures.Read(t, "lsmod/no-proc-modules-build-vm.txt")), "Error: could not get list of modules: No such file or directory"; got != want {
		t.Errorf("refusal %q, want %q", got, want)
	}
	if got := parse.LsmodRefusal(fixtures.Read(t, "lsmod/pve-grep-mlx-no-mlx5.txt")); got != "" {
		t.Errorf("a module list read as a refusal: %q", got)
	}
}
