package parse_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/facts/parse"
	"github.com/rdmadoctor/rdmadoctor/fixtures"
)

// noDeviceEvidence compares devices without their evidence maps; evidence is checked on its own.
var noDeviceEvidence = cmp.Options{
	cmpopts.IgnoreFields(facts.Device{}, "Evidence"),
	cmpopts.IgnoreFields(facts.Port{}, "Evidence"),
}

func TestIBVDeviceStatistics(t *testing.T) {
	for _, tc := range []struct {
		fixture string
		want    parse.DeviceStatistics
	}{
		{"ibv_device_statistics/cx2-roce-node01-transmitter.txt", parse.DeviceStatistics{
			ElapsedSeconds: 50, IntervalSeconds: 10,
			Devices: []facts.Device{{
				Name:            "mlx4_0",
				HWCounters:      map[string]int64{"rq_num_wrfe": 768, "sq_num_oos": 7638, "sq_num_wrfe": 128, "sq_num_tree": 4},
				HWCounterDeltas: map[string]int64{"rq_num_wrfe": 0, "sq_num_oos": 103, "sq_num_wrfe": 0, "sq_num_tree": 0},
				Ports: []facts.Port{{
					Number:        2,
					Counters:      map[string]int64{"port_xmit_data": 102664172181, "port_rcv_packets": 1510187, "port_rcv_data": 30961082, "port_xmit_packets": 99216880},
					CounterDeltas: map[string]int64{"port_xmit_data": 19181468, "port_rcv_packets": 3747, "port_rcv_data": 73070, "port_xmit_packets": 18401},
				}},
			}},
		}},
		{"ibv_device_statistics/cx2-ib-loopback-corrupt-packet.txt", parse.DeviceStatistics{
			// the last of three tables: the oos counters no longer moved
			ElapsedSeconds: 100, IntervalSeconds: 10,
			Devices: []facts.Device{{
				Name:            "mlx4_0",
				HWCounters:      map[string]int64{"rq_num_oos": 1, "sq_num_oos": 1},
				HWCounterDeltas: map[string]int64{"rq_num_oos": 0, "sq_num_oos": 0},
				Ports: []facts.Port{{
					Number:        1,
					Counters:      map[string]int64{"port_xmit_data": 24939810988, "port_xmit_wait": 5284158, "port_rcv_packets": 24348756, "port_rcv_data": 24980875126, "port_xmit_packets": 24308312},
					CounterDeltas: map[string]int64{"port_xmit_data": 4205842292, "port_xmit_wait": 243164, "port_rcv_packets": 4099204, "port_rcv_data": 4205843417, "port_xmit_packets": 4099196},
				}, {
					Number:        2,
					Counters:      map[string]int64{"port_xmit_data": 24981094516, "port_xmit_wait": 5664328, "port_rcv_remote_physical_errors": 1, "port_rcv_packets": 24308559, "port_rcv_data": 24940535099, "port_xmit_packets": 24349432},
					CounterDeltas: map[string]int64{"port_xmit_data": 4205842292, "port_xmit_wait": 20835, "port_rcv_remote_physical_errors": 0, "port_rcv_packets": 4099187, "port_rcv_data": 4205823989, "port_xmit_packets": 4099191},
				}},
			}},
		}},
	} {
		got, err := parse.IBVDeviceStatistics(fixtures.Read(t, tc.fixture))
		if err != nil {
			t.Fatalf("%s: %v", tc.fixture, err)
		}
		if diff := cmp.Diff(tc.want, got, noDeviceEvidence); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tc.fixture, diff)
		}
	}
}

func TestIBVDeviceStatisticsEvidence(t *testing.T) {
	got, err := parse.IBVDeviceStatistics(fixtures.Read(t, "ibv_device_statistics/cx2-roce-node03-receiver.txt"))
	if err != nil {
		t.Fatal(err)
	}
	d := got.Devices[0]
	want := ev(3, "rq_num_oos                       mlx4_0        2235(+583)")
	if diff := cmp.Diff(want, d.Evidence["hw_counter_deltas.rq_num_oos"]); diff != "" {
		t.Errorf("device evidence (-want +got):\n%s", diff)
	}
	want = ev(11, "port_xmit_packets                mlx4_0     2  1184712(+16764)")
	if diff := cmp.Diff(want, d.Ports[1].Evidence["counter_deltas.port_xmit_packets"]); diff != "" {
		t.Errorf("port evidence (-want +got):\n%s", diff)
	}
}

func TestIBVDeviceStatisticsStates(t *testing.T) {
	got, err := parse.IBVDeviceStatistics([]byte("No Infiniband devices found\n"))
	if err != nil || got.Refusal != "No Infiniband devices found" || len(got.Devices) != 0 {
		t.Errorf("refusal: got %+v, %v", got, err)
	}
	_, err = parse.IBVDeviceStatistics([]byte("Statistics after 10 seconds\nCounter name  Device  Port  Counter value(delta)\nsq_num_oos mlx4_0 lots\n"))
	if want := `line 3: "sq_num_oos mlx4_0 lots": value "lots" is not a count`; err == nil || err.Error() != want {
		t.Errorf("bad value: got %v, want %s", err, want)
	}
}
