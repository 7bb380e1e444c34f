# METADATA
# title: mstconfig cannot manage the adapter's firmware configuration
# description: >-
#   The firmware configuration tool could not query the adapter ("-E- Unsupported device", "Failed
#   to query device current configuration", "Failed to open the device"), or the adapter has no
#   LINK_TYPE_P* setting although the site wants InfiniBand on it (an Ethernet-only SKU). Port
#   protocol, SR-IOV and other NV settings then cannot be changed with this tool: mstflint 4.26 and
#   later dropped ConnectX-3, locked OEM boards need the vendor's tool, and an EN-only card cannot
#   run InfiniBand at all.
# scope: package
# related_resources:
#   - ref: https://github.com/Mellanox/mstflint/issues/590
#   - ref: https://github.com/k8snetworkplumbingwg/sriov-network-operator/issues/317
#   - ref: https://docs.nvidia.com/networking/display/mftv4341lts/using-mlxconfig
#   - ref: https://docs.nvidia.com/networking/display/Ubuntu2204/Port+Type+Management
# custom:
#   id: mstconfig-cannot-manage-device
#   area: firmware
#   severity: info
#   confidence: high
#   requires: [nvconfig]
#   explains: []
#   needs_reboot: false
#   fix:
#     - command: echo ib > /sys/bus/pci/devices/{{pci}}/mlx4_port1
#       note: ConnectX-3 with the inbox mlx4 driver - switch the port type at run time (persist in /etc/rdma/mlx4.conf)
#       when: {vendor: Mellanox}
#     - command: mstconfig -d {{pci}} query
#       note: with mstflint 4.25 or older, or MFT 4.22 LTS (mlxconfig), for ConnectX-3; run as root on the host, not in a container or VF
#       when: {vendor: Mellanox}
#     - command: "# replace with a VPI part (e.g. MCX653105A-HDAT for HDR)"
#       note: only when the card is Ethernet-only and InfiniBand is required
package rdmadoctor.rules.mstconfig_cannot_manage_device

import data.rdmadoctor.lib.capture
import data.rdmadoctor.lib.finding
import data.rdmadoctor.lib.hca
import data.rdmadoctor.lib.intent
import data.rdmadoctor.lib.join

# The tool refused to query the device.
findings contains f if {
	some q in input.nvconfig
	r := object.get(q, "refusal", "")
	r != ""
	f := finding.pci(join.nv_pci(q), device_name(q), sprintf("%s cannot query %s%s: %q%s", [tool(q), q.device, type_note(q), r, hint(q)]), finding.evidence(q, ["refusal", "device_type"]))
}

# The site wants InfiniBand but the query lists no port protocol setting: an Ethernet-only card.
# A filtered query (`mlxconfig -d X q | grep SRIOV`) that would not have shown LINK_TYPE_P1 says nothing.
findings contains f if {
	some q in input.nvconfig
	object.get(q, "refusal", "") == ""
	count(object.get(q, "params", {})) > 0
	capture.shows(q, "LINK_TYPE_P1")
	not has_link_type(q)
	addr := join.nv_pci(q)
	addr != ""
	intent.fabric_of_pci(addr, 1) == "ib"
	f := finding.with_fields(
		finding.pci(addr, device_name(q), sprintf("%s lists no LINK_TYPE_P1 for %s%s although the site profile wants InfiniBand: the card is Ethernet-only and cannot run IB", [tool(q), q.device, type_note(q)]), finding.evidence(q, ["device_type", "description"])),
		{"confidence": "medium"},
	)
}

has_link_type(q) if {
	some k in object.keys(q.params)
	startswith(k, "LINK_TYPE_P")
}

tool(q) := q.tool if object.get(q, "tool", "") != ""

else := "mstconfig"

type_note(q) := sprintf(" (%s)", [q.device_type]) if object.get(q, "device_type", "") != ""

else := ""

device_name(q) := d.name if d := join.nv_device(q)

else := ""

# ConnectX-3 / -3 Pro: support removed from mstflint 4.26 (Mellanox/mstflint#590).
hint(q) := "; ConnectX-3 is not supported by mstflint 4.26 and later - use mstflint <= 4.25 / MFT 4.22 LTS, or the mlx4 sysfs port type" if {
	cx3(q)
} else := ""

cx3(q) if hca.type_of_firmware({"device_type": object.get(q, "device_type", ""), "device": q.device}) in {"MT4099", "MT4103"}
