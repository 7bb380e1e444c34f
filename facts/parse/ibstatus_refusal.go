package parse

import (
	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/internal/lazyregexp"
)

// ibstatusRefusalRe is the ibstatus script's error when /sys/class/infiniband holds no device
// (or not the one asked for): "Fatal error:  device '*': sys files not found
// (/sys/class/infiniband/*/ports)" (rdma-core infiniband-diags/scripts/ibstatus).
var ibstatusRefusalRe = lazyregexp.New(`^Fatal error: +device '[^']*': sys files not found`)

// IBStatusRefusal returns ibstatus's own "sys files not found" error with its line, or nil:
// the kernel has registered no RDMA device (of that name).
func IBStatusRefusal(b []byte) *facts.ToolRefusal {
	for _, l := range Lines(b) {
		if ibstatusRefusalRe.MatchString(l.Text) {
			return &facts.ToolRefusal{Message: l.Text, Evidence: l.Evidence()}
		}
	}
	return nil
}
