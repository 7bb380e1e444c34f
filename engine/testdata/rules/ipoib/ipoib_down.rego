# METADATA
# title: IPoIB interface without carrier
# description: The IPoIB netdev has no carrier.
# scope: package
# custom:
#   id: ipoib-down
#   area: ipoib
#   severity: warning
#   confidence: high
#   requires: [netdevs]
#   fix:
#     - command: ip link show {{netdev}}
package rdmadoctor.rules.ipoib_down

findings contains f if {
	some nd in input.netdevs
	nd.kind == "ipoib"
	nd.carrier == false
	f := {
		"subject": {"device": nd.rdma_device, "port": nd.rdma_port, "netdev": nd.name},
		"message": sprintf("%s has no carrier", [nd.name]),
		"evidence": [nd.evidence.carrier],
	}
}
