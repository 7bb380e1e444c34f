package facts

// FactGroups maps the abstract fact names that rules list under `requires` to the specs that can
// provide them, in the order the builder applies them. It is derived from the specs' Groups
// (facts/build registers them), never written here. A group is available when at least one of
// its specs was read (status ok, partial or unsupported, i.e. the tool ran; a partial source
// keeps what it could parse, so rules still run on that). Rules that require an
// unavailable group are reported as skipped.
var FactGroups = map[string][]string{}

// GroupTitles names each fact group for a person, the words of the skipped list ("port states
// not in snapshot: ..."). A group is not a tool: how to get it comes from the specs feeding it.
var GroupTitles = map[string]string{
	"rdma_devices":       "RDMA device list",
	"ib_ports":           "port states",
	"gids":               "GID tables",
	"port_counters":      "port counters",
	"hw_counters":        "driver counters",
	"lspci":              "lspci output",
	"nvconfig":           "mstconfig output",
	"firmware_query":     "firmware query",
	"mlxlink":            "mlxlink output",
	"netdevs":            "network interfaces",
	"ethtool":            "ethtool output",
	"ethtool_driver":     "driver information",
	"ethtool_module":     "module EEPROM",
	"ethtool_stats":      "NIC statistics",
	"ethtool_pause":      "pause settings",
	"ethtool_fec":        "FEC settings",
	"qos":                "mlnx_qos output",
	"ecn":                "ECN settings",
	"irqs":               "/proc/interrupts",
	"irq_affinity":       "IRQ affinity",
	"lsmod":              "lsmod output",
	"modinfo":            "modinfo output",
	"modprobe":           "modprobe output",
	"kernel_log":         "kernel log",
	"ofed_installer":     "MLNX_OFED installer output",
	"sysctl":             "sysctl values",
	"memlock":            "locked-memory limit",
	"nccl_log":           "NCCL job log",
	"services":           "service states",
	"opensm":             "opensm configuration and log",
	"iblinkinfo":         "iblinkinfo output",
	"sminfo":             "sminfo output",
	"port_info":          "ibportstate PortInfo",
	"perfquery":          "perfquery output",
	"fabric_nodes":       "fabric discovery",
	"switch_health":      "switch health (ibswinfo)",
	"fabric_ports":       "fabric port states (ibdiagnet2)",
	"fabric_counters":    "fabric port counters (ibdiagnet2.pm)",
	"fabric_diagnostics": "ibdiagnet2 warnings and errors",
	"cpufreq":            "CPU frequency governors",
	"meminfo":            "/proc/meminfo",
	"mst_status":         "mst status output",
	"counter_deltas":     "counter rates (two reads)",
	"perftest":           "perftest results",
}

// Available returns the fact groups that the sources provide, sorted.
func Available(sources []Source) []string {
	read := map[string]bool{}
	for _, s := range sources {
		if s.Status == StatusOK || s.Status == StatusPartial || s.Status == StatusUnsupported {
			read[s.Name] = true
		}
	}
	var out []string
	for g, specs := range FactGroups {
		for _, sp := range specs {
			if read[sp] {
				out = append(out, g)
				break
			}
		}
	}
	sortStrings(out)
	return out
}
