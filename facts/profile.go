package facts

// Profile is the site's intent (docs/profiles.md), read from --profile. Rules see it as
// input.profile; it is null when no profile was given, and rules then infer intent from evidence
// with lower confidence.
type Profile struct {
	// Fabric is "ib" or "ethernet" for the whole node.
	Fabric string `json:"fabric,omitempty" yaml:"fabric"`
	// Devices override per RDMA device name (e.g. "mlx5_0") or PCI address ("0000:81:00.0").
	Devices map[string]DeviceIntent `json:"devices,omitempty" yaml:"devices"`
	// ExpectedRateGbps is the rate every active port should run at, e.g. 400.
	ExpectedRateGbps *float64 `json:"expected_rate_gbps,omitempty" yaml:"expected_rate_gbps"`
	// ExpectedActivePorts is how many RDMA ports should be Active on this node.
	ExpectedActivePorts *int `json:"expected_active_ports,omitempty" yaml:"expected_active_ports"`
	// MinFirmware maps a CA type ("MT4129") or device type ("ConnectX7") to the lowest acceptable version.
	MinFirmware map[string]string `json:"min_firmware,omitempty" yaml:"min_firmware"`
	// IPoIB policy.
	IPoIB *IPoIBIntent `json:"ipoib,omitempty" yaml:"ipoib"`
}

// DeviceIntent is the intent for one device and, optionally, its ports (by port number as a string).
type DeviceIntent struct {
	Fabric string                `json:"fabric,omitempty" yaml:"fabric"`
	Ports  map[string]PortIntent `json:"ports,omitempty" yaml:"ports"`
}

// PortIntent is the intent for one port.
type PortIntent struct {
	Fabric string `json:"fabric,omitempty" yaml:"fabric"`
	// Unused marks a port that is deliberately not cabled: its being down is not a finding.
	Unused bool `json:"unused,omitempty" yaml:"unused"`
}

// IPoIBIntent is the IPoIB policy: ipv6 "disabled" or "enabled", mode "connected" or "datagram", mtu.
type IPoIBIntent struct {
	IPv6 string `json:"ipv6,omitempty" yaml:"ipv6"`
	Mode string `json:"mode,omitempty" yaml:"mode"`
	MTU  *int   `json:"mtu,omitempty" yaml:"mtu"`
}
