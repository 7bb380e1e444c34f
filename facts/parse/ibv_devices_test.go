package parse_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/facts/parse"
	"github.com/rdmadoctor/rdmadoctor/fixtures"
)

func TestIBVDevicesZeroGUIDs(t *testing.T) {
	got, err := parse.IBVDevices(fixtures.Read(t, "ibv_devices/vfs-zero-guid.txt"))
	if err != nil {
		t.Fatal(err)
	}
	dev := func(line int, name, text, guid string) facts.Device {
		return facts.Device{Name: name, NodeGUID: guid, Evidence: facts.EvidenceMap{"name": ibEv(line, text), "node_guid": ibEv(line, text)}}
	}
	want := parse.IBVDevicesOutput{Devices: []facts.Device{
		dev(3, "mlx5_2", "mlx5_2 0000000000000000", "0x0000000000000000"),
		dev(4, "mlx5_0", "mlx5_0 506b4b0300285028", "0x506b4b0300285028"),
		dev(5, "mlx5_3", "mlx5_3 0000000000000000", "0x0000000000000000"),
		dev(6, "mlx5_1", "mlx5_1 506b4b0300285034", "0x506b4b0300285034"),
	}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestIBVDevicesIndentedAndEmpty(t *testing.T) {
	got, err := parse.IBVDevices(fixtures.Read(t, "ibv_devices/indented-truncated.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Devices) != 1 || got.Devices[0].Name != "mlx5_0" || got.Devices[0].NodeGUID != "0x98039b03003b0346" {
		t.Errorf("got %+v", got.Devices)
	}
	// SoftRoCE without its provider: empty table, two libibverbs warnings, no refusal.
	got, err = parse.IBVDevices(fixtures.Read(t, "ibv_devices/rxe-no-driver-empty.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Devices) != 0 || got.Refusal != nil || len(got.Messages) != 2 {
		t.Errorf("got %d devices, refusal %v, %d messages; want 0, nil, 2", len(got.Devices), got.Refusal, len(got.Messages))
	}
}

func FuzzIBVDevices(f *testing.F) {
	ibSeed(f, "ibv_devices")
	f.Fuzz(func(t *testing.T, b []byte) {
		parse.IBVDevices(b) //nolint:errcheck // only panics matter here
	})
}
