package facts

// IRQ is one line of /proc/interrupts that belongs to an RDMA/NIC driver, with its affinity.
type IRQ struct {
	// Number is the IRQ number.
	Number int `json:"number"`
	// Name is the action name, e.g. "mlx5_comp3@pci:0000:81:00.0".
	Name string `json:"name"`
	// Kind is "comp" (completion), "async", "ctrl" or "other", from the mlx4/mlx5 name.
	Kind string `json:"kind,omitempty"`
	// PCIAddress parsed from the name's "@pci:<bdf>" part, or joined from the device.
	PCIAddress string `json:"pci_address,omitempty"`
	// Total is the sum of the per-CPU counts; PerCPU holds them in CPU order.
	Total  int64   `json:"total"`
	PerCPU []int64 `json:"per_cpu,omitempty"`
	// SMPAffinityList from /proc/irq/N/smp_affinity_list, e.g. "0-7"; SMPAffinity expanded.
	SMPAffinityList string `json:"smp_affinity_list,omitempty"`
	SMPAffinity     []int  `json:"smp_affinity,omitempty"`
	// EffectiveAffinityList from /proc/irq/N/effective_affinity_list; EffectiveAffinity expanded.
	EffectiveAffinityList string      `json:"effective_affinity_list,omitempty"`
	EffectiveAffinity     []int       `json:"effective_affinity,omitempty"`
	Evidence              EvidenceMap `json:"evidence,omitempty"`
}
