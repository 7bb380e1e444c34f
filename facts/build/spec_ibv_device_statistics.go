package build

import (
	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/facts/parse"
)

var ibvDeviceStatisticsSniffRe = mustSniff(`(?m)^(Statistics after \d+ seconds|Press Ctrl-C to stop the Infiniband port statistics collection)\r?$`)

func init() {
	register(Spec{
		Name:        "ibv_device_statistics",
		Plugin:      "infiniband",
		Commands:    []string{"ibv_display_local_infiniband_device_statistics"},
		Sniff:       func(h []byte) bool { return ibvDeviceStatisticsSniffRe.Match(h) },
		Apply:       applyIBVDeviceStatistics,
		MissingHint: "optional: counter monitor from github.com/Chester-Gillon/ibv_message_passing; rdmadoctor gather --sample reads the same sysfs counters",
		Groups:      []string{"port_counters", "hw_counters", "counter_deltas"},
		NotLive:     "a third-party monitor that runs until stopped; `gather --sample` reads the same counters twice",
	})
}

// applyIBVDeviceStatistics merges the counters of the tool's last table. Its deltas cover the
// tool's 10 s read period, so the snapshot gets that as its sample interval unless a
// `gather --sample` read already set one.
func applyIBVDeviceStatistics(s *facts.Snapshot, in Input) error {
	out, err := parse.IBVDeviceStatistics(in.Data)
	if err != nil {
		return err
	}
	addDevices(s, in, out.Devices)
	if len(out.Devices) > 0 && s.Sample == nil {
		s.Sample = &facts.CounterSample{IntervalSeconds: out.IntervalSeconds}
	}
	if out.Refusal != "" {
		return Refused(out.Refusal)
	}
	return nil
}
