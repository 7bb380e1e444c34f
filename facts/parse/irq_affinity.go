package parse

import "strings"

// IRQAffinityList parses /proc/irq/<N>/smp_affinity_list or effective_affinity_list (a cpulist
// such as "0-7,16"; Documentation/core-api/irq/irq-affinity.rst) into the list as printed and
// its expansion.
func IRQAffinityList(b []byte) (list string, cpus []int, err error) {
	list = strings.TrimSpace(string(b))
	cpus, err = CPUList(list)
	if err != nil {
		return "", nil, err
	}
	return list, cpus, nil
}
