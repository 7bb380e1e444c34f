# METADATA
# title: Socket buffer limits at distribution defaults on an IPoIB node
# description: >-
#   net.core.rmem_max / wmem_max are at the usual default (212992 bytes) on a node with an IPoIB
#   interface in use. TCP window autotuning cannot grow past them, which caps single-stream TCP
#   (NFS, Lustre over TCP, MPI bootstrap, data copies) over 100-400 Gb/s IPoIB far below the link
#   rate. Pure RDMA traffic does not use socket buffers.
# scope: package
# related_resources:
#   - ref: https://github.com/Mellanox/mlnx-tools
#   - ref: https://docs.kernel.org/networking/ip-sysctl.html
# custom:
#   id: socket-buffers-low-for-ipoib
#   area: host
#   severity: info
#   confidence: low
#   requires: [sysctl, netdevs]
#   explains: []
#   needs_reboot: false
#   fix:
#     - command: sysctl -w net.core.rmem_max=4194304 net.core.wmem_max=4194304 net.core.rmem_default=4194304 net.core.wmem_default=4194304
#       note: values from mlnx-tools sysctl_perf_tuning
#     - command: sysctl -w net.ipv4.tcp_rmem="4096 87380 4194304" net.ipv4.tcp_wmem="4096 65536 4194304" net.core.netdev_max_backlog=250000
#       note: persist both in /etc/sysctl.d/
package rdmadoctor.rules.socket_buffers_low_for_ipoib

import data.rdmadoctor.lib.finding
import data.rdmadoctor.lib.ipoib
import data.rdmadoctor.lib.port

default_max := 212992

findings contains f if {
	low := [k | some k in ["net.core.rmem_max", "net.core.wmem_max"]; to_number(input.host.sysctls[k]) <= default_max]
	count(low) > 0
	used := sort({nd.name | some nd in ipoib.netdevs; nd.admin_up == true; port.has_address(nd)})
	count(used) > 0
	f := finding.node(
		sprintf("%s at most %d bytes while IPoIB carries IP traffic (%s): single-stream TCP stays far below the link rate", [concat(" and ", [sprintf("%s = %s", [k, input.host.sysctls[k]]) | some k in low]), default_max, concat(", ", used)]),
		finding.evidence(input.host, [concat(".", ["sysctls", k]) | some k in low]),
	)
}
