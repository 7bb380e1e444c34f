package parse

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/rdmadoctor/rdmadoctor/facts"
)

// RDMAAppLogOutput is what a job's output says about the user-space RDMA stack.
type RDMAAppLogOutput struct {
	// Memlock is the locked-memory limit the job ran with, when a message states it
	// (libibverbs RLIMIT_MEMLOCK warning, UCX "current: N kbytes"); nil otherwise.
	Memlock *facts.MemlockLimit
	// Messages are the stack's own warnings and errors, one per line, Tool "libibverbs",
	// "librdmacm" or "ucx".
	Messages []facts.ToolRefusal
}

var (
	// ibvMemlockRe is libibverbs' check_memlock_limit() warning (rdma-core libibverbs/init.c):
	// "libibverbs: Warning: RLIMIT_MEMLOCK is 32768 bytes."
	ibvMemlockRe = regexp.MustCompile(`RLIMIT_MEMLOCK is (\d+) bytes`)
	// ucxLogRe is a UCX log line (ucs/debug/log.c): "[1736959004.001121] [node00:29714:0]
	// ib_iface.c:1060 UCX  ERROR ibv_create_cq(cqe=4096) failed: ...".
	ucxLogRe = regexp.MustCompile(`\bUCX\s+(ERROR|WARN)\s+(.*)$`)
	// ucxMemlockRe is the limit UCX quotes in its ENOMEM hint (uct/ib/base/ib_log.c):
	// "Please set max locked memory (ulimit -l) to 'unlimited' (current: 64 kbytes)".
	ucxMemlockRe = regexp.MustCompile(`max locked memory .*\(current: (\d+) kbytes\)`)
)

// RDMAAppLog reads the output of an RDMA job or test program (mpirun, srun, NCCL/UCX programs)
// for the messages the user-space RDMA libraries print on stderr:
//
//	libibverbs: Warning: RLIMIT_MEMLOCK is 32768 bytes.
//	libibverbs: Warning: no userspace device-specific driver found for /sys/class/infiniband_verbs/uverbs0
//	libibverbs: Fatal: couldn't read uverbs ABI version.
//	librdmacm: couldn't read ABI version.
//	CMA: unable to open /dev/infiniband/rdma_cm
//	[1736959004.001121] [node00:29714:0]  ib_iface.c:1060 UCX  ERROR ibv_create_cq(cqe=4096) failed: Cannot allocate memory : Please set max locked memory (ulimit -l) to 'unlimited' (current: 64 kbytes)
//
// Sources: rdma-core libibverbs/init.c (check_memlock_limit, "no userspace device-specific
// driver", printed only with IBV_SHOW_WARNINGS in current releases), librdmacm/cma.c
// (check_abi_version, "CMA: unable to open"), UCX src/uct/ib/base/ib_iface.c and ib_log.c.
// Every other line (MPI banners, application output, shell prompts) is ignored; a job log
// without such messages gives an empty result, not an error. A log whose last line has no
// newline was cut (a program ends its lines; a capture stopped there, maybe mid-message and
// before the messages that followed): that is the problem of a partial read, what was read is kept.
func RDMAAppLog(b []byte) (RDMAAppLogOutput, error) {
	var out RDMAAppLogOutput
	var probs problems
	lines := Lines(b)
	for _, l := range lines {
		t := strings.TrimSpace(l.Text)
		tool, msg := appLogMessage(t)
		if tool == "" {
			continue
		}
		out.Messages = append(out.Messages, facts.ToolRefusal{Tool: tool, Message: msg, Evidence: l.Evidence()})
		if out.Memlock == nil {
			out.Memlock = appLogMemlock(t, l)
		}
	}
	probs.cut(b, lines, true)
	return out, probs.err()
}

// appLogMessage names the library a line comes from and its message; tool is "" for other lines.
func appLogMessage(t string) (tool, msg string) {
	switch {
	case strings.HasPrefix(t, "libibverbs:"):
		return "libibverbs", strings.TrimSpace(strings.TrimPrefix(t, "libibverbs:"))
	case strings.HasPrefix(t, "librdmacm:"):
		return "librdmacm", strings.TrimSpace(strings.TrimPrefix(t, "librdmacm:"))
	case strings.HasPrefix(t, "CMA: "):
		return "librdmacm", t
	}
	if m := ucxLogRe.FindStringSubmatch(t); m != nil {
		return "ucx", m[1] + " " + strings.TrimSpace(m[2])
	}
	return "", ""
}

// appLogMemlock returns the locked-memory limit a message states, in KiB; nil when it states none.
func appLogMemlock(t string, l Line) *facts.MemlockLimit {
	if m := ibvMemlockRe.FindStringSubmatch(t); m != nil {
		if n, err := strconv.ParseInt(m[1], 10, 64); err == nil {
			kib := n / 1024
			return &facts.MemlockLimit{SoftKiB: &kib, Evidence: l.Evidence()}
		}
	}
	if m := ucxMemlockRe.FindStringSubmatch(t); m != nil {
		if n, err := strconv.ParseInt(m[1], 10, 64); err == nil {
			return &facts.MemlockLimit{SoftKiB: &n, Evidence: l.Evidence()}
		}
	}
	return nil
}
