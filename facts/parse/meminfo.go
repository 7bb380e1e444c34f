package parse

import (
	"strconv"
	"strings"

	"github.com/rdmadoctor/rdmadoctor/facts"
)

// Meminfo reads the facts rdmadoctor needs from /proc/meminfo (kernel
// Documentation/filesystems/proc.rst):
//
//	HugePages_Total:       0
//	Hugepagesize:       2048 kB
//
// It returns a Host holding HugePagesTotal (a page count, not a size). Other keys are ignored; a
// HugePages_Total that is not a number is an error naming the line.
func Meminfo(b []byte) (facts.Host, error) {
	var h facts.Host
	for _, l := range Lines(b) {
		key, val, ok := keyValue(l.Text)
		if !ok || key != "HugePages_Total" {
			continue
		}
		n, err := strconv.Atoi(strings.Fields(val + " x")[0])
		if err != nil {
			return h, l.Errorf("HugePages_Total %q is not a number", val)
		}
		h.HugePagesTotal = &n
		h.Evidence.Set("hugepages_total", l.Evidence())
	}
	return h, nil
}
