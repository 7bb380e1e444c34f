# METADATA
# title: Adapters of the same model run different firmware
# description: >-
#   Two adapters of the same model and PSID on this node run different firmware versions. Mixed
#   firmware gives inconsistent link behaviour and features (FEC, congestion control, adaptive
#   routing) and makes problems hard to reproduce; vendor support asks for matching firmware first.
#   Different PSIDs (OEM vs retail, different SKUs) legitimately differ and are not compared.
# scope: package
# related_resources:
#   - ref: https://github.com/linux-rdma/rdma-core/blob/master/infiniband-diags/ibstat.c
#   - ref: https://docs.nvidia.com/networking/display/mftv4341lts/mlxfwmanager+-+firmware+update+and+query+tool
# custom:
#   id: firmware-version-mismatch
#   area: firmware
#   severity: warning
#   confidence: high
#   requires: []
#   explains: []
#   needs_reboot: true
#   fix:
#     - command: mlxfwmanager --query
#       note: PSID, current and available versions per device
#     - command: mlxfwmanager -u -d {{pci}}
#       note: bring every card of this model to the same release (or mstflint -d {{pci}} -i <image> burn), then mstfwreset or reboot
package rdmadoctor.rules.firmware_version_mismatch

import data.rdmadoctor.lib.finding
import data.rdmadoctor.lib.hca
import data.rdmadoctor.lib.version

# physical devices of this node's first capture, by CA type
pfs := [d |
	some d in input.devices
	not hca.is_vf(d)
	object.get(d, "capture", "") == ""
	object.get(d, "firmware", "") != ""
	hca.ca_type(d)
]

# mixed are the CA types whose physical devices run more than one firmware version: pairs are
# compared only within them, so a node of many identical devices costs one pass, not all pairs.
mixed contains t if {
	some t in {hca.ca_type(d) | some d in pfs}
	count({d.firmware | some d in pfs; hca.ca_type(d) == t}) > 1
}

findings contains f if {
	some a in pfs
	hca.ca_type(a) in mixed
	some b in pfs
	a.name < b.name
	hca.ca_type(a) == hca.ca_type(b)
	a.firmware != b.firmware
	same_psid(a, b)
	[old, other] := older_first(a, b)
	base := finding.device(
		old,
		sprintf("%s runs firmware %s but %s, the same model (%s), runs %s", [old.name, old.firmware, other.name, hca.ca_type(a), other.firmware]),
		array.concat(finding.evidence(old, ["firmware"]), finding.evidence(other, ["firmware"])),
	)
	f := finding.with_fields(base, grade(a, b))
}

# Without board ids on both sides the PSIDs could differ: less certain.
same_psid(a, b) if a.board_id == b.board_id

same_psid(a, b) if {
	object.get(a, "board_id", "") == ""
	object.get(b, "board_id", "") == ""
}

grade(a, b) := {} if {
	a.board_id != ""
	a.board_id == b.board_id
} else := {"confidence": "medium"}

older_first(a, b) := [a, b] if {
	version.less(a.firmware, b.firmware)
} else := [b, a]
