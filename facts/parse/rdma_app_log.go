package parse

import (
	"fmt"
	"net"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/internal/lazyregexp"
)

// RDMAAppLogOutput is what a job's output says about the user-space RDMA stack.
type RDMAAppLogOutput struct {
	// Memlock is the locked-memory limit the job ran with, when a message states it
	// (libibverbs RLIMIT_MEMLOCK warning, UCX "current: N kbytes"); nil otherwise.
	Memlock *facts.MemlockLimit
	// Messages are the stack's own warnings and errors, one per line, Tool "libibverbs",
	// "librdmacm" or "ucx".
	Messages []facts.ToolRefusal
	// NCCLNetdevs are the interfaces NCCL's INFO lines say the job bootstraps and connects over.
	NCCLNetdevs []facts.NCCLNetdev
}

var (
	// ibvMemlockRe is libibverbs' check_memlock_limit() warning (rdma-core libibverbs/init.c):
	// "libibverbs: Warning: RLIMIT_MEMLOCK is 32768 bytes."
	ibvMemlockRe = lazyregexp.New(`RLIMIT_MEMLOCK is (\d+) bytes`)
	// ucxLogRe is a UCX log line (ucs/debug/log.c): "[1736959004.001121] [node00:29714:0]
	// ib_iface.c:1060 UCX  ERROR ibv_create_cq(cqe=4096) failed: ...".
	ucxLogRe = lazyregexp.New(`\bUCX\s+(ERROR|WARN)\s+(.*)$`)
	// ucxMemlockRe is the limit UCX quotes in its ENOMEM hint (uct/ib/base/ib_log.c):
	// "Please set max locked memory (ulimit -l) to 'unlimited' (current: 64 kbytes)".
	ucxMemlockRe = lazyregexp.New(`max locked memory .*\(current: (\d+) kbytes\)`)
	// ncclUsingRe is an NCCL_DEBUG=INFO line naming its sockets' interfaces (src/bootstrap.cc,
	// src/transport/net_socket.cc, net_ib.cc): "node01:180172:180172 [0] NCCL INFO Bootstrap :
	// Using ib0:fe80::a288:c203:d2:aaf2%ib0<0>", "... NCCL INFO NET/Socket : Using [0]eth0:172.17.0.2<0>",
	// "... NCCL INFO NET/IB : Using [0]mlx5_3:1/IB [1]mlx5_2:1/IB ; OOB ib0:11.5.5.50<0>".
	ncclUsingRe = lazyregexp.New(`\bNCCL INFO (Bootstrap|NET/Socket|NET/IB) : Using (.*)$`)
	// ncclHostRe is the "host:pid:tid [dev] NCCL" prefix NCCL's logger writes (src/debug.cc).
	ncclHostRe = lazyregexp.New(`(?:^|[\s>:\]])([A-Za-z0-9][A-Za-z0-9._-]*):\d+:\d+ \[\d+\] NCCL `)
	// ncclMaskedRe is an address a reporter masked ("X.X.X.X", "xxx.xxx.xxx.xxx").
	ncclMaskedRe = lazyregexp.New(`^[Xx]+([.:][Xx]+)+$`)
	// ncclIfRe is one "[0]eth0:172.17.0.2<0>" or "ib0:fe80::1%ib0<0>" item: index, name, address.
	ncclIfRe = lazyregexp.New(`^(?:\[\d+\])?([^:\s\[\]]+):(\S+?)(?:<\d+>)?$`)
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
// and NCCL's (NCCL_DEBUG=INFO) lines naming the interfaces of its bootstrap and out-of-band
// sockets, read into NCCLNetdevs:
//
//	node01:180172:180172 [0] NCCL INFO Bootstrap : Using ib0:fe80::a288:c203:d2:aaf2%ib0<0>
//	26a46eb2b1d3:111329:111329 [0] NCCL INFO NET/Socket : Using [0]eth0:172.17.0.2<0>
//	e05r3n09:929:929 [2] NCCL INFO NET/IB : Using [0]mlx5_3:1/IB [1]mlx5_2:1/IB ; OOB ib0:11.5.5.50<0>
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
		if strings.Contains(t, "NCCL INFO ") {
			nds, bad := ncclNetdevs(t, l)
			out.NCCLNetdevs = append(out.NCCLNetdevs, nds...)
			if bad != "" {
				probs.add(l, "%s", bad)
			}
			continue
		}
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

// ncclNetdevs returns the interfaces an NCCL INFO line names; nil for other NCCL lines. bad
// says why a line that names interfaces could not be fully used (a byte that is not UTF-8, an
// item or an address that does not parse); a masked address ("X.X.X.X") is kept unjudged.
func ncclNetdevs(t string, l Line) (out []facts.NCCLNetdev, bad string) {
	m := ncclUsingRe.FindStringSubmatch(t)
	if m == nil {
		return nil, ""
	}
	if strings.ContainsRune(t, utf8.RuneError) {
		bad = "holds a byte that is not UTF-8: the capture was damaged here"
	}
	use, items := "bootstrap", m[2]
	switch m[1] {
	case "NET/Socket":
		use = "socket"
	case "NET/IB":
		_, oob, ok := strings.Cut(items, "; OOB ")
		if !ok {
			return nil, bad
		}
		use, items = "oob", oob
	}
	host := ""
	if h := ncclHostRe.FindStringSubmatch(t); h != nil {
		host = h[1]
	}
	for _, it := range strings.Fields(items) {
		im := ncclIfRe.FindStringSubmatch(it)
		if im == nil {
			if bad == "" {
				bad = fmt.Sprintf("%q is not an interface:address item", it)
			}
			continue
		}
		nd := facts.NCCLNetdev{Host: host, Use: use, Netdev: im[1], Address: im[2], Evidence: l.Evidence()}
		ipText, _, _ := strings.Cut(im[2], "%") // the IPv6 zone (interface) NCCL appends
		if ip := net.ParseIP(ipText); ip != nil {
			nd.Family = "ipv6"
			if ip.To4() != nil {
				nd.Family = "ipv4"
			}
			ll := ip.IsLinkLocalUnicast()
			nd.LinkLocal = &ll
		} else if !ncclMaskedRe.MatchString(im[2]) && bad == "" {
			bad = fmt.Sprintf("address %q does not parse", im[2])
		}
		out = append(out, nd)
	}
	return out, bad
}
