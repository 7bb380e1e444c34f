# METADATA
# title: Separate InfiniBand fabrics share the default subnet prefix
# description: >-
#   Two or more Active InfiniBand ports of this node sit on different fabrics (they are managed by
#   different subnet managers) but all use the default GID prefix fe80::/64. Software that tells
#   subnets apart by prefix (Open MPI's openib BTL, IB routers) then pairs ports that cannot reach
#   each other and jobs hang or fail. Two rails of the same fabric legitimately share fe80; UCX and
#   NCCL do not depend on the prefix.
# scope: package
# related_resources:
#   - ref: http://www.open-mpi.org/faq/?category=openfabrics#ofa-default-subnet-gid
#   - ref: https://github.com/linux-rdma/opensm/blob/master/man/opensm.8.in
# custom:
#   id: ib-default-subnet-prefix-multi-fabric
#   area: sm
#   severity: info
#   confidence: low
#   requires: [ib_ports]
#   explains: []
#   needs_reboot: false
#   fix:
#     - command: "echo 'subnet_prefix 0xfe80000000000001' >> /etc/opensm/opensm.conf && systemctl restart opensm"
#       note: on the SM of the second fabric only (or opensm --subnet_prefix); each fabric gets its own prefix
#     - command: mpirun --mca btl_openib_warn_default_gid_prefix 0 ...
#       note: only if the ports are in fact on one fabric
package rdmadoctor.rules.ib_default_subnet_prefix_multi_fabric

import data.rdmadoctor.lib.finding
import data.rdmadoctor.lib.hca
import data.rdmadoctor.lib.port

default_prefix := "fe80:0000:0000:0000"

# Active IB ports with the default prefix, as [device, port].
ports := [[d, p] |
	some d in input.devices
	not hca.is_vf(d)
	object.get(d, "capture", "") == ""
	some p in d.ports
	port.ib(p)
	port.active(p)
	prefix(p) == default_prefix
]

prefix(p) := lower(p.subnet_prefix) if {
	object.get(p, "subnet_prefix", "") != ""
} else := lower(substring(g.gid, 0, 19)) if {
	some g in object.get(p, "gids", [])
	g.index == 0
}

# Different fabrics: the ports report different master SM LIDs.
sm_lids := {p.sm_lid | some dp in ports; p := dp[1]; is_number(p.sm_lid); p.sm_lid > 0}

findings contains f if {
	count(ports) >= 2
	count(sm_lids) >= 2
	names := sort([sprintf("%s/%d (SM lid %v)", [dp[0].name, dp[1].number, object.get(dp[1], "sm_lid", "?")]) | some dp in ports])
	f := finding.node(
		sprintf("%s all use the default subnet prefix %s but are managed by different SMs: software that identifies fabrics by prefix (Open MPI openib) will mix them up", [concat(", ", names), default_prefix]),
		[e | some dp in ports; some e in finding.evidence(dp[1], ["subnet_prefix", "sm_lid"])],
	)
}
