package facts

// PCIFunction is one PCI function as lspci describes it.
type PCIFunction struct {
	// Address is the BDF with domain, e.g. "0000:81:00.0" (lspci prints it without domain unless -D).
	Address string `json:"address"`
	// Class is the class name, e.g. "Infiniband controller", "Ethernet controller".
	Class string `json:"class,omitempty"`
	// ClassID, VendorID and DeviceID are 4-digit lowercase hex from lspci -nn, e.g. "0207", "15b3", "1013".
	ClassID  string `json:"class_id,omitempty"`
	VendorID string `json:"vendor_id,omitempty"`
	DeviceID string `json:"device_id,omitempty"`
	// Name is the device description, e.g. "Mellanox Technologies MT27700 Family [ConnectX-4]".
	Name string `json:"name,omitempty"`
	// VF is true for an SR-IOV virtual function.
	VF *bool `json:"vf"`
	// LnkCap and LnkSta are the PCIe link capability and status.
	LnkCap *PCIeLink `json:"lnkcap"`
	LnkSta *PCIeLink `json:"lnksta"`
	// NUMANode from lspci `NUMA node:` or sysfs.
	NUMANode *int `json:"numa_node"`
	// ACSCtl holds the ACS control flags, e.g. {"SrcValid": true, "ReqRedir": false}.
	ACSCtl map[string]bool `json:"acsctl,omitempty"`
	// CapabilitiesDenied is true when lspci printed `Capabilities: <access denied>` (not root).
	CapabilitiesDenied *bool `json:"capabilities_denied"`
	// KernelDriver from `Kernel driver in use:`.
	KernelDriver string `json:"kernel_driver,omitempty"`
	// PartNumber and SerialNumber from VPD ([PN], [SN]).
	PartNumber   string `json:"part_number,omitempty"`
	SerialNumber string `json:"serial_number,omitempty"`
	// Filter is set when the capture this function was read from held only some of lspci's
	// lines: a regular expression over lspci's line text matching the lines it could show,
	// e.g. "LnkSta" for `lspci -vvv | grep LnkSta`, "(?i)mell" for `lspci | grep -i mell`, or,
	// when the name does not give the pattern, the kinds of lines it holds ("LnkCap:|LnkSta:"
	// for a loop of `lspci -s X -vvv | grep Lnk`, a header pattern for a list of headers). A detail whose line the filter would not have shown
	// (LnkCap, "Kernel driver in use") is unknown, not absent. Empty for whole `lspci -v` blocks
	// (once any capture of the function is whole, the merged function is).
	Filter string `json:"filter,omitempty"`
	// Parent is the upstream bridge from lspci -tv, when known.
	Parent   string      `json:"parent,omitempty"`
	Evidence EvidenceMap `json:"evidence,omitempty"`
}

// PCIeLink is a LnkCap or LnkSta line, e.g. `LnkSta: Speed 8GT/s (downgraded), Width x8 (downgraded)`.
type PCIeLink struct {
	// SpeedGTs in GT/s (2.5, 5, 8, 16, 32, 64); null for "Speed unknown".
	SpeedGTs *float64 `json:"speed_gts"`
	// Width in lanes; 0 is printed by VFs (x0).
	Width *int `json:"width"`
	// SpeedDowngraded and WidthDowngraded are the "(downgraded)" marks newer lspci prints.
	SpeedDowngraded bool `json:"speed_downgraded"`
	WidthDowngraded bool `json:"width_downgraded"`
	// BandwidthGbps is the usable bandwidth (kernel PCIE_SPEED2MBS_ENC per lane × width).
	BandwidthGbps *float64 `json:"bandwidth_gbps"`
}
