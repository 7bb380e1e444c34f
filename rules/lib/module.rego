# METADATA
# title: Transceiver and port speeds
# description: >-
#   The speed a plugged module or cable is built for, from what `ethtool -m` decodes (SFF-8024
#   identifier, SFF-8636 compliance codes and nominal bit rate; ethtool sff-common.c, sff-8636.c;
#   rule-catalog §3.7), and the fastest speed an Ethernet port supports (ethtool link modes).
#   Speeds in Gb/s. A generic SFP identifier says nothing about its rate and yields no value.
# scope: package
package rdmadoctor.lib.module

import data.rdmadoctor.lib.finding
import data.rdmadoctor.lib.hca
import data.rdmadoctor.lib.join

# identifier_gbps: the usual top rate of each form factor; CMIS/QSFP-DD/OSFP are at least 200G.
identifier_gbps := {
	"QSFP+": 40,
	"QSFP": 40,
	"QSFP28": 100,
	"QSFP56": 200,
	"QSFP-DD": 400,
	"OSFP": 400,
	"CMIS": 200,
}

# max_gbps returns the fastest rate a module declares; undefined when it cannot be told.
max_gbps(m) := m.max_speed_gbps if {
	m.max_speed_gbps > 0
} else := g if {
	gs := {to_number(x[1]) |
		some c in object.get(m, "compliance", [])
		some x in regex.find_all_string_submatch_n(`\b([0-9]+)G(BASE| ?Ethernet|\b)`, c, -1)
	}
	count(gs) > 0
	g := max(gs)
} else := identifier_gbps[m.identifier]

# port_max_gbps returns the fastest Ethernet speed the port supports: ethtool's supported link
# modes, else the adapter's capability table; undefined when unknown.
port_max_gbps(nd) := nd.max_supported_speed_mbps / 1000 if {
	nd.max_supported_speed_mbps > 0
} else := g if {
	gs := {to_number(x[1]) |
		some lm in object.get(nd, "supported_link_modes", [])
		some x in regex.find_all_string_submatch_n(`^([0-9]+)base`, lm, 1)
	}
	count(gs) > 0
	g := max(gs) / 1000
}

# std_gbps is the speed a module of the port's fastest standard rate runs: 56GbE is Mellanox's
# own rate over 40G QSFP+ cables (ConnectX-3 lists 56000baseCR4), so a 40G module in such a port
# is not slower than the port.
std_gbps(g) := 40 if g == 56

else := g

# adapter_cap returns what the adapter model says of the netdev's port, when ethtool's link modes
# are not there: {gbps, family, exact, evidence} from the adapter's own description (exact: the
# part), else from the CA type of its RDMA device (joined by its port or PCI address) or, for
# mlx4_en, the ConnectX-3 family (mlx4 drives ConnectX to ConnectX-3, none faster than 56GbE):
# then gbps is the family's fastest port (rules/data/hca_models.yaml), an upper bound of the
# part's. Undefined when the model is not known.
adapter_cap(nd) := c if {
	c := object.union(description_cap(nd), {"exact": true})
} else := {"gbps": c.max_eth_gbps, "family": c.family, "exact": false, "evidence": finding.evidence(d, ["ca_type"])} if {
	d := adapter_device(nd)
	c := hca.caps(d)
	c.max_eth_gbps > 0
} else := {"gbps": c.max_eth_gbps, "family": "ConnectX-3 (mlx4_en)", "exact": false, "evidence": finding.evidence(nd, ["driver"])} if {
	nd.driver == "mlx4_en"
	c := hca.ca_types.MT4099
}

# adapter_device is the RDMA device of the netdev: by its RDMA port, else by its PCI address when
# one device has it.
adapter_device(nd) := dp[0] if {
	dp := rdma_port(nd)
} else := ds[0] if {
	a := object.get(nd, "pci_address", "")
	a != ""
	ds := [d | some d in input.devices; join.pci(d) == a]
	count(ds) == 1
}

# eth_speeds_gbps reads mlxlink's Ethernet speed list ("200G_2X,100G_4X,40G,25G,10G,1G") into
# Gb/s; names it does not know (IB lane names, BaseTx100M) are left out.
eth_speeds_gbps(list) := {to_number(m[1]) |
	some x in split(list, ",")
	some m in regex.find_all_string_submatch_n(`^([0-9]+)G(_[0-9]X)?$`, trim_space(x), 1)
}

# ethernet holds for a netdev that can have module EEPROM data (IPoIB netdevs cannot: mlx5i
# ethtool ops have no get_module_info, rule-catalog §2.2).
ethernet(nd) if nd.kind == "ethernet"

ethernet(nd) if {
	object.get(nd, "kind", "") == ""
	not regex.match(`^ib`, nd.name)
}

# link_up holds when ethtool or the RDMA port says the link is up.
link_up(nd) if nd.link_detected == true

link_up(nd) if {
	some dev in input.devices
	some p in dev.ports
	join.netdev_name(dev, p) == nd.name
	p.state == "Active"
}

# rdma_port returns [device, port] of the netdev's RDMA port; undefined when unknown.
rdma_port(nd) := join.port_of_netdev(nd.name)

# subject of a module finding: the netdev, plus its RDMA port when known so that it lines up
# with port findings it explains.
subject(nd) := object.union(
	{"device": dp[0].name, "port": dp[1].number},
	{k: v | some k, v in {"netdev": nd.name, "pci": object.get(nd, "pci_address", "")}; v != ""},
) if {
	dp := rdma_port(nd)
} else := {k: v | some k, v in {"netdev": nd.name, "pci": object.get(nd, "pci_address", "")}; v != ""}

# mlxlink_type is the CA type an mlxlink report is about (from /dev/mst/mt4115_pciconf1).
mlxlink_type(ml) := hca.type_of_firmware({"device_type": "", "device": ml.device})

# description_cap returns what the adapter's own description says of its ports, e.g. "ConnectX-5
# VPI adapter card; EDR IB (100Gb/s) and 100GbE; single-port QSFP28" (mstconfig query, mlxfwmanager
# Description) -> {gbps: 100, ...}: the part, not only its family. The query is joined to the
# netdev by PCI slot (the functions of one adapter share bus and device). Undefined without one.
description_cap(nd) := {"gbps": g, "family": sprintf("the %s", [trim_space(d.text)]), "evidence": d.evidence} if {
	some d in descriptions(nd)
	g := max(description_eth_gbps(d.text))
}

descriptions(nd) := [{"text": q.description, "evidence": finding.evidence(q, ["description"])} |
	slot := pci_slot(object.get(nd, "pci_address", ""))
	slot != ""
	some q in array.concat(object.get(input, "nvconfig", []), object.get(input, "firmware", []))
	object.get(q, "description", "") != ""
	pci_slot(join.nv_pci(q)) == slot
]

# pci_slot is a PCI address without its function: 0000:3b:00.1 -> 0000:3b:00.
pci_slot(a) := s if {
	regex.match(`^[0-9a-f]{4}:[0-9a-f]{2}:[0-9a-f]{2}\.[0-7]$`, a)
	s := substring(a, 0, 10)
} else := ""

# description_eth_gbps are the Ethernet speeds a description names: "100GbE", "40/56GbE",
# "100 GbE", "Ethernet 10Gb/40Gb".
description_eth_gbps(text) := {to_number(n[0]) |
	some m in regex.find_all_string_submatch_n(`([0-9]+(?:/[0-9]+)*) ?GbE\b|Ethernet ((?:[0-9]+Gb/?)+)`, text, -1)
	some part in array.slice(m, 1, 3)
	part != ""
	some n in regex.find_all_string_submatch_n(`[0-9]+`, part, -1)
}
