package live

import (
	"fmt"
	"strconv"
	"strings"
)

// Command is one thing to run, with alternatives.
type Command struct {
	// Plugin is the sos plugin folder the output goes to (sos_commands/<plugin>/).
	Plugin string
	// Alts are argvs tried in order: the first whose tool is installed runs.
	Alts [][]string
	// Fallback also tries the next installed alternative when the chosen one exits non-zero
	// (dmesg is refused to unprivileged users; journalctl -k may still work).
	Fallback bool
	// Counters marks output that --sample reads a second time (ethtool -S).
	Counters bool
}

// packages names the package that installs each tool, for "X not installed" messages.
var packages = map[string]string{
	"ibstat": "infiniband-diags", "ibstatus": "infiniband-diags", "iblinkinfo": "infiniband-diags",
	"sminfo": "infiniband-diags", "perfquery": "infiniband-diags",
	"ibv_devinfo": "ibverbs-utils or libibverbs-utils", "ibv_devices": "ibverbs-utils or libibverbs-utils",
	"mstconfig": "mstflint", "mstflint": "mstflint", "mstlink": "mstflint",
	"mlxconfig": "NVIDIA MFT", "flint": "NVIDIA MFT", "mlxlink": "NVIDIA MFT", "mst": "NVIDIA MFT",
	"ethtool": "ethtool", "lspci": "pciutils", "ip": "iproute2", "rdma": "iproute2",
	"lsmod": "kmod", "sysctl": "procps", "dmesg": "util-linux", "journalctl": "systemd",
	"ibdev2netdev": "mlnx-tools (MLNX_OFED/DOCA)", "show_gids": "mlnx-tools (MLNX_OFED/DOCA)",
	"uname": "coreutils", "hostname": "hostname", "systemctl": "systemd",
}

func one(plugin string, argv ...string) Command {
	return Command{Plugin: plugin, Alts: [][]string{argv}}
}

// Plan lists the commands to run for what Discover found: node-wide commands, per RDMA device and
// port, per Mellanox physical function (never VFs: firmware tools on a VF fail or, worse, hang),
// and per netdev with hardware behind it.
func Plan(inv Inventory) []Command {
	cmds := []Command{
		one("infiniband", "ibstat"),
		one("infiniband", "ibstatus"),
		one("infiniband", "ibv_devinfo", "-v"),
		one("infiniband", "ibv_devices"),
		one("infiniband", "ibdev2netdev"),
		one("infiniband", "show_gids"),
		one("infiniband", "rdma", "link"),
		one("mellanox_firmware", "mst", "status"),
		one("pci", "lspci", "-nnvv"),
		one("pci", "lspci", "-tv"),
		one("networking", "ip", "-d", "address"),
		one("networking", "ip", "-o", "addr"),
		one("networking", "ip", "-s", "-d", "link"),
		one("kernel", "lsmod"),
		one("kernel", "sysctl", "-a"),
		one("kernel", "uname", "-r"),
		one("host", "hostname"),
		{Plugin: "kernel", Alts: [][]string{{"dmesg"}, {"journalctl", "-k", "-b", "--no-pager"}}, Fallback: true},
		one("systemd", "systemctl", "status", "opensm", "irqbalance"),
	}
	// Plain ibstat already covers every device; a per-device `ibstat <dev>` capture of the same
	// device would be taken for a second capture (another node, or before/after) by the builder.
	for _, d := range inv.Devices {
		for _, p := range d.Ports {
			if !p.ActiveIB() {
				continue
			}
			port := strconv.Itoa(p.Number)
			for _, tool := range []string{"iblinkinfo", "sminfo", "perfquery"} {
				cmds = append(cmds, one("infiniband", tool, "-C", d.Name, "-P", port))
			}
		}
	}
	for _, bdf := range inv.PFs() {
		cmds = append(cmds,
			Command{Plugin: "mellanox_firmware", Alts: [][]string{{"mstconfig", "-d", bdf, "-e", "q"}, {"mlxconfig", "-d", bdf, "-e", "q"}}},
			Command{Plugin: "mellanox_firmware", Alts: [][]string{{"flint", "-d", bdf, "q"}, {"mstflint", "-d", bdf, "q"}}},
			Command{Plugin: "mellanox_firmware", Alts: [][]string{{"mlxlink", "-d", bdf, "-m", "-c"}, {"mstlink", "-d", bdf, "-m", "-c"}}},
			Command{Plugin: "mellanox_firmware", Alts: [][]string{{"mlxlink", "-d", bdf, "--port_type", "PCIE"}, {"mstlink", "-d", bdf, "--port_type", "PCIE"}}},
		)
	}
	for _, n := range inv.Netdevs {
		if !n.HasDevice {
			continue
		}
		cmds = append(cmds, one("networking", "ethtool", n.Name))
		for _, opt := range []string{"-i", "-m", "-a", "--show-fec"} {
			cmds = append(cmds, one("networking", "ethtool", opt, n.Name))
		}
		cmds = append(cmds, Command{Plugin: "networking", Alts: [][]string{{"ethtool", "-S", n.Name}}, Counters: true})
	}
	return cmds
}

// String is the first alternative's command line.
func (c Command) String() string { return strings.Join(c.Alts[0], " ") }

// notInstalled explains that no alternative's tool is installed.
func (c Command) notInstalled() string {
	var parts []string
	for i, a := range c.Alts {
		msg := fmt.Sprintf("%s not installed (package: %s)", a[0], packages[a[0]])
		if i > 0 {
			msg = "nor " + msg
		}
		parts = append(parts, msg)
	}
	return strings.Join(parts, ", ")
}
