# METADATA
# title: A node's RDMA driver is another version than its peers'
# description: >-
#   A kernel module (mlx5_core, mlx5_ib, ib_ipoib, nvidia_peermem, ...) reports another version
#   on this node than on most nodes of the fleet (modinfo version:, or ethtool -i version:, the
#   MLNX_OFED release for an OFED driver, the kernel release for the in-box one). A node with
#   another driver stack, or the in-box driver where its peers run OFED, has other features,
#   defaults and bugs, and is the first suspect when it alone misbehaves.
# scope: package
# related_resources:
#   - ref: https://man7.org/linux/man-pages/man8/modinfo.8.html
#   - ref: https://docs.nvidia.com/networking/display/mlnxofedv24070610/installing+mlnx_ofed
# custom:
#   id: fleet-driver-version-drift
#   area: fleet
#   severity: warning
#   confidence: medium
#   requires: [nodes_drivers]
#   explains: []
#   needs_reboot: false
#   fix:
#     - command: modinfo -F version {{driver}}
#       note: on {{nodes}} - the peers run {{version}}
#     - command: ofed_info -s
#       note: on {{nodes}} - the installed OFED release; install the peers' release (or the same kernel) and reload the driver
package rdmadoctor.rules.fleet_driver_version_drift

import data.rdmadoctor.lib.fleet

entries contains {"node": node, "driver": d} if {
	some node in input.nodes
	some d in node.drivers
}

hosts(name, v) := {e.node.host | some e in entries; e.driver.name == name; e.driver.version == v}

versions(name) := {v: count(hosts(name, v)) | some e in entries; e.driver.name == name; v := e.driver.version}

findings contains f if {
	some e in entries
	want := fleet.majority(versions(e.driver.name))
	e.driver.version != want
	first := min(hosts(e.driver.name, want))
	some p in entries
	p.node.host == first
	p.driver.name == e.driver.name
	n := count(hosts(e.driver.name, want))
	f := {
		"nodes": [e.node.host],
		"subject": {},
		"message": sprintf("%s runs %s %s while %d %s %s %s", [
			e.node.host, e.driver.name, e.driver.version, n, fleet.nodes_word(n), fleet.run_word(n), want,
		]),
		"evidence": array.concat(fleet.line(e.node, e.driver.evidence), fleet.line(p.node, p.driver.evidence)),
		"vars": {"driver": e.driver.name, "version": want},
	}
}
