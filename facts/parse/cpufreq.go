package parse

import (
	"strings"

	"github.com/rdmadoctor/rdmadoctor/internal/lazyregexp"
)

// thpSelectedRe finds the bracketed choice in "always [madvise] never".
var thpSelectedRe = lazyregexp.New(`\[([a-z_+]+)\]`)

// ScalingGovernor reads /sys/devices/system/cpu/cpuN/cpufreq/scaling_governor (kernel
// Documentation/admin-guide/pm/cpufreq.rst): one governor name such as "performance",
// "powersave" or "schedutil". ok is false for an empty or multi-word file.
func ScalingGovernor(b []byte) (governor string, ok bool) {
	f := strings.Fields(string(b))
	if len(f) != 1 {
		return "", false
	}
	return f[0], true
}

// THP reads /sys/kernel/mm/transparent_hugepage/enabled (kernel
// Documentation/admin-guide/mm/transhuge.rst), "always [madvise] never": the selected mode is
// the bracketed one. ok is false when no choice is bracketed.
func THP(b []byte) (mode string, ok bool) {
	m := thpSelectedRe.FindStringSubmatch(string(b))
	if m == nil {
		return "", false
	}
	return m[1], true
}
