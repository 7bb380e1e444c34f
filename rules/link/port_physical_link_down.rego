# METADATA
# title: Port has no physical link
# description: >-
#   The port's physical state is Polling (no signal from a peer: cable, module, peer port disabled,
#   or a protocol/speed mismatch), Disabled (disabled locally: netdev admin-down, ibportstate,
#   mlxlink) or Sleep, so nothing can pass. A spare port of a node that runs on its other ports is
#   most likely uncabled on purpose and is reported as info only. mlxlink (State not Active, its
#   Status Opcode and Recommendation say why: rules/data/mlxlink_status.yaml) and ibportstate
#   (PhysLinkState) show the same where no port state of the device is in the snapshot.
# scope: package
# related_resources:
#   - ref: https://github.com/linux-rdma/rdma-core/pull/847
#   - ref: https://www.kernel.org/doc/Documentation/ABI/stable/sysfs-class-infiniband
# custom:
#   id: port-physical-link-down
#   area: link
#   severity: critical
#   confidence: high
#   requires:
#     - facts: [ib_ports]
#     - facts: [mlxlink]
#     - facts: [port_info]
#     - facts: [ethtool]
#       confidence: medium
#   explains: [ib-port-no-subnet-manager, sriov-vf-ib-port-not-active, ipoib-mode-mtu-suboptimal, ipoib-ipv6-enabled, perftest-completion-error, perftest-port-not-active]
#   needs_reboot: false
#   fix:
#     - command: mlxlink -d {{mlxlink_device}} -p {{port}} -m
#       note: module and cable present and recognised? (mstlink where mstflint is installed instead of MFT)
#       when: {vendor: Mellanox}
#     - command: ethtool -m {{netdev}}
#       note: Ethernet - module and cable present and recognised (any driver)
#       when: {link_layer: Ethernet}
#     - command: ip link set dev {{netdev}} up
#       note: Disabled because the netdev is administratively down (RoCE)
#       when: {link_layer: Ethernet, physical_state: Disabled}
#     - command: mlxlink -d {{mlxlink_device}} -p {{port}} -a UP
#       note: re-enable a port disabled locally (or ibportstate ... enable)
#       when: {physical_state: Disabled, vendor: Mellanox}
#     - command: ibstat {{device}} {{port}}
#       note: Polling means no signal from the peer - reseat or replace the cable, check that the peer port is enabled and runs the same protocol and speed
#       when: {physical_state: [Polling, Sleep, PortConfigurationTraining]}
package rdmadoctor.rules.port_physical_link_down

import data.rdmadoctor.lib.finding
import data.rdmadoctor.lib.hca
import data.rdmadoctor.lib.intent
import data.rdmadoctor.lib.join
import data.rdmadoctor.lib.mlxlink
import data.rdmadoctor.lib.port

# A port of an RDMA device without physical link.
findings contains f if {
	some dev in input.devices
	not hca.is_vf(dev)
	some p in dev.ports
	down(p)
	not intent.unused(dev, p)
	base := finding.port(
		dev, p,
		sprintf("%s port %d%s is %s / %s: %s%s", [dev.name, p.number, capture(dev), object.get(p, "state", "Down"), p.physical_state, meaning(p), mlxlink_note(dev, p)]),
		array.concat(finding.evidence(p, ["state", "physical_state"]), mlxlink_evidence(dev, p)),
	)
	f := finding.with_fields(base, object.union(grade(dev, p), mlxlink.device_vars(dev)))
}

# mlxlink: the link is not Active, for the reason its troubleshooting info gives, on a port whose
# state no other input gives.
findings contains f if {
	some ml in input.mlxlink
	ml.port_type != "PCIE"
	object.get(ml, "state", "") != ""
	ml.state != "Active"
	not port_state_of(ml)
	f := mlxlink.finding_for(
		ml,
		sprintf("mlxlink on %s: State %s, Physical state %s%s", [ml.device, ml.state, object.get(ml, "physical_state", "?"), reason(ml)]),
		array.concat(finding.evidence(ml, ["state", "physical_state"]), cause_evidence(ml)),
	)
}

# ibportstate: the queried port's PortInfo (its latest block) says Polling, Disabled or Sleep, and
# no port state of that port (by its LID) is in the snapshot.
findings contains f if {
	some pi in input.port_info
	pi.latest
	not pi.peer
	pi.phys_link_state in {"Polling", "Disabled", "Sleep"}
	not lid_port_known(pi)
	f := {
		"subject": finding.compact({"device": object.get(pi, "device", "")}),
		"message": sprintf("ibportstate: the port of LID %v (port %v) is %s / %s: %s", [pi.lid, pi.port_number, pi.link_state, pi.phys_link_state, meaning({"physical_state": pi.phys_link_state})]),
		"evidence": finding.evidence(pi, ["lid", "link_state", "phys_link_state"]),
	}
}

# port_state_of holds when the mlxlink report's port has a physical state from another input.
port_state_of(ml) if {
	d := mlxlink.device(ml)
	some p in d.ports
	p.number == mlxlink.port(ml)
	object.get(p, "physical_state", "") != ""
}

lid_port_known(pi) if {
	some d in input.devices
	some p in d.ports
	p.lid == pi.lid
	object.get(p, "physical_state", "") != ""
}

reason(ml) := sprintf(" - %s (%s)", [mlxlink.describe(ml), mlxlink.cause(ml).meaning]) if {
	mlxlink.names(ml, "port-physical-link-down")
} else := sprintf(" - %s", [mlxlink.describe(ml)]) if {
	is_number(ml.status_opcode)
	ml.status_opcode != 0
} else := ""

cause_evidence(ml) := finding.evidence(ml, ["status_opcode", "recommendation"]) if {
	is_number(ml.status_opcode)
	ml.status_opcode != 0
} else := []

# mlxlink reports about this port that give the reason it is down.
port_mlxlinks(dev, p) := [ml |
	some ml in input.mlxlink
	mlxlink.device(ml).name == dev.name
	mlxlink.port(ml) == p.number
	mlxlink.names(ml, "port-physical-link-down")
]

mlxlink_note(dev, p) := sprintf("; mlxlink: %s", [mlxlink.describe(ms[0])]) if {
	ms := port_mlxlinks(dev, p)
	count(ms) > 0
} else := ""

mlxlink_evidence(dev, p) := [e |
	some ml in port_mlxlinks(dev, p)
	some e in finding.evidence(ml, ["status_opcode", "recommendation"])
]

# An IPoIB netdev whose ethtool says no link, when no RDMA port state is in the snapshot for it.
findings contains f if {
	some nd in input.netdevs
	ipoib(nd)
	nd.link_detected == false
	not port_state_known(nd)
	base := finding.netdev(
		nd,
		sprintf("%s (IPoIB) reports no link (ethtool: Link detected: no); its InfiniBand port is not Active - check ibstat for Polling (cable/peer) or Initializing (no SM)", [nd.name]),
		finding.evidence(nd, ["link_detected", "speed_mbps"]),
	)
	f := finding.with_fields(base, {"confidence": "medium"})
}

down(p) if port.link_down(p)

# A snapshot cannot tell a link stuck in training from one that is about to come up.
down(p) if p.physical_state == "PortConfigurationTraining"

capture(dev) := sprintf(" (%s)", [dev.capture]) if {
	object.get(dev, "capture", "") != ""
} else := ""

meaning(p) := "disabled locally (admin down, ibportstate or mlxlink), not a cable fault" if {
	p.physical_state == "Disabled"
} else := "no signal from the peer (cable, module, disabled peer port, or a protocol or speed mismatch)" if {
	p.physical_state == "Polling"
} else := "the link is still training - if it stays there, suspect the cable or the peer port" if {
	p.physical_state == "PortConfigurationTraining"
} else := "the port is asleep"

grade(dev, p) := {"severity": "info", "scope": "unused_port"} if {
	not port.in_use(dev, p)
	port.other_port_active(dev, p)
} else := {"confidence": "medium"} if {
	p.physical_state == "PortConfigurationTraining"
} else := {} if {
	port.in_use(dev, p)
} else := {"confidence": "medium"}

ipoib(nd) if nd.kind == "ipoib"

ipoib(nd) if {
	object.get(nd, "kind", "") == ""
	regex.match(`^ib[a-z0-9]`, nd.name)
}

port_state_known(nd) if {
	some dev in input.devices
	some p in dev.ports
	join.netdev_name(dev, p) == nd.name
	p.physical_state != ""
}
