package live

import (
	"time"

	"go.yaml.in/yaml/v3"
)

// MetaFile is the name of the gather metadata file at the snapshot's root.
const MetaFile = "rdmadoctor.yaml"

// Meta is rdmadoctor.yaml: how the snapshot was taken.
type Meta struct {
	Tool struct {
		Name    string `yaml:"name"`
		Version string `yaml:"version"`
	} `yaml:"tool"`
	// Time is when the gather started (RFC 3339, UTC).
	Time time.Time `yaml:"time"`
	// Argv is the rdmadoctor command line.
	Argv []string `yaml:"argv,omitempty"`
	// Root is the directory sys/, proc/, etc/ and var/ were read from.
	Root            string  `yaml:"root"`
	DurationSeconds float64 `yaml:"duration_seconds"`
	TimeoutSeconds  float64 `yaml:"timeout_seconds"`
	// Redacted is true when host names, addresses, GUIDs and serials were replaced.
	Redacted bool `yaml:"redacted"`
	// Sample describes the second counter read of --sample; nil without it.
	Sample *SampleMeta `yaml:"sample,omitempty"`
	// Found is what discovery saw before running anything.
	Found struct {
		RDMADevices []string `yaml:"rdma_devices"`
		ActiveIB    []string `yaml:"active_ib_ports"`
		MellanoxPFs []string `yaml:"mellanox_pfs"`
		MellanoxVFs []string `yaml:"mellanox_vfs"`
		Netdevs     []string `yaml:"netdevs"`
	} `yaml:"found"`
	Commands   []Run        `yaml:"commands"`
	Unreadable []Unreadable `yaml:"unreadable,omitempty"`
}

// SampleMeta is the --sample layout: the second read lives under Dir with the same relative
// paths as the first (sys/class/infiniband/.../counters, sos_commands/networking/ethtool_-S_*).
type SampleMeta struct {
	Dir             string  `yaml:"dir"`
	IntervalSeconds float64 `yaml:"interval_seconds"`
}

// ParseMeta reads rdmadoctor.yaml.
func ParseMeta(b []byte) (*Meta, error) {
	var m Meta
	if err := yaml.Unmarshal(b, &m); err != nil {
		return nil, err
	}
	return &m, nil
}

func (m *Meta) marshal() []byte {
	b, err := yaml.Marshal(m)
	if err != nil {
		// Meta holds only strings, numbers and slices of them.
		panic(err)
	}
	return b
}
