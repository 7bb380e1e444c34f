package parse

import (
	"strings"

	"github.com/rdmadoctor/rdmadoctor/facts"
)

// IBVDevicesOutput is what `ibv_devices` printed.
type IBVDevicesOutput struct {
	// Devices carry Name and NodeGUID only; an all-zero GUID (a VF without an assigned GUID)
	// comes through as "0x0000000000000000".
	Devices []facts.Device
	// Refusal is set when the device list could not be read ("Failed to get IB devices list").
	Refusal *facts.ToolRefusal
	// Messages are libibverbs warnings printed before the table.
	Messages []facts.ToolRefusal
}

// IBVDevices parses the output of `ibv_devices` (rdma-core libibverbs/examples/device_list.c):
//
//	device                 node GUID
//	------              ----------------
//	mlx5_0              248a0703004bf0a8
//	mlx5_1              0000000000000000
//
// An empty table (no RDMA devices) parses to no devices and no error.
func IBVDevices(b []byte) (IBVDevicesOutput, error) {
	var out IBVDevicesOutput
	for _, l := range Lines(b) {
		t := strings.TrimSpace(l.Text)
		if strings.HasPrefix(t, "libibverbs:") {
			out.Messages = append(out.Messages, facts.ToolRefusal{Tool: "ibv_devices", Message: t, Evidence: l.Evidence()})
			continue
		}
		if r := ibRefusal(l); r != nil {
			if out.Refusal == nil {
				r.Tool = "ibv_devices"
				out.Refusal = r
			}
			continue
		}
		f := strings.Fields(t)
		if len(f) != 2 || f[0] == "device" || strings.HasPrefix(f[0], "---") {
			continue
		}
		g, ok := GUID(f[1])
		if !ok || len(f[1]) != 16 {
			continue
		}
		d := facts.Device{Name: f[0], NodeGUID: g}
		d.Evidence.Set("name", l.Evidence())
		d.Evidence.Set("node_guid", l.Evidence())
		out.Devices = append(out.Devices, d)
	}
	return out, nil
}
