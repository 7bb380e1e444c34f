# METADATA
# title: Port is only a limited member of the default partition
# description: >-
#   The port's P_Key table holds the default partition as 0x7fff (limited membership, bit 15
#   clear) and not 0xffff. Two limited members cannot talk to each other, only to full members,
#   so IPoIB ARP and multicast joins and verbs traffic between compute nodes fail while traffic to
#   the SM and storage (full members) works. opensm makes every port limited when partitions.conf
#   exists without a rule for the Default partition or lists ALL without =full. Tenant isolation
#   designs use limited membership on purpose.
# scope: package
# related_resources:
#   - ref: https://github.com/linux-rdma/opensm/blob/master/doc/partition-config.txt
#   - ref: https://www.kernel.org/doc/Documentation/ABI/testing/sysfs-class-infiniband
# custom:
#   id: ib-pkey-limited-membership
#   area: sm
#   severity: warning
#   confidence: medium
#   requires: []
#   explains: []
#   needs_reboot: false
#   fix:
#     - command: "echo 'Default=0x7fff, ipoib, mtu=5 : ALL=full;' >> /etc/opensm/partitions.conf && systemctl restart opensm"
#       note: on the SM host (or give the nodes full membership of the default partition on the switch SM / UFM)
#     - command: cat /sys/class/infiniband/{{device}}/ports/{{port}}/pkeys/0
#       note: expect 0xffff after the SM's next sweep
package rdmadoctor.rules.ib_pkey_limited_membership

import data.rdmadoctor.lib.finding
import data.rdmadoctor.lib.hca
import data.rdmadoctor.lib.port

findings contains f if {
	some dev in input.devices
	not hca.is_vf(dev)
	object.get(dev, "capture", "") == ""
	some p in dev.ports
	port.ib(p)
	p.physical_state == "LinkUp"
	keys := {lower(k) | some k in object.get(p, "pkeys", [])}
	"0x7fff" in keys
	not "0xffff" in keys
	f := finding.port(dev, p, sprintf("%s port %d holds the default P_Key as 0x7fff (limited member) and not 0xffff: it cannot reach other limited members (IPoIB, verbs between compute nodes)", [dev.name, p.number]), finding.evidence(p, ["pkeys"]))
}

# opensm refuses multicast joins between limited members (osm_sa_mcmember_record.c, ERR 1B31).
findings contains f if {
	errs := [e | some e in object.get(object.get(input.host, "opensm", {}), "log_events", []); contains(e.evidence.text, "ERR 1B31")]
	count(errs) > 0
	f := finding.node(sprintf("opensm rejects multicast joins between limited partition members: %q", [trim_space(errs[0].evidence.text)]), [e.evidence | some e in array.slice(errs, 0, 3)])
}
