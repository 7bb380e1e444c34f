package rdmadoctor.lib.ipoib_test

import data.rdmadoctor.lib.ipoib

test_ipoib_by_kind_or_name if {
	ipoib.netdev({"name": "ibp26s0", "kind": "ipoib"})
	ipoib.netdev({"name": "ib0"})
	not ipoib.netdev({"name": "ib0", "kind": "ethernet"})
	not ipoib.netdev({"name": "enp1s0"})
}

test_port_of_netdev if {
	dp := ipoib.port({"name": "ib0"}) with input as {"devices": [{"name": "mlx5_0", "ports": [{"number": 1, "netdev": "ib0"}]}]}
	dp[0].name == "mlx5_0"
}
