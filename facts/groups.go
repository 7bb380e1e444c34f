package facts

// FactGroups maps the abstract fact names that rules list under `requires` to the specs that can
// provide them. A group is available when at least one of its specs was read (status ok or
// unsupported, i.e. the tool ran). Rules that require an unavailable group are reported as skipped.
var FactGroups = map[string][]string{
	"rdma_devices":   {"sysfs_infiniband", "ibstat", "ibstatus", "ibv_devinfo", "ibv_devices", "rdma_link", "ibdev2netdev"},
	"ib_ports":       {"sysfs_infiniband", "ibstat", "ibstatus", "ibv_devinfo", "rdma_link"},
	"gids":           {"sysfs_infiniband", "show_gids", "ibv_devinfo"},
	"port_counters":  {"sysfs_infiniband", "perfquery", "ibv_device_statistics"},
	"hw_counters":    {"sysfs_infiniband", "ibv_device_statistics"},
	"lspci":          {"lspci"},
	"nvconfig":       {"mstconfig_query"},
	"firmware_query": {"flint_query", "mlxfwmanager", "mlxup"},
	"mlxlink":        {"mlxlink"},
	"netdevs":        {"ip_addr", "ip_link", "sysfs_net", "ifconfig", "ethtool"},
	"ethtool":        {"ethtool"},
	"ethtool_driver": {"ethtool_driver"},
	"ethtool_module": {"ethtool_module"},
	"ethtool_stats":  {"ethtool_stats"},
	"ethtool_pause":  {"ethtool_pause"},
	"ethtool_fec":    {"ethtool_fec"},
	"qos":            {"mlnx_qos"},
	"ecn":            {"sysfs_net"},
	"irqs":           {"proc_interrupts"},
	"irq_affinity":   {"proc_irq"},
	"lsmod":          {"lsmod"},
	"kernel_log":     {"dmesg"},
	"sysctl":         {"sysctl", "proc_sys"},
	"memlock":        {"ulimit", "limits", "rdma_app_log"},
	"services":       {"systemctl"},
	"opensm":         {"opensm_conf", "opensm_log"},
	"iblinkinfo":     {"iblinkinfo"},
	"sminfo":         {"sminfo"},
	"perfquery":      {"perfquery"},
	"fabric_nodes":   {"ibnetdiscover", "ibhosts", "ibswitches", "ibnodes"},
	"cpufreq":        {"sysfs_cpufreq"},
	"meminfo":        {"proc_meminfo"},
	"mst_status":     {"mst_status"},
	"counter_deltas": {"counter_sample", "ibv_device_statistics"},
}

// Available returns the fact groups that the sources provide, sorted.
func Available(sources []Source) []string {
	read := map[string]bool{}
	for _, s := range sources {
		if s.Status == StatusOK || s.Status == StatusUnsupported {
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
