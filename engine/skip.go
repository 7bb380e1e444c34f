package engine

import (
	"sort"
	"strings"

	"github.com/rdmadoctor/rdmadoctor/facts"
)

// groupHint says, per fact group (facts.FactGroups), what is missing and how to get it.
type groupHint struct{ what, how string }

var groupHints = map[string]groupHint{
	"rdma_devices":   {"RDMA device list", "run `ibstat` or `ibv_devinfo -v` (infiniband-diags, rdma-core), or copy /sys/class/infiniband"},
	"ib_ports":       {"port states", "run `ibstat` (infiniband-diags) or copy /sys/class/infiniband/*/ports"},
	"gids":           {"GID tables", "run `show_gids` or copy /sys/class/infiniband/*/ports/*/gids and gid_attrs"},
	"port_counters":  {"port counters", "copy /sys/class/infiniband/*/ports/*/counters or run `perfquery -x`"},
	"hw_counters":    {"driver counters", "copy /sys/class/infiniband/*/ports/*/hw_counters"},
	"lspci":          {"lspci output", "run `lspci -nnvv` as root (pciutils)"},
	"nvconfig":       {"mstconfig output", "install mstflint and run `mstconfig -d <pci> -e query`"},
	"firmware_query": {"firmware query", "run `mstflint -d <pci> query` (mstflint) or `mlxfwmanager --query` (MFT)"},
	"mlxlink":        {"mlxlink output", "install mstflint and run `mstlink -d <pci>` (or `mlxlink -d <pci>` from MFT)"},
	"netdevs":        {"network interfaces", "run `ip addr` and `ip -d link`"},
	"ethtool":        {"ethtool output", "run `ethtool <netdev>`"},
	"ethtool_driver": {"driver information", "run `ethtool -i <netdev>`"},
	"ethtool_module": {"module EEPROM", "run `ethtool -m <netdev>`"},
	"ethtool_stats":  {"NIC statistics", "run `ethtool -S <netdev>`"},
	"ethtool_pause":  {"pause settings", "run `ethtool -a <netdev>`"},
	"ethtool_fec":    {"FEC settings", "run `ethtool --show-fec <netdev>`"},
	"qos":            {"mlnx_qos output", "run `mlnx_qos -i <netdev>` (mlnx-tools, DOCA-OFED)"},
	"ecn":            {"ECN settings", "copy /sys/class/net/<netdev>/ecn"},
	"irqs":           {"/proc/interrupts", "copy /proc/interrupts"},
	"irq_affinity":   {"IRQ affinity", "copy /proc/irq/*/smp_affinity_list"},
	"lsmod":          {"lsmod output", "run `lsmod`"},
	"kernel_log":     {"kernel log", "run `dmesg` (or `journalctl -k`)"},
	"sysctl":         {"sysctl values", "run `sysctl -a`"},
	"memlock":        {"locked-memory limit", "run `ulimit -a` where the jobs run"},
	"services":       {"service states", "run `systemctl status opensm rdma openibd irqbalance`"},
	"opensm":         {"opensm configuration and log", "copy /etc/opensm/opensm.conf and /var/log/opensm.log"},
	"iblinkinfo":     {"iblinkinfo output", "run `iblinkinfo` (infiniband-diags) from a node with an Active IB port"},
	"sminfo":         {"sminfo output", "run `sminfo` (infiniband-diags)"},
	"perfquery":      {"perfquery output", "run `perfquery -x` (infiniband-diags)"},
	"fabric_nodes":   {"fabric discovery", "run `ibnetdiscover` (infiniband-diags)"},
	"cpufreq":        {"CPU frequency governors", "copy /sys/devices/system/cpu/cpu*/cpufreq/scaling_governor"},
	"meminfo":        {"/proc/meminfo", "copy /proc/meminfo"},
	"mst_status":     {"mst status output", "run `mst status -v` (MFT)"},
	"counter_deltas": {"counter rates (two reads)", "run `rdmadoctor gather --sample 10s` so counters are read twice"},
}

// missingGroups returns the rule's required groups that are not available, sorted.
func missingGroups(r *Rule, available map[string]bool) []string {
	var out []string
	for _, g := range r.Requires {
		if !available[g] {
			out = append(out, g)
		}
	}
	return out
}

// skipReason explains, per missing group, what is missing and how to get it; when an input
// of the group was present but unreadable, it says so and quotes the error instead. cache
// holds the reasons of groups already explained for this snapshot (rules share groups).
func skipReason(missing []string, sources []facts.Source, cache map[string]string) string {
	parts := make([]string, 0, len(missing))
	for _, g := range missing {
		part, ok := cache[g]
		if !ok {
			part = groupReason(g, sources)
			if cache != nil {
				cache[g] = part
			}
		}
		parts = append(parts, part)
	}
	return strings.Join(parts, "; ")
}

// groupReason says why fact group g is missing: its specs failed (quoting their errors) or were
// not in the snapshot (with how to get them).
func groupReason(g string, sources []facts.Source) string {
	h, ok := groupHints[g]
	if !ok {
		h = groupHint{what: g + " (" + strings.Join(facts.FactGroups[g], ", ") + ")"}
	}
	if errs := sourceErrors(facts.FactGroups[g], sources); errs != "" {
		return h.what + " unreadable: " + errs
	}
	msg := h.what + " not in snapshot"
	if h.how != "" {
		msg += ": " + h.how
	}
	return msg
}

// sourceErrors quotes the errors of the group's specs that were present but failed.
func sourceErrors(specs []string, sources []facts.Source) string {
	want := map[string]bool{}
	for _, s := range specs {
		want[s] = true
	}
	var errs []string
	for _, s := range sources {
		if want[s.Name] && (s.Status == facts.StatusError || s.Status == facts.StatusTimeout) {
			errs = append(errs, s.Error)
		}
	}
	sort.Strings(errs)
	return strings.Join(errs, "; ")
}

// GroupHint describes a fact group (facts.FactGroups): what it is ("port states") and how to
// get it ("run `ibstat` ..."), the words of the skipped list; both empty for an unknown group.
func GroupHint(group string) (what, how string) {
	h := groupHints[group]
	return h.what, h.how
}
