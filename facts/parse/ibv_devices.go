package parse

import (
	"strings"
	"unicode/utf8"

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
// An empty table (no RDMA devices) parses to no devices and no error. A row that is not a
// device name and 16 hex digits (a GUID cut short or damaged, a row cut mid-line, a byte that
// is not UTF-8) is a problem of the partial read, and so is a file that ends without its
// final newline (cut, maybe right after a row, before the rows that followed); the other rows are kept.
func IBVDevices(b []byte) (IBVDevicesOutput, error) {
	var out IBVDevicesOutput
	var probs problems
	lines := Lines(b)
	table := false // after the "------" ruler
	for _, l := range lines {
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
		if len(f) == 0 || f[0] == "device" {
			continue
		}
		if strings.HasPrefix(f[0], "---") {
			table = true
			continue
		}
		g, ok := GUID(f[len(f)-1])
		if len(f) != 2 || !ok || len(f[1]) != 16 {
			cutHere := l.N == len(lines) && len(b) > 0 && b[len(b)-1] != '\n'  // cut() names that one
			if table && !cutHere && !strings.ContainsRune(t, utf8.RuneError) { // and replaced() that one
				probs.add(l, "not a device name and a 16-digit node GUID: the row was damaged")
			}
			continue
		}
		d := facts.Device{Name: f[0], NodeGUID: g}
		d.Evidence.Set("name", l.Evidence())
		d.Evidence.Set("node_guid", l.Evidence())
		out.Devices = append(out.Devices, d)
	}
	probs.replaced(lines)
	probs.cut(b, lines, true) // device_list.c ends every line it prints with a newline
	return out, probs.err()
}
