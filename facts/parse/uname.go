package parse

import (
	"strings"

	"github.com/rdmadoctor/rdmadoctor/facts"
)

// Uname parses `uname -a` ("Linux node01 5.4.0-97-generic #110-Ubuntu SMP ... GNU/Linux"),
// `uname -r` (the release alone) and /etc/hostname or `hostname` (the name alone), from the first
// non-empty line. It returns a Host with Hostname and Kernel for `uname -a`, Kernel for a lone
// release ("<digits>.<digit>..."), and Hostname for any other lone word. Several words that are
// not `uname -a` are an error naming the line.
func Uname(b []byte) (facts.Host, error) {
	var h facts.Host
	for _, l := range Lines(b) {
		f := strings.Fields(l.Text)
		switch {
		case len(f) == 0:
			continue
		case len(f) >= 3 && f[0] == "Linux":
			h.Hostname, h.Kernel = f[1], f[2]
			h.Evidence.Set("hostname", l.Evidence())
			h.Evidence.Set("kernel", l.Evidence())
		case len(f) == 1 && looksLikeRelease(f[0]):
			h.Kernel = f[0]
			h.Evidence.Set("kernel", l.Evidence())
		case len(f) == 1:
			h.Hostname = f[0]
			h.Evidence.Set("hostname", l.Evidence())
		default:
			return h, l.Errorf("neither `uname -a`, a kernel release nor a host name")
		}
		return h, nil
	}
	return h, nil
}

// looksLikeRelease is true for "5.4.0-97-generic", "6.8.0", "4.18.0-513.el8.x86_64": it starts
// with "<digits>.<digit>".
func looksLikeRelease(s string) bool {
	major, rest, ok := strings.Cut(s, ".")
	return ok && isDigits(major) && len(rest) > 0 && rest[0] >= '0' && rest[0] <= '9'
}
