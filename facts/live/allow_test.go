package live

import (
	"strings"
	"testing"
)

func TestCheckRejectsWrites(t *testing.T) {
	for _, argv := range []string{
		"mstconfig -d 0000:81:00.0 -y set LINK_TYPE_P1=2",
		"mstconfig -d 0000:81:00.0 set LINK_TYPE_P1=2",
		"mstconfig -d 0000:81:00.0 reset",
		"mstconfig -d 0000:81:00.0 -e q LINK_TYPE_P1=2",
		"mlxconfig -d 0000:81:00.0 -y s SRIOV_EN=1",
		"mlxconfig -d 0000:81:00.0 -e",
		"flint -d 0000:81:00.0 -i fw.bin burn",
		"flint -d 0000:81:00.0 b",
		"flint -d 0000:81:00.0 --yes q",
		"mstflint -d 0000:81:00.0 -i fw.bin b",
		"mstflint -d 0000:81:00.0 dc",
		"mlxlink -d 0000:81:00.0 --pc",
		"mlxlink -d 0000:81:00.0 -a TG",
		"mlxlink -d 0000:81:00.0 --speeds 25G",
		"mlxlink -d 0000:81:00.0 --set_speed 100G",
		"mstlink -d 0000:81:00.0 --port_type PCIE --pc",
		"mlxlink -d 0000:81:00.0 --port_type BOGUS",
		"perfquery -R",
		"perfquery -C mlx5_0 -P 1 -R",
		"perfquery -C mlx5_0 -P 1 -r",
		"perfquery -a",
		"perfquery 1 1 0xffff",
		"ibportstate -C mlx5_0 -P 1 1 1 disable",
		"ibportstate 1 1 query",
		"sminfo -s 3",
		"sminfo 1 2",
		"ethtool -s eth0 speed 100000",
		"ethtool -K eth0 tso off",
		"ethtool -A eth0 rx on",
		"ethtool -t eth0",
		"ethtool -p eth0",
		"ethtool --set-fec eth0 encoding rs",
		"ethtool -E eth0 magic 0 offset 0 value 0",
		"ethtool -f eth0 fw.bin",
		"ethtool --reset eth0 all",
		"ethtool eth0 eth1",
		"ethtool -i",
		"sysctl -w net.ipv4.ip_forward=1",
		"sysctl net.ipv4.ip_forward=1",
		"sysctl -p",
		"dmesg -c",
		"dmesg -C",
		"dmesg -n 1",
		"hostname evil",
		"journalctl --vacuum-size=1",
		"journalctl --rotate",
		"systemctl restart opensm",
		"systemctl stop opensm",
		"systemctl status",
		"rdma link set mlx5_0/1 type rxe",
		"rdma link add rxe0 type rxe netdev eth0",
		"ip link set eth0 down",
		"ip addr add 192.0.2.1/24 dev eth0",
		"mst start",
		"mst restart",
		"lspci -xxx",
		"lspci -s ../../etc/passwd",
		"ibstat mlx5_0 1 2",
		"ibstat -d",
		"show_gids mlx5_0 extra",
		"uname -a -m",
		"rm -rf /",
		"/usr/sbin/ibstat",
		"",
	} {
		if err := Check(strings.Fields(argv)); err == nil {
			t.Errorf("Check(%q) = nil, want a refusal", argv)
		}
	}
}

func TestCheckAllowsPlannedCommands(t *testing.T) {
	inv := Inventory{
		Devices: []RDMADevice{{Name: "mlx5_0", Ports: []PortInfo{{Number: 1, LinkLayer: "InfiniBand", State: "4: ACTIVE"}}},
			{Name: "mlx5_bond_0", Ports: []PortInfo{{Number: 1, LinkLayer: "Ethernet", State: "4: ACTIVE"}}}},
		Netdevs: []NetdevInfo{{Name: "ibp65s0", HasDevice: true}, {Name: "bond0.104@bond0", HasDevice: true}},
		PCI:     []PCIInfo{{Address: "0000:41:00.0"}, {Address: "0000:41:00.2", VF: true}},
	}
	var n int
	for _, c := range Plan(inv) {
		for _, argv := range c.Alts {
			n++
			if err := Check(argv); err != nil {
				t.Errorf("planned command refused: %v", err)
			}
		}
	}
	if n < 30 {
		t.Errorf("Plan gave %d argvs, want the full set", n)
	}
}

func TestPlanSkipsVFsAndInactivePorts(t *testing.T) {
	inv := Inventory{
		Devices: []RDMADevice{{Name: "mlx5_0", Ports: []PortInfo{
			{Number: 1, LinkLayer: "InfiniBand", State: "2: INIT"},
			{Number: 2, LinkLayer: "Ethernet", State: "4: ACTIVE"},
		}}},
		PCI: []PCIInfo{{Address: "0000:41:00.2", VF: true}},
	}
	for _, c := range Plan(inv) {
		switch c.Alts[0][0] {
		case "iblinkinfo", "sminfo", "perfquery", "mstconfig", "flint", "mlxlink":
			t.Errorf("planned %q for an inactive/RoCE port or a VF", c)
		}
	}
}
