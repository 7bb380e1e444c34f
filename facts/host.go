package facts

// Host holds node-wide facts.
type Host struct {
	Hostname string `json:"hostname,omitempty"`
	// Kernel release, e.g. "6.8.0-45-generic" (uname -r).
	Kernel string `json:"kernel,omitempty"`
	// Modules are the loaded kernel modules from lsmod; null when lsmod was not captured.
	Modules []KernelModule `json:"modules"`
	// Sysctls by dotted name, e.g. "net.core.rmem_max", from sysctl -a or /proc/sys.
	Sysctls map[string]string `json:"sysctls,omitempty"`
	// CPUFreqGovernors counts CPUs per scaling_governor, e.g. {"powersave": 64}.
	CPUFreqGovernors map[string]int `json:"cpufreq_governors,omitempty"`
	// HugePagesTotal from /proc/meminfo `HugePages_Total:`.
	HugePagesTotal *int `json:"hugepages_total"`
	// THP is the selected transparent hugepage mode, e.g. "always", "madvise", "never".
	THP string `json:"thp,omitempty"`
	// Memlock is the locked-memory limit of the captured context (ulimit -a/-l, limits.conf).
	Memlock *MemlockLimit `json:"memlock"`
	// Services by unit name without ".service", from systemctl status / is-active.
	Services map[string]Service `json:"services,omitempty"`
	// KernelEvents are classified dmesg/journal/syslog lines about the RDMA stack.
	KernelEvents []KernelEvent `json:"kernel_events,omitempty"`
	// OpenSM is the opensm configuration and log, when captured.
	OpenSM *OpenSM `json:"opensm"`
	// Userspace lists tool messages from the user-space stack (libibverbs, umad) seen in captures.
	Userspace []ToolRefusal `json:"userspace,omitempty"`
	Evidence  EvidenceMap   `json:"evidence,omitempty"`
}

// KernelModule is one lsmod line.
type KernelModule struct {
	Name   string   `json:"name"`
	SizeB  int64    `json:"size_bytes"`
	UsedBy []string `json:"used_by,omitempty"`
}

// MemlockLimit is RLIMIT_MEMLOCK in KiB; Unlimited is true for "unlimited" (KiB then null).
type MemlockLimit struct {
	SoftKiB   *int64   `json:"soft_kib"`
	Unlimited bool     `json:"unlimited"`
	Evidence  Evidence `json:"evidence"`
}

// Service is a systemd unit state.
type Service struct {
	// Active is systemd's ActiveState, e.g. "active", "inactive", "failed".
	Active string `json:"active,omitempty"`
	// Sub is the SubState, e.g. "running", "dead", "exited".
	Sub string `json:"sub,omitempty"`
	// Enabled is the unit file state, e.g. "enabled", "disabled".
	Enabled  string   `json:"enabled,omitempty"`
	Evidence Evidence `json:"evidence"`
}

// Kernel event kinds.
const (
	EventLinkDown          = "link_down"
	EventLinkUp            = "link_up"
	EventLostCarrier       = "lost_carrier"
	EventFirmwareUpgrade   = "firmware_upgrade_needed"
	EventModuleError       = "module_error"
	EventPCIeLimited       = "pcie_bandwidth_limited"
	EventProbeFailed       = "probe_failed"
	EventCableNotConnected = "cable_not_connected"
	EventInsufficientPower = "insufficient_power"
	EventIPoIBMTUClamp     = "ipoib_mtu_clamped"
	EventOther             = "other"
)

// KernelEvent is one classified kernel log line.
type KernelEvent struct {
	// Kind is one of the Event* constants.
	Kind string `json:"kind"`
	// Driver is the emitting driver or subsystem, e.g. "mlx5_core", "ib0".
	Driver     string   `json:"driver,omitempty"`
	PCIAddress string   `json:"pci_address,omitempty"`
	Netdev     string   `json:"netdev,omitempty"`
	Evidence   Evidence `json:"evidence"`
}

// OpenSM is opensm's configuration and what its log says.
type OpenSM struct {
	// Config holds opensm.conf options by name, e.g. "virt_enabled": "2".
	Config map[string]string `json:"config,omitempty"`
	// LogEvents are classified opensm log lines: "subnet_up", "master", "standby", "bind_failed", "error".
	LogEvents []OpenSMEvent `json:"log_events,omitempty"`
}

// OpenSMEvent is one classified opensm log line.
type OpenSMEvent struct {
	Kind     string   `json:"kind"`
	Evidence Evidence `json:"evidence"`
}
