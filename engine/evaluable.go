package engine

import "github.com/rdmadoctor/rdmadoctor/facts"

// rdmaGroups are the fact groups that only exist where there is RDMA hardware or software.
var rdmaGroups = []string{"rdma_devices", "ib_ports", "gids", "port_counters", "hw_counters", "nvconfig",
	"firmware_query", "mlxlink", "qos", "opensm", "iblinkinfo", "sminfo", "perfquery", "fabric_nodes", "mst_status"}

// NoRDMAFacts reports whether the snapshot holds nothing about RDMA at all: no RDMA device, no
// InfiniBand or Mellanox PCI function, and no input of an RDMA fact group that was read. The CLI
// exits 3 when this holds and no rule found anything.
func NoRDMAFacts(s *facts.Snapshot) bool {
	if len(s.Devices) > 0 {
		return false
	}
	for _, fn := range s.PCI {
		if fn.ClassID == "0207" || fn.VendorID == "15b3" {
			return false
		}
	}
	specs := map[string]bool{}
	for _, g := range rdmaGroups {
		for _, sp := range facts.FactGroups[g] {
			specs[sp] = true
		}
	}
	for _, src := range s.Sources {
		if src.Status == facts.StatusOK && specs[src.Name] {
			return false
		}
	}
	return true
}
