# METADATA
# title: Port protocol does not match the fabric (InfiniBand vs Ethernet)
# description: >-
#   A VPI adapter port runs InfiniBand while it is cabled to an Ethernet switch (or the reverse), so
#   the link never comes up: the port stays Polling and no Ethernet interface appears. Second-hand
#   cards pulled from IB clusters often still carry LINK_TYPE IB. The protocol is a firmware (NV)
#   setting: change it with mstconfig and reboot or reset the firmware. With a site profile the
#   intended fabric is known; without one it is inferred from the evidence, with less certainty.
#   mlxlink's Status Opcode 40 ("VPI protocol do not match") is the firmware's own word for it;
#   which protocol is meant it does not say.
# scope: package
# related_resources:
#   - ref: https://docs.nvidia.com/networking/display/mftv4341lts/using-mlxconfig
#   - ref: https://docs.nvidia.com/networking/display/Ubuntu2204/Port+Type+Management
#   - ref: https://manpages.ubuntu.com/manpages/noble/en/man1/mstfwreset.1.html
# custom:
#   id: link-type-mismatch-with-fabric
#   area: link
#   severity: critical
#   confidence: high
#   requires: []
#   explains: [port-physical-link-down, ib-port-no-subnet-manager, ipoib-mode-mtu-suboptimal, ipoib-ipv6-enabled, module-speed-exceeds-port-capability, perftest-port-not-active]
#   needs_reboot: true
#   fix:
#     - command: mstconfig -d {{pci}} set {{param}}={{value}}
#       note: 1 = InfiniBand, 2 = Ethernet (MFT - mlxconfig -d <mst device> set ...); answer y to apply
#       when: {vendor: Mellanox}
#     - command: reboot
#       note: the NV setting takes effect after a reboot (or mstfwreset -d {{pci}} --level 3 -y reset where supported)
#     - command: mstconfig -d {{pci}} query
#       note: verify the LINK_TYPE_P{{port}} value afterwards
#       when: {vendor: Mellanox}
package rdmadoctor.rules.link_type_mismatch_with_fabric

import data.rdmadoctor.lib.finding
import data.rdmadoctor.lib.hca
import data.rdmadoctor.lib.intent
import data.rdmadoctor.lib.join
import data.rdmadoctor.lib.mlxlink
import data.rdmadoctor.lib.port

names := {"ib": "InfiniBand", "ethernet": "Ethernet"}

value_of := {"ib": "1", "ethernet": "2"}

# protocol of an mstconfig LINK_TYPE value: "IB(1)" -> ib, "ETH(2)" -> ethernet, "VPI(3)" -> vpi.
protocol(v) := "ib" if {
	regex.match(`^(?i)ib\b|^1$`, v)
} else := "ethernet" if {
	regex.match(`^(?i)eth\b|^2$`, v)
} else := "vpi" if {
	regex.match(`^(?i)vpi\b|^3$`, v)
}

link_param(n) := sprintf("LINK_TYPE_P%d", [n])

# configured returns the LINK_TYPE NV parameter of port p of dev; undefined without mstconfig.
configured(dev, p) := join.nvconfig(dev).params[link_param(p.number)]

# running returns the protocol a port runs now: its link layer, else the active NV value.
running(dev, p) := "ib" if {
	port.ib(p)
} else := "ethernet" if {
	port.eth(p)
} else := protocol(nv_value(configured(dev, p)))

# 1. The profile says which fabric the port is cabled to.
findings contains f if {
	some dev in input.devices
	not hca.is_vf(dev)
	object.get(dev, "capture", "") == ""
	some p in dev.ports
	want := intent.fabric(dev, p)
	have := running(dev, p)
	have in {"ib", "ethernet"}
	have != want
	base := finding.port(
		dev, p,
		sprintf("%s port %d runs %s but the site profile says it is cabled to an %s fabric%s%s", [dev.name, p.number, names[have], names[want], state_note(p), pending_note(dev, p, want)]),
		array.concat(config_evidence(dev, p), finding.evidence(p, ["link_layer", "state", "physical_state"])),
	)
	f := object.union(base, {
		"subject": subject(dev, p),
		"vars": {"param": link_param(p.number), "value": value_of[want]},
	})
}

# 1b. The same for an mstconfig query that no RDMA device is known for (driver not bound, no ibstat).
findings contains f if {
	some q in input.nvconfig
	not join.nv_device(q)
	some name, param in q.params
	n := port_number(name)
	have := protocol(nv_value(param))
	have in {"ib", "ethernet"}
	addr := join.nv_pci(q)
	want := intent.fabric_of_pci(addr, n)
	have != want
	f := {
		"subject": finding.compact({"pci": addr, "port": n}),
		"message": sprintf("%s is set to %s (%s) but the site profile says port %d is cabled to an %s fabric", [q.device, names[have], name, n, names[want]]),
		"evidence": [param.evidence],
		"vars": {"param": name, "value": value_of[want]},
	}
}

# 2. No profile: LINK_TYPE IB, the port Polling, no Ethernet netdev, no SM, no other IB port up.
findings contains f if {
	some dev in input.devices
	not hca.is_vf(dev)
	object.get(dev, "capture", "") == ""
	some p in dev.ports
	not intent.fabric(dev, p)
	param := configured(dev, p)
	protocol(nv_value(param)) == "ib"
	not port.eth(p)
	p.state == "Down"
	p.physical_state == "Polling"
	no_sm(p)
	not ethernet_netdev(dev)
	not ib_port_active
	base := finding.port(
		dev, p,
		sprintf("%s port %d is in InfiniBand mode (%s) and Polling with no subnet manager and no Ethernet interface: if it is cabled to an Ethernet switch, switch it to Ethernet", [dev.name, p.number, squeeze(param.evidence.text)]),
		array.concat(config_evidence(dev, p), finding.evidence(p, ["state", "physical_state", "sm_lid"])),
	)
	f := object.union(base, {
		"subject": subject(dev, p),
		"confidence": inferred_confidence(dev),
		"vars": {"param": link_param(p.number), "value": "2"},
	})
}

# inferred_confidence: an unplugged IB port looks the same (Polling, no SM), so without a profile
# the inference is medium only when a cable is known to be plugged (mlxlink module info), else low.
inferred_confidence(dev) := "medium" if {
	some m in input.mlxlink
	cable_of(m, dev)
	object.get(m, "cable_type", "") != ""
} else := "low"

cable_of(m, dev) if {
	addr := join.pci(dev)
	addr != ""
	m.pci_address == addr
}

cable_of(m, _) if {
	count(input.devices) == 1
	object.get(m, "port_type", "") != "PCIE"
}

# squeeze folds the column padding of mstconfig lines ("LINK_TYPE_P1      IB(1)") to one space.
squeeze(text) := regex.replace(trim_space(text), `\s+`, " ")

# nv_value is the running value when the query had -e (Current column), else the next-boot one.
nv_value(param) := param.current if {
	param.current != ""
} else := param.next_boot

port_number(name) := to_number(m[0][1]) if {
	m := regex.find_all_string_submatch_n(`^LINK_TYPE_P([0-9]+)$`, name, 1)
	count(m) == 1
}

subject(dev, p) := object.union(finding.port_subject(dev, p), finding.compact({"pci": join.nv_pci(join.nvconfig(dev))})) if {
	join.pci(dev) == ""
} else := finding.port_subject(dev, p)

config_evidence(dev, p) := [configured(dev, p).evidence] if {
	configured(dev, p).evidence
} else := []

state_note(p) := sprintf(" (port %s / %s)", [p.state, p.physical_state]) if {
	p.state != ""
	p.physical_state != ""
} else := ""

pending_note(dev, p, want) := "; the NV setting is already changed for the next boot - reboot to apply it" if {
	protocol(configured(dev, p).next_boot) == want
} else := ""

no_sm(p) if {
	object.get(p, "sm_lid", null) in {null, 0}
	not master_answers
}

master_answers if {
	some s in input.fabric.sminfo
	s.state == "SMINFO_MASTER"
}

ethernet_netdev(dev) if {
	some nd in join.netdevs_of_device(dev)
	nd.kind == "ethernet"
}

ib_port_active if {
	some d in input.devices
	some q in d.ports
	port.ib(q)
	port.active(q)
}

# mlxlink: the firmware saw a partner of the other protocol (opcode 40); which side is wrong it
# does not say, so the value to set is left to the operator.
findings contains f if {
	some ml in input.mlxlink
	ml.port_type != "PCIE"
	c := mlxlink.names(ml, "link-type-mismatch-with-fabric")
	base := mlxlink.finding_for(
		ml,
		sprintf("mlxlink on %s: %s (%s): this port and its link partner run different protocols (InfiniBand vs Ethernet)", [ml.device, mlxlink.describe(ml), c.meaning]),
		array.concat(mlxlink.status_evidence(ml), finding.evidence(ml, ["speed"])),
	)
	f := object.union(base, {
		"confidence": "medium",
		"vars": object.union(base.vars, {"param": sprintf("LINK_TYPE_P%d", [mlxlink.port(ml)])}),
	})
}
