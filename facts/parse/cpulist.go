package parse

import (
	"fmt"
	"strconv"
	"strings"
)

// MaxCPU bounds the CPU numbers a cpulist may name; larger values are rejected so a corrupt
// file cannot make the expansion allocate without limit.
const MaxCPU = 1 << 16

// CPUList expands a kernel cpulist such as "0-7,16,18-19" (sysfs local_cpulist,
// /proc/irq/N/smp_affinity_list; format: Documentation/admin-guide/kernel-parameters.rst
// "cpu lists") into sorted, de-duplicated CPU numbers. An empty list returns nil.
func CPUList(s string) ([]int, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return nil, nil
	}
	seen := map[int]bool{}
	var out []int
	for _, part := range strings.Split(s, ",") {
		lo, hi, err := cpuRange(strings.TrimSpace(part))
		if err != nil {
			return nil, fmt.Errorf("cpulist %q: %w", s, err)
		}
		for c := lo; c <= hi; c++ {
			if !seen[c] {
				seen[c] = true
				out = append(out, c)
			}
		}
	}
	sortInts(out)
	return out, nil
}

func cpuRange(p string) (lo, hi int, err error) {
	a, b, isRange := strings.Cut(p, "-")
	if lo, err = cpuNumber(a); err != nil {
		return 0, 0, err
	}
	if !isRange {
		return lo, lo, nil
	}
	if hi, err = cpuNumber(b); err != nil {
		return 0, 0, err
	}
	if hi < lo {
		return 0, 0, fmt.Errorf("range %q runs backwards", p)
	}
	return lo, hi, nil
}

func cpuNumber(s string) (int, error) {
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("%q is not a CPU number", s)
	}
	if n > MaxCPU {
		return 0, fmt.Errorf("CPU %d above %d", n, MaxCPU)
	}
	return n, nil
}
