# METADATA
# title: NCCL bootstraps over a link-local address
# description: >-
#   An NCCL job's log says a rank bootstraps (or sets up its InfiniBand connections out of band)
#   over an IPv6 link-local (fe80::) or IPv4 169.254/16 address. NCCL picks ib* interfaces first,
#   and an IPoIB interface without an IPv4 address has only its fe80:: address: ranks on other
#   nodes cannot reach it (or pick another interface and address family), and the job hangs at
#   start-up or fails to connect. Pin the bootstrap to an interface that has a routable address of
#   the same family on every node.
# scope: package
# related_resources:
#   - ref: https://docs.nvidia.com/deeplearning/nccl/user-guide/docs/env.html
#   - ref: https://github.com/NVIDIA/nccl/issues/1291
#   - ref: https://github.com/NVIDIA/nccl/issues/286
# custom:
#   id: nccl-bootstrap-link-local
#   area: ipoib
#   severity: error
#   confidence: medium
#   requires: [nccl_log]
#   explains: []
#   needs_reboot: false
#   fix:
#     - command: export NCCL_SOCKET_IFNAME={{ifname}}
#       note: an interface with a routable address on every node (prefix match; '=name' for an exact name); or set it in /etc/nccl.conf
#     - command: export NCCL_SOCKET_FAMILY=AF_INET
#       note: keep NCCL on IPv4 when the IPoIB interface has only a link-local IPv6 address
#     - command: ip -br addr show {{netdev}}
#       note: or give the IPoIB interface an IPv4 address on every node if the bootstrap is meant to run over it
package rdmadoctor.rules.nccl_bootstrap_link_local

import data.rdmadoctor.lib.finding

findings contains f if {
	some n in object.get(input.host, "nccl_netdevs", [])
	n.link_local == true
	base := {
		"subject": {"netdev": n.netdev},
		"message": sprintf("%s NCCL %s over %s %s, a link-local address other nodes cannot reach%s", [who(n), verb(n), n.netdev, n.address, others_note(n)]),
		"evidence": array.concat([n.evidence], other_evidence(n)),
	}
	f := finding.with_fields(base, object.union({"vars": ifname_var(n)}, grade(n)))
}

who(n) := sprintf("on %s,", [n.host]) if n.host != ""

else := "a rank's"

verb(n) := "sets up its InfiniBand connections (OOB)" if {
	n.use == "oob"
} else := "uses its sockets" if {
	n.use == "socket"
} else := "bootstraps"

# others are the interfaces ranks on other hosts of the same log use with a routable address.
others(n) := [o |
	some o in input.host.nccl_netdevs
	o.host != n.host
	o.use == n.use
	object.get(o, "link_local", null) != true
]

others_note(n) := sprintf("; %s uses %s %s", [o.host, o.netdev, o.address]) if {
	o := others(n)[0]
} else := ""

other_evidence(n) := [o.evidence] if {
	o := others(n)[0]
} else := []

ifname_var(n) := {"ifname": o.netdev} if {
	o := others(n)[0]
} else := {}

# Another node of the same job using a routable address proves the mismatch.
grade(n) := {"confidence": "high"} if count(others(n)) > 0

else := {}
