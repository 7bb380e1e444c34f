package parse

import (
	"strings"

	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/internal/lazyregexp"
)

var (
	// modprobeInsertRe is kmod's "modprobe: ERROR: could not insert 'nv_peer_mem': Invalid argument".
	modprobeInsertRe = lazyregexp.New(`^modprobe: ERROR: could not insert '([^']+)': (.+)$`)
	// modprobeInsmodRe is -v's "insmod /lib/modules/3.10.0-1127.19.1.el7.x86_64/extra/nv_peer_mem.ko"
	// (parameters may follow the path).
	modprobeInsmodRe = lazyregexp.New(`^insmod (/\S+\.ko(?:\.\w+)?)(?:\s.*)?$`)
)

// Modprobe parses what `modprobe [-v] <module>` printed (kmod tools/modprobe.c): with -v one
// "insmod <path.ko>" line per module it loads (dependencies first), and on failure
//
//	modprobe: ERROR: could not insert 'nv_peer_mem': Unknown symbol in module, or unknown parameter (see dmesg)
//
// Each module named becomes one ModprobeRun, in the order first named. Any other line is a
// problem of that line (Problems); the runs read are kept.
func Modprobe(b []byte) ([]facts.ModprobeRun, error) {
	var out []facts.ModprobeRun
	var probs problems
	run := func(name string) *facts.ModprobeRun {
		for i := range out {
			if out[i].Module == name {
				return &out[i]
			}
		}
		out = append(out, facts.ModprobeRun{Module: name})
		return &out[len(out)-1]
	}
	for _, l := range Lines(b) {
		t := strings.TrimSpace(l.Text)
		switch m := modprobeInsertRe.FindStringSubmatch(t); {
		case t == "":
		case m != nil:
			r := run(moduleName(m[1]))
			r.Error = strings.TrimSpace(m[2])
			r.Evidence.Set("error", l.Evidence())
		case modprobeInsmodRe.MatchString(t):
			p := modprobeInsmodRe.FindStringSubmatch(t)[1]
			r := run(moduleName(koBase(p)))
			r.Inserted = append(r.Inserted, p)
			r.Evidence.Set("inserted", l.Evidence())
		default:
			probs.add(l, "not a modprobe line (insmod <file>, or modprobe: ERROR: could not insert ...)")
		}
	}
	return out, probs.err()
}
