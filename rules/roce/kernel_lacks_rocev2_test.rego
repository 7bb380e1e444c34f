package rdmadoctor.rules.kernel_lacks_rocev2_test

import data.rdmadoctor.rules.kernel_lacks_rocev2 as rule

gid := {"index": 0, "gid": "fe80:0000:0000:0000:0202:c9ff:fe00:0001", "evidence": {"source": "sysfs_infiniband", "path": "sys/class/infiniband/mlx4_0/ports/1/gids/0"}}

dev := {"name": "mlx4_0", "ports": [{"number": 1, "link_layer": "Ethernet", "state": "Active", "gids": [gid]}]}

test_fires_on_old_kernel_without_types if {
	count(rule.findings) == 1 with input as {"host": {"kernel": "3.10.33-rt32.33.el6rt.x86_64"}, "devices": [dev], "netdevs": []}
}

test_no_finding_on_new_kernel if {
	# a kernel >= 4.5 has the types: their absence means the capture left them out
	count(rule.findings) == 0 with input as {"host": {"kernel": "5.14.0-70.el9.x86_64"}, "devices": [dev], "netdevs": []}
}

test_no_finding_with_types if {
	typed := object.union(gid, {"type": "RoCE v1"})
	d := {"name": "mlx4_0", "ports": [{"number": 1, "link_layer": "Ethernet", "state": "Active", "gids": [typed]}]}
	count(rule.findings) == 0 with input as {"host": {"kernel": "3.10.0-327.el7.x86_64"}, "devices": [d], "netdevs": []}
}
