# METADATA
# title: PCIe ACS redirect forces GPU-NIC peer traffic through the root complex
# description: >-
#   PCIe bridges on this GPU node have Access Control Services request/completion redirect
#   enabled, so peer-to-peer transfers between a GPU and a NIC under the same PCIe switch are sent
#   up to the root complex instead of across the switch. GPUDirect RDMA then runs far below line
#   rate or hangs (NCCL troubleshooting guide). Virtual machines and VFIO passthrough need ACS for
#   IOMMU isolation: there, leave it on and use ATS instead.
# scope: package
# related_resources:
#   - ref: https://docs.nvidia.com/deeplearning/nccl/user-guide/docs/troubleshooting.html
#   - ref: https://github.com/NVIDIA/nccl/issues/489
#   - ref: https://docs.nvidia.com/cuda/gpudirect-rdma/
# custom:
#   id: pcie-acs-redirect-blocks-p2p
#   area: pcie
#   severity: warning
#   confidence: medium
#   requires: [lspci]
#   explains: []
#   needs_reboot: false
#   fix:
#     - command: setpci -s {{bridge}} ECAP_ACS+0x6.w=0000
#       note: bare metal only - clear ACS control on each listed bridge (lost on reboot - run it from a boot-time unit)
#     - command: lspci -vvv | grep -e ACSCtl
#       note: persistent - BIOS "ACS Control - Disable", or kernel cmdline pci=disable_acs_redir=<bdf>[;<bdf>] (Linux >= 4.19)
package rdmadoctor.rules.pcie_acs_redirect_blocks_p2p

import data.rdmadoctor.lib.finding
import data.rdmadoctor.lib.join

gpus := {f.address |
	some f in input.pci
	f.vendor_id == "10de"
	f.class_id in {"0300", "0302"}
}

nics := {f.address | some f in input.pci; join.mellanox_pf(f)}

redirecting := {f.address |
	some f in input.pci
	some bit in ["ReqRedir", "CmpltRedir"]
	f.acsctl[bit] == true
}

# parents maps each function to its upstream bridge (lspci -tv); empty without a tree.
parents := {f.address: [f.parent] | some f in input.pci; object.get(f, "parent", "") != ""}

# tree is parents with every bridge as a vertex too (graph.reachable only walks known vertices).
tree := object.union({a: [] | some l in parents; some a in l}, parents)

# With the tree known, only bridges above a GPU or the NIC matter; without it, any bridge may.
suspects := redirecting & graph.reachable(tree, gpus | nics) if {
	count(parents) > 0
} else := redirecting

findings contains f if {
	count(gpus) > 0
	count(nics) > 0
	s := sort(suspects)
	count(s) > 0
	f := finding.with_fields(
		finding.node(sprintf("ACS redirect is on at %d PCIe bridge(s) (%s) on a node with %d NVIDIA GPU(s) and a Mellanox NIC: GPUDirect peer traffic detours through the root complex", [count(s), concat(", ", array.slice(s, 0, 6)), count(gpus)]), evidence(s)),
		object.union({"vars": {"bridge": s[0]}}, grade),
	)
}

evidence(s) := [e |
	some a in array.slice(s, 0, 6)
	some f in input.pci
	f.address == a
	e := f.evidence.acsctl
]

grade := {} if count(parents) > 0

else := {"confidence": "low"}
