# METADATA
# title: GPUDirect RDMA peer-memory module not loaded
# description: >-
#   The NVIDIA GPU driver and RDMA devices are present, but neither nvidia_peermem nor the legacy
#   nv_peer_mem module is loaded, so the RDMA stack cannot register GPU memory. NCCL and UCX then
#   stage GPU buffers through host memory ("GPU Direct RDMA Disabled"), often an order of magnitude
#   slower. Nodes using the DMA-BUF path (open NVIDIA kernel modules, kernel >= 5.12, NCCL >= 2.19)
#   do not need the module.
# scope: package
# related_resources:
#   - ref: https://docs.nvidia.com/datacenter/cloud-native/gpu-operator/latest/gpu-operator-rdma.html
#   - ref: https://docs.nvidia.com/deeplearning/nccl/user-guide/docs/troubleshooting/gpu_troubleshooting.html
#   - ref: https://github.com/NVIDIA/nccl/issues/1676
# custom:
#   id: gpudirect-peer-memory-missing
#   area: stack
#   severity: error
#   confidence: medium
#   requires: [lsmod]
#   explains: []
#   needs_reboot: false
#   fix:
#     - command: modprobe nvidia-peermem && echo nvidia-peermem > /etc/modules-load.d/nvidia-peermem.conf
#       note: load it now and at boot; "Unknown symbol ib_register_peer_memory_client" means the module was built without MLNX_OFED/DOCA-OFED - install it, then reinstall the NVIDIA driver
#     - command: NCCL_DMABUF_ENABLE=1
#       note: or use the DMA-BUF path instead (open NVIDIA kernel modules R515+, kernel >= 5.12, rdma-core >= 36, NCCL >= 2.19)
package rdmadoctor.rules.gpudirect_peer_memory_missing

import data.rdmadoctor.lib.finding

peer_modules := {"nvidia_peermem", "nv_peer_mem"}

loaded(name) if {
	some m in input.host.modules
	m.name == name
}

# a filtered lsmod (lsmod | grep mlx) proves absence only of names its pattern matches
would_list(_) if object.get(input.host, "modules_filter", "") == ""

would_list(name) if regex.match(input.host.modules_filter, name)

rdma_present if count(object.get(input, "devices", [])) > 0

rdma_present if {
	some n in {"mlx5_ib", "mlx4_ib", "ib_core"}
	loaded(n)
}

findings contains f if {
	loaded("nvidia")
	rdma_present
	every p in peer_modules {
		not loaded(p)
		would_list(p)
	}
	ev := [m.evidence | some m in input.host.modules; m.name == "nvidia"]
	f := finding.node("nvidia is loaded but neither nvidia_peermem nor nv_peer_mem is: GPUDirect RDMA cannot register GPU memory unless the DMA-BUF path is used", ev)
}
