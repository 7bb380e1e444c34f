# METADATA
# title: GPUDirect RDMA peer-memory module not loaded
# description: >-
#   The NVIDIA GPU driver and RDMA devices are present, but neither nvidia_peermem nor the legacy
#   nv_peer_mem module is loaded, so the RDMA stack cannot register GPU memory. NCCL and UCX then
#   stage GPU buffers through host memory ("GPU Direct RDMA Disabled"), often an order of magnitude
#   slower. Nodes using the DMA-BUF path (open NVIDIA kernel modules, kernel >= 5.12, NCCL >= 2.19)
#   do not need the module. Read from a full or filtered lsmod (`lsmod | grep nvidia` shows the
#   peer module's absence, `lsmod | grep mlx` does not), from the kernel's refusal to load it
#   ("nvidia_peermem: Unknown symbol ib_register_peer_memory_client (err -22)": built against
#   an ib_core without the peer-memory API), from modprobe's ("could not insert
#   'nvidia_peermem': Invalid argument"), and from modinfo, which says whether the module is
#   installed at all; one finding per node, from the strongest of these. The loader's and modprobe's
#   refusals prove the module is not loaded; lsmod alone leaves the DMA-BUF path open (medium).
# scope: package
# related_resources:
#   - ref: https://docs.nvidia.com/datacenter/cloud-native/gpu-operator/latest/gpu-operator-rdma.html
#   - ref: https://docs.nvidia.com/deeplearning/nccl/user-guide/docs/troubleshooting/gpu_troubleshooting.html
#   - ref: https://github.com/NVIDIA/nccl/issues/1676
#   - ref: https://github.com/Mellanox/nv_peer_memory/issues/84
#   - ref: https://github.com/NVIDIA/gpu-operator/issues/2868
# custom:
#   id: gpudirect-peer-memory-missing
#   area: stack
#   severity: error
#   confidence: high
#   requires:
#     - facts: [kernel_log]
#     - facts: [modprobe]
#     - facts: [lsmod, modinfo]
#       confidence: medium
#     - facts: [lsmod]
#       confidence: medium
#   explains: []
#   needs_reboot: false
#   fix:
#     - command: modprobe nvidia-peermem && echo nvidia-peermem > /etc/modules-load.d/nvidia-peermem.conf
#       note: load it now and at boot; "Unknown symbol ib_register_peer_memory_client" means the module was built without MLNX_OFED/DOCA-OFED - install it, then reinstall the NVIDIA driver
#     - command: NCCL_DMABUF_ENABLE=1
#       note: or use the DMA-BUF path instead (open NVIDIA kernel modules R515+, kernel >= 5.12, rdma-core >= 36, NCCL >= 2.19)
package rdmadoctor.rules.gpudirect_peer_memory_missing

import data.rdmadoctor.lib.finding
import data.rdmadoctor.lib.modules

peer_modules := {"nvidia_peermem", "nv_peer_mem"}

findings contains best

# One finding per node: the kernel's refusal, else modprobe's, else what lsmod (with modinfo) shows.
best := f if {
	f := refused_by_kernel
} else := f if {
	f := refused_by_modprobe
} else := f if {
	f := installed_not_loaded
} else := f if {
	f := gpu_without_peer_module
}

# The module loader refused the peer module: it is not loaded, whatever else was tried.
refused_by_kernel := finding.node(sprintf("the kernel refused to load %s: %s (a peer-memory module built against an ib_core without the peer-memory API)", [concat(" and ", mods), symbols]), array.concat(evs, modprobe_evidence)) if {
	evs := [ev.evidence | some ev in input.host.kernel_events; ev.kind == "unknown_symbol"; ev.driver in peer_modules]
	count(evs) > 0
	mods := sort({ev.driver | some ev in input.host.kernel_events; ev.kind == "unknown_symbol"; ev.driver in peer_modules; not modules.loaded(ev.driver)})
	count(mods) > 0
	symbols := sprintf("unknown symbol %s", [concat(", ", sort({ev.symbol | some ev in input.host.kernel_events; ev.kind == "unknown_symbol"; ev.driver in peer_modules; ev.symbol != ""}))])
}

refused_by_modprobe := finding.node(sprintf("modprobe could not load %s: %q", [r.module, r.error]), finding.evidence(r, ["inserted", "error"])) if {
	runs := [r | some r in input.host.modprobe; r.module in peer_modules; object.get(r, "error", "") != ""; not modules.loaded(r.module)]
	r := runs[0]
}

modprobe_evidence := [e |
	some r in input.host.modprobe
	r.module in peer_modules
	some e in finding.evidence(r, ["error"])
]

# modinfo shows the module installed, and lsmod (whole, or filtered by a pattern it has) does not list it.
installed_not_loaded := finding.node(sprintf("%s is installed (%s) but not loaded: GPUDirect RDMA cannot register GPU memory", [mi.name, mi.filename]), array.concat(finding.evidence(mi, ["filename"]), modules.evidence)) if {
	candidates := [mi |
		some mi in input.host.module_info
		mi.name in peer_modules
		not mi.not_found
		object.get(mi, "filename", "") != ""
		modules.absent(mi.name)
	]
	mi := candidates[0]
	not peer_loaded
}

gpu_without_peer_module := finding.node(sprintf("nvidia is loaded but neither nvidia_peermem nor nv_peer_mem is%s: GPUDirect RDMA cannot register GPU memory unless the DMA-BUF path is used", [install_note]), array.concat(ev, modules.evidence)) if {
	modules.loaded("nvidia")
	rdma_present
	every p in peer_modules {
		not modules.loaded(p)
		proven_absent(p)
	}
	ev := [m.evidence | some m in input.host.modules; m.name == "nvidia"]
}

proven_absent(p) if modules.absent(p)

# A peer module uses nvidia's symbols, so lsmod names it among nvidia's users: the nvidia line
# alone (`lsmod | grep nvidia`) shows whether either is loaded.
proven_absent(_) if {
	some m in input.host.modules
	m.name == "nvidia"
}

peer_loaded if {
	some p in peer_modules
	modules.loaded(p)
}

# modinfo's "Module nvidia_peermem not found": the driver was installed without it.
install_note := sprintf(" (modinfo: %s not installed)", [concat(", ", sorted)]) if {
	sorted := sort({mi.name | some mi in input.host.module_info; mi.name in peer_modules; mi.not_found})
	count(sorted) > 0
} else := ""

rdma_present if count(object.get(input, "devices", [])) > 0

rdma_present if {
	some n in {"mlx5_ib", "mlx4_ib", "ib_core"}
	modules.loaded(n)
}
