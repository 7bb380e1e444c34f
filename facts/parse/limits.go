package parse

import (
	"strconv"
	"strings"

	"github.com/rdmadoctor/rdmadoctor/facts"
)

// Limits parses /etc/security/limits.conf and /etc/security/limits.d/*.conf (limits.conf(5),
// linux-pam modules/pam_limits):
//
//	#<domain>      <type>  <item>         <value>
//	*               hard    memlock         unlimited
//	@audio          -       memlock         65536
//
// Comments and blank lines are skipped. Size values are KiB; "unlimited", "infinity" and "-1"
// set Unlimited, other non-numbers (nice "-20" is a number) leave ValueKiB nil. A rule line with
// fewer than four fields is an error naming the line; pam_limits ignores such lines too, but a
// capture that has them is worth reporting.
func Limits(b []byte) ([]facts.LimitRule, error) {
	var out []facts.LimitRule
	for _, l := range Lines(b) {
		t := l.Text
		if i := strings.IndexByte(t, '#'); i >= 0 {
			t = t[:i]
		}
		f := strings.Fields(t)
		if len(f) == 0 {
			continue
		}
		if len(f) < 4 {
			return out, l.Errorf("want <domain> <type> <item> <value>")
		}
		r := facts.LimitRule{Domain: f[0], Type: f[1], Item: f[2], Evidence: l.Evidence()}
		switch v := f[3]; v {
		case "unlimited", "infinity", "-1":
			r.Unlimited = true
		default:
			if n, err := strconv.ParseInt(v, 10, 64); err == nil {
				r.ValueKiB = &n
			}
		}
		out = append(out, r)
	}
	return out, nil
}
