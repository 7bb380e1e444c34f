# METADATA
# title: Transceiver and port speeds
# description: >-
#   The speed a plugged module or cable is built for, from what `ethtool -m` decodes (SFF-8024
#   identifier, SFF-8636 compliance codes and nominal bit rate; ethtool sff-common.c, sff-8636.c;
#   rule-catalog §3.7), and the fastest speed an Ethernet port supports (ethtool link modes).
#   Speeds in Gb/s. A generic SFP identifier says nothing about its rate and yields no value.
# scope: package
package rdmadoctor.lib.module

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
