package parse

import (
	"strconv"
	"strings"

	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/internal/lazyregexp"
)

// Interrupts parses /proc/interrupts (kernel/irq/proc.c show_interrupts):
//
//	         CPU0       CPU1       CPU2
//	98:          0      23274          0  IR-PCI-MSIX-0000:01:00.0    0-edge      mlx5_async0@pci:0000:01:00.0
//	28:     123648          0          0   PCI-MSI-edge      mlx5_comp0@pci:8b76:00:02.0
//
// It returns every numbered IRQ line; callers keep the ones they need (Relevant). Without the
// CPU header (a grep excerpt) the CPU count is the number of count columns. Kind is comp, async
// or ctrl from mlx4/mlx5 action names; PCIAddress comes from "@pci:<bdf>" or the MSI chip name.
// Lines that are not numbered IRQs (NMI, LOC, ERR ...) are skipped.
func Interrupts(b []byte) ([]facts.IRQ, error) {
	var out []facts.IRQ
	ncpu := 0
	for _, l := range Lines(b) {
		f := strings.Fields(l.Text)
		if len(f) == 0 {
			continue
		}
		if strings.HasPrefix(f[0], "CPU") && !strings.HasSuffix(f[0], ":") {
			ncpu = len(f)
			continue
		}
		num, err := strconv.Atoi(strings.TrimSuffix(f[0], ":"))
		if err != nil || !strings.HasSuffix(f[0], ":") {
			continue
		}
		q := facts.IRQ{Number: num}
		i := 1
		for ; i < len(f) && (ncpu == 0 || i <= ncpu); i++ {
			c, err := strconv.ParseInt(f[i], 10, 64)
			if err != nil {
				break
			}
			q.PerCPU = append(q.PerCPU, c)
			q.Total += c
		}
		rest := f[i:]
		var chip string
		if len(rest) > 0 {
			chip, rest = rest[0], rest[1:]
		}
		if len(rest) > 0 && irqHandlerRe.MatchString(rest[0]) {
			rest = rest[1:]
		}
		q.Name = strings.Join(rest, " ")
		q.Kind = irqKind(q.Name)
		if m := irqPCIRe.FindStringSubmatch(q.Name); m != nil {
			q.PCIAddress = strings.ToLower(m[1])
		} else if m := irqPCIRe.FindStringSubmatch(chip); m != nil {
			q.PCIAddress = strings.ToLower(m[1])
		}
		ev := l.Evidence()
		q.Evidence.Set("name", ev)
		q.Evidence.Set("per_cpu", ev)
		out = append(out, q)
	}
	return out, nil
}

var (
	irqHandlerRe = lazyregexp.New(`^(\d+-)?(edge|level|fasteoi|simple|percpu|none)$`)
	irqPCIRe     = lazyregexp.New(`([0-9a-fA-F]{4}:[0-9a-fA-F]{2}:[0-9a-fA-F]{2}\.[0-7])`)
)

// irqKind classifies mlx4/mlx5 action names: "mlx5_comp3@pci:...", "mlx4-comp-0@pci:...",
// "mlx5_async17@pci:...", "mlx5_cmd_eq@pci:..." (ctrl); other names are "other".
func irqKind(name string) string {
	n := strings.ToLower(name)
	switch {
	case !strings.HasPrefix(n, "mlx"):
		return "other"
	case strings.Contains(n, "comp"):
		return "comp"
	case strings.Contains(n, "async"):
		return "async"
	case strings.Contains(n, "cmd") || strings.Contains(n, "pages") || strings.Contains(n, "ctrl"):
		return "ctrl"
	}
	return "other"
}

// RelevantIRQ reports whether an IRQ belongs to an RDMA or NIC driver: mlx*/ib* action names,
// names with "@pci:", or names that contain one of the given netdev or driver names.
func RelevantIRQ(q facts.IRQ, names []string) bool {
	n := strings.ToLower(q.Name)
	if strings.HasPrefix(n, "mlx") || strings.HasPrefix(n, "ib") || strings.Contains(n, "@pci:") {
		return true
	}
	for _, s := range names {
		if s != "" && strings.Contains(q.Name, s) {
			return true
		}
	}
	return false
}
