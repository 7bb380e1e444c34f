package facts

// Host holds node-wide facts.
type Host struct {
	Hostname string `json:"hostname,omitempty"`
	// Kernel release, e.g. "6.8.0-45-generic" (uname -r).
	Kernel string `json:"kernel,omitempty"`
	// Modules are the loaded kernel modules from lsmod; null when lsmod was not captured.
	Modules []KernelModule `json:"modules"`
	// ModulesFilter is the pattern of a filtered lsmod capture ("mlx" for `lsmod | grep mlx`):
	// a module not matching it may be loaded although it is absent from Modules.
	// ModulesFilterUnknown ("?", which no module name contains) marks an excerpt whose filter
	// was not recorded (no lsmod header, a name that says no grep): no absence follows from it.
	ModulesFilter string `json:"modules_filter,omitempty"`
	// ModuleInfo is what `modinfo <module>` says of each module asked about (sos: the kernel
	// plugin's modinfo of the loaded modules), including "not found" answers.
	ModuleInfo []ModuleInfo `json:"module_info,omitempty"`
	// Modprobe is what captured `modprobe [-v] <module>` runs printed, one entry per module.
	Modprobe []ModprobeRun `json:"modprobe,omitempty"`
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
	// MemlockRules are the memlock lines of /etc/security/limits.conf and limits.d/*, in file order.
	MemlockRules []LimitRule `json:"memlock_rules,omitempty"`
	// Services by unit name without ".service", from systemctl status / is-active.
	Services map[string]Service `json:"services,omitempty"`
	// Installer holds what an MLNX_OFED/DOCA-OFED installer (mlnxofedinstall,
	// mlnx_add_kernel_support.sh) printed about kernels and packages it could not build or install.
	Installer []InstallerEvent `json:"installer,omitempty"`
	// KernelEvents are classified dmesg/journal/syslog lines about the RDMA stack.
	KernelEvents []KernelEvent `json:"kernel_events,omitempty"`
	// OpenSM is the opensm configuration and log, when captured.
	OpenSM *OpenSM `json:"opensm"`
	// Userspace lists tool messages from the user-space stack (libibverbs, umad) seen in captures.
	Userspace []ToolRefusal `json:"userspace,omitempty"`
	// NCCLNetdevs are the network interfaces NCCL job logs say the job uses for its bootstrap
	// and out-of-band sockets, one per interface of each log line (several nodes' ranks may
	// write to one log).
	NCCLNetdevs []NCCLNetdev `json:"nccl_netdevs,omitempty"`
	Evidence    EvidenceMap  `json:"evidence,omitempty"`
}

// NCCLNetdev is one interface an NCCL_DEBUG=INFO line names, e.g.
// "node01:180172:180172 [0] NCCL INFO Bootstrap : Using ib0:fe80::a288:c203:d2:aaf2%ib0<0>".
type NCCLNetdev struct {
	// Host is the host name that starts the log line ("node01" of "node01:180172:180172 [0]");
	// empty when the line has none that NCCL prints.
	Host string `json:"host,omitempty"`
	// Use is "bootstrap" (`Bootstrap : Using`), "socket" (`NET/Socket : Using`) or "oob" (the
	// `; OOB` part of `NET/IB : Using`).
	Use string `json:"use"`
	// Netdev is the interface name, e.g. "ib0", "bond0".
	Netdev string `json:"netdev"`
	// Address as NCCL prints it without the "<port>" suffix, e.g. "fe80::a288:c203:d2:aaf2%ib0",
	// "10.149.0.32", or "X.X.X.X" where the reporter masked it.
	Address string `json:"address"`
	// Family is "ipv4" or "ipv6"; empty when the address does not parse (masked).
	Family string `json:"family,omitempty"`
	// LinkLocal is true for an IPv6 fe80::/10 or IPv4 169.254.0.0/16 address, false for another
	// address, null when the address does not parse.
	LinkLocal *bool    `json:"link_local"`
	Evidence  Evidence `json:"evidence"`
}

// KernelModule is one lsmod line.
type KernelModule struct {
	Name     string   `json:"name"`
	SizeB    int64    `json:"size_bytes"`
	UsedBy   []string `json:"used_by,omitempty"`
	Evidence Evidence `json:"evidence"`
}

// ModuleInfo is one module as `modinfo` describes it (kmod tools/modinfo.c): its .ko file on
// disk, version and dependencies. It says the module is installed, not that it is loaded.
type ModuleInfo struct {
	// Name is the module name with underscores ("nv_peer_mem"): modinfo's `name:`, else the
	// file name of `filename:`, else the name in the refusal.
	Name string `json:"name"`
	// NotFound is true for kmod's "modinfo: ERROR: Module X not found.": no such module is
	// installed for the running kernel (or built in).
	NotFound bool `json:"not_found"`
	// Filename is the .ko path, e.g. "/lib/modules/4.15.0-46-generic/updates/dkms/nv_peer_mem.ko".
	Filename string `json:"filename,omitempty"`
	Version  string `json:"version,omitempty"`
	// Depends are the modules it needs loaded first (`depends:`), e.g. ["ib_core"].
	Depends []string `json:"depends,omitempty"`
	// Vermagic is the kernel release and flags it was built for ("4.15.0-46-generic SMP mod_unload").
	Vermagic string `json:"vermagic,omitempty"`
	// Evidence keyed "name", "not_found", "filename", "version", "depends", "vermagic".
	Evidence EvidenceMap `json:"evidence,omitempty"`
}

// ModprobeRun is what `modprobe [-v] <module>` printed about one module (kmod tools/modprobe.c).
type ModprobeRun struct {
	// Module is the module name with underscores, e.g. "nvidia_peermem".
	Module string `json:"module"`
	// Inserted are the .ko files of -v's "insmod <path>" lines that name this module: modprobe
	// tried to load it from there.
	Inserted []string `json:"inserted,omitempty"`
	// Error is modprobe's reason the module could not be loaded, from "modprobe: ERROR: could
	// not insert 'X': <reason>" (e.g. "Invalid argument", "Unknown symbol in module, or
	// unknown parameter (see dmesg)") or "modprobe: FATAL: Module X not found ..."; empty when
	// it printed none.
	Error string `json:"error,omitempty"`
	// Evidence keyed "inserted" and "error".
	Evidence EvidenceMap `json:"evidence,omitempty"`
}

// LimitRule is one pam_limits line `<domain> <type> <item> <value>` (limits.conf(5)).
type LimitRule struct {
	// Domain is a user, "@group", "*" or a uid/gid range.
	Domain string `json:"domain"`
	// Type is "soft", "hard" or "-" (both).
	Type string `json:"type"`
	// Item is the limit name, e.g. "memlock".
	Item string `json:"item"`
	// ValueKiB is the value in KiB for size items; null for "unlimited"/"infinity"/"-1".
	ValueKiB  *int64   `json:"value_kib"`
	Unlimited bool     `json:"unlimited"`
	Evidence  Evidence `json:"evidence"`
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
	// Enabled is the unit file state, e.g. "enabled", "disabled", "generated" (SysV script).
	Enabled string `json:"enabled,omitempty"`
	// Loaded is systemd's LoadState, e.g. "loaded", "not-found", "masked".
	Loaded   string   `json:"loaded,omitempty"`
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
	// EventUnknownSymbol is the module loader's refusal of a module built against another
	// kernel or driver stack: "nvidia_peermem: Unknown symbol ib_register_peer_memory_client
	// (err -22)", "... disagrees about version of symbol ...". The module did not load.
	EventUnknownSymbol = "unknown_symbol"
	EventOther         = "other"
)

// KernelEvent is one classified kernel log line.
type KernelEvent struct {
	// Kind is one of the Event* constants.
	Kind string `json:"kind"`
	// Driver is the emitting driver or subsystem, e.g. "mlx5_core", "ib0".
	Driver     string `json:"driver,omitempty"`
	PCIAddress string `json:"pci_address,omitempty"`
	Netdev     string `json:"netdev,omitempty"`
	// RDMADevice when the line names one, e.g. "infiniband mlx5_0: create_qp:...".
	RDMADevice string `json:"rdma_device,omitempty"`
	// Symbol is the kernel symbol an unknown_symbol line names, e.g.
	// "ib_register_peer_memory_client".
	Symbol   string   `json:"symbol,omitempty"`
	Evidence Evidence `json:"evidence"`
}

// OpenSM is opensm's configuration and what its log says.
type OpenSM struct {
	// Config holds opensm.conf options by name, e.g. "virt_enabled": "2".
	Config map[string]string `json:"config,omitempty"`
	// LogEvents are classified opensm log lines: "subnet_up", "master", "standby", "bind_failed",
	// "sm_port_down", "exiting" ("Exiting SM"), "error".
	LogEvents []OpenSMEvent `json:"log_events,omitempty"`
	// Evidence of Config entries, keyed "config.<option>".
	Evidence EvidenceMap `json:"evidence,omitempty"`
}

// OpenSMEvent is one classified opensm log line.
type OpenSMEvent struct {
	Kind     string   `json:"kind"`
	Evidence Evidence `json:"evidence"`
}

// InstallerEvent is one line of an MLNX_OFED/DOCA-OFED installer's output that says what it
// could not do (MLNX_OFED_SRC install.pl, mlnxofedinstall).
type InstallerEvent struct {
	// Kind is "kernel_build_failed" ("Failed to build MLNX_OFED_LINUX for 5.14.0-rc5": its
	// kernel modules could not be built for that kernel), "package_install_failed" ("Error:
	// mlnx-ofed-kernel-modules installation failed!"), "feature_unsupported" ("WARNING: NFSoRDMA
	// is not supported over kernel 6.5.11-7-pve, will continue installation without it.") or
	// "firmware_update_failed" ("Failed to update Firmware.").
	Kind string `json:"kind"`
	// Kernel is the kernel release the line names, e.g. "5.14.0-rc5".
	Kernel string `json:"kernel,omitempty"`
	// Package is the package or feature the line names, e.g. "mlnx-ofed-kernel-modules", "NFSoRDMA".
	Package  string   `json:"package,omitempty"`
	Evidence Evidence `json:"evidence"`
}

// InstallerEvent kinds.
const (
	InstallerKernelBuildFailed  = "kernel_build_failed"
	InstallerPackageFailed      = "package_install_failed"
	InstallerFeatureUnsupported = "feature_unsupported"
	// InstallerFirmwareUpdateFailed: "Failed to update Firmware." (mlnx-fw-updater)
	InstallerFirmwareUpdateFailed = "firmware_update_failed"
)

// ModulesFilterUnknown is Host.ModulesFilter for an lsmod excerpt whose filter is not known.
const ModulesFilterUnknown = "?"
