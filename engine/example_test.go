package engine_test

import (
	"context"
	"fmt"
	"os"

	"github.com/rdmadoctor/rdmadoctor/engine"
	"github.com/rdmadoctor/rdmadoctor/facts"
)

func ExampleEngine_Diagnose() {
	ctx := context.Background()
	// Real use loads engine.Builtin() and the --rules folders; these are the test rules.
	e, err := engine.New(ctx, engine.Options{}, engine.Source{Name: "testdata/rules", FS: os.DirFS("testdata/rules")})
	if err != nil {
		fmt.Println(err)
		return
	}
	one := 1
	sources := []facts.Source{{Name: "ibstat", Origin: "ibstat", Status: facts.StatusOK}}
	snap := &facts.Snapshot{
		Devices: []facts.Device{{Name: "mlx5_0", Ports: []facts.Port{{
			Number: 1, State: "Down", PhysicalState: "Polling", LinkLayer: "InfiniBand", SMLID: new(int),
			Evidence: facts.EvidenceMap{
				"state":          {Source: "ibstat", Path: "ibstat", Line: 8, Text: "State: Down"},
				"physical_state": {Source: "ibstat", Path: "ibstat", Line: 9, Text: "Physical state: Polling"},
				"sm_lid":         {Source: "ibstat", Path: "ibstat", Line: 12, Text: "SM lid: 0"},
			},
		}}}},
		Netdevs:   []facts.Netdev{{Name: "ib0", Kind: "ipoib", RDMADevice: "mlx5_0", RDMAPort: &one}},
		Sources:   sources,
		Available: facts.Available(sources),
	}
	r, err := e.Diagnose(ctx, snap)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, d := range r.Diagnoses {
		fmt.Printf("%d %s %s %s: %s\n", d.Rank, d.Severity, d.ID, d.Subject, d.Message)
		for _, ev := range d.Evidence {
			fmt.Printf("    %s:%d: %s\n", ev.Path, ev.Line, ev.Text)
		}
		if d.ExplainedBy != nil {
			fmt.Printf("    consequence of #%d %s\n", d.ExplainedByRank, *d.ExplainedBy)
		}
		fmt.Printf("    fix: %s\n", d.Fix[0].Command)
	}
	for _, s := range r.Skipped {
		fmt.Printf("skipped %s: %s\n", s.ID, s.Reason)
	}
	// Output:
	// 1 critical link-down mlx5_0/1: mlx5_0 port 1 is Polling
	//     ibstat:9: Physical state: Polling
	//     fix: ibstat mlx5_0 1
	// 2 critical no-sm mlx5_0/1: mlx5_0 port 1 is Down with SM lid 0
	//     ibstat:8: State: Down
	//     ibstat:12: SM lid: 0
	//     consequence of #1 link-down
	//     fix: sminfo -C mlx5_0 -P 1
	// skipped ipoib-down: network interfaces not in snapshot: run `ip -s -d link` (iproute2), or copy /sys/class/net
	// skipped memlock-low: locked-memory limit not in snapshot: copy /etc/security/limits.conf, or run `ulimit -a` in the context the RDMA jobs run in (batch job, container, service), or save the output of the failing job (mpirun/srun/NCCL/UCX program), including stderr
	// skipped nv-link-type: mstconfig output not in snapshot: run `mstconfig -d <pci> -e q` (mstflint) or `mlxconfig -d <pci> -e q` (NVIDIA MFT)
	// skipped pcie-slow: lspci output not in snapshot: run `lspci -nnvv` as root (pciutils)
}
