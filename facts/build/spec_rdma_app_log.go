package build

import (
	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/facts/parse"
)

// appLogSniffRe is a line of the user-space RDMA libraries in a job's output.
var appLogSniffRe = mustSniff(`(?m)^\s*(libibverbs: (Warning|Fatal)|librdmacm: |CMA: unable to open)|\bUCX\s+(ERROR|WARN)\s|\bNCCL (INFO|WARN) `)

func init() {
	register(Spec{
		Name:     "rdma_app_log",
		Commands: []string{"mpirun", "mpiexec", "srun", "orterun", "prun", "all_reduce_perf"},
		Sniff:    func(h []byte) bool { return appLogSniffRe.Match(h) },
		Apply:    applyRDMAAppLog,
		// Sniffed last, so that a tool output that carries such messages (ibv_devinfo) goes to its
		// own parser, and a measured `ulimit` wins over the limit a job message quotes.
		Priority:    90,
		MissingHint: "save the output of the failing job (mpirun/srun/NCCL/UCX program), including stderr",
		Groups:      []string{"memlock", "nccl_log"},
		NotLive:     "a job's own output, which only its user has",
	})
}

// applyRDMAAppLog adds the libibverbs/librdmacm/UCX messages of a job's output to
// Host.Userspace, the interfaces NCCL names to Host.NCCLNetdevs, and the locked-memory limit a message quotes to Host.Memlock.
func applyRDMAAppLog(s *facts.Snapshot, in Input) error {
	out, err := parse.RDMAAppLog(in.Data) // what parsed is kept; err names the cut
	mergeHost(s, in, facts.Host{Memlock: out.Memlock, Userspace: out.Messages, NCCLNetdevs: out.NCCLNetdevs})
	return err
}
