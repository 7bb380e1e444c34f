package parse_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/rdmadoctor/rdmadoctor/facts/parse"
	"github.com/rdmadoctor/rdmadoctor/fixtures"
)

func TestIBDev2NetdevVerbose(t *testing.T) {
	got, err := parse.IBDev2Netdev(fixtures.Read(t, "ibdev2netdev/verbose-sriov-vfs.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 6 {
		t.Fatalf("got %d records, want 6", len(got))
	}
	want := []parse.IBDevNetdev{
		{Device: "mlx5_1", Port: 1, Netdev: "ib1", NetdevState: "Down", PCIAddress: "0000:02:00.1", CAType: "MT4115", Firmware: "12.23.1020", PortState: "Active",
			Evidence: ibEv(2, "0000:02:00.1 mlx5_1 (MT4115 - MT1523X04353) CX456A - ConnectX-4 QSFP fw 12.23.1020 port 1 (ACTIVE) ==> ib1 (Down)")},
		{Device: "mlx5_2", Port: 1, Netdev: "ib2", NetdevState: "Down", PCIAddress: "0000:02:00.5", CAType: "MT4116", Firmware: "12.23.1020", PortState: "Down",
			Evidence: ibEv(3, "0000:02:00.5 mlx5_2 (MT4116 - NA)  fw 12.23.1020 port 1 (DOWN  ) ==> ib2 (Down)")},
	}
	if diff := cmp.Diff(want, got[1:3]); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestIBDev2NetdevPlain(t *testing.T) {
	for _, tc := range []struct {
		fixture string
		n       int
		first   parse.IBDevNetdev
	}{
		{"ibdev2netdev/dgx-a100-vfs.txt", 16, parse.IBDevNetdev{Device: "mlx5_19", Port: 1, Netdev: "ibp75s0v7", NetdevState: "Down", Evidence: ibEv(1, "mlx5_19 port 1 ==> ibp75s0v7 (Down)")}},
		// `| column -t` with the poster's comments after the state.
		{"ibdev2netdev/column-t-comments.txt", 12, parse.IBDevNetdev{Device: "mlx5_0", Port: 1, Netdev: "ibp26s0", NetdevState: "Down", Evidence: ibEv(1, "mlx5_0   port  1  ==>  ibp26s0        (Down)  # CX-7 1/8 infiniband")}},
	} {
		got, err := parse.IBDev2Netdev(fixtures.Read(t, tc.fixture))
		if err != nil {
			t.Fatalf("%s: %v", tc.fixture, err)
		}
		if len(got) != tc.n {
			t.Fatalf("%s: %d records, want %d", tc.fixture, len(got), tc.n)
		}
		if diff := cmp.Diff(tc.first, got[0]); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tc.fixture, diff)
		}
	}
}

func FuzzIBDev2Netdev(f *testing.F) {
	ibSeed(f, "ibdev2netdev")
	f.Fuzz(func(t *testing.T, b []byte) {
		parse.IBDev2Netdev(b) //nolint:errcheck // only panics matter here
	})
}
