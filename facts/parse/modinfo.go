package parse

import (
	"path"
	"strings"

	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/internal/lazyregexp"
)

// modinfoNotFoundRe is kmod's refusal, "modinfo: ERROR: Module nv_peer_mem not found.".
var modinfoNotFoundRe = lazyregexp.New(`^modinfo: ERROR: Module (\S+) not found\.?$`)

// Modinfo parses `modinfo <module>...` (kmod tools/modinfo.c, man modinfo(8)): per module a
// block of "key:  value" lines, padded to a column, that starts with its file,
//
//	filename:       /lib/modules/4.15.0-46-generic/updates/dkms/nv_peer_mem.ko
//	version:        1.0-8
//	depends:        ib_core
//	name:           nv_peer_mem
//	vermagic:       4.15.0-46-generic SMP mod_unload
//
// (keys such as parm, alias, signer repeat or are empty, and signature's indented continuation
// lines, are ignored), and kmod's refusal
// for a module that is not installed, "modinfo: ERROR: Module nv_peer_mem not found.", which
// becomes a ModuleInfo with NotFound set. A line that is neither is a problem of that line
// (Problems); the modules read are kept.
func Modinfo(b []byte) ([]facts.ModuleInfo, error) {
	var out []facts.ModuleInfo
	var probs problems
	var cur *facts.ModuleInfo
	for _, l := range Lines(b) {
		t := strings.TrimRight(l.Text, " \t\r")
		if strings.TrimSpace(t) == "" {
			continue
		}
		if m := modinfoNotFoundRe.FindStringSubmatch(strings.TrimSpace(t)); m != nil {
			mi := facts.ModuleInfo{Name: moduleName(m[1]), NotFound: true}
			mi.Evidence.Set("name", l.Evidence())
			mi.Evidence.Set("not_found", l.Evidence())
			out = append(out, mi)
			cur = nil
			continue
		}
		if cur != nil && (t[0] == ' ' || t[0] == '\t') {
			continue // a continuation of the key before (signature: hex runs over lines)
		}
		key, val, ok := strings.Cut(t, ":")
		if !ok || key == "" || strings.ContainsAny(key, " \t") {
			probs.add(l, "not a modinfo \"key: value\" line")
			continue
		}
		val = strings.TrimSpace(val)
		if key == "filename" {
			out = append(out, facts.ModuleInfo{Filename: val, Name: moduleName(koBase(val))})
			cur = &out[len(out)-1]
			cur.Evidence.Set("filename", l.Evidence())
			cur.Evidence.Set("name", l.Evidence())
			continue
		}
		if cur == nil {
			probs.add(l, "modinfo field before any filename: line")
			continue
		}
		switch key {
		case "name":
			cur.Name = moduleName(val)
			cur.Evidence["name"] = l.Evidence()
		case "version":
			cur.Version = val
			cur.Evidence.Set("version", l.Evidence())
		case "vermagic":
			cur.Vermagic = val
			cur.Evidence.Set("vermagic", l.Evidence())
		case "depends":
			for _, d := range strings.Split(val, ",") {
				if d = strings.TrimSpace(d); d != "" {
					cur.Depends = append(cur.Depends, moduleName(d))
				}
			}
			cur.Evidence.Set("depends", l.Evidence())
		}
	}
	return out, probs.err()
}

// koBase is a module file's name without directory and .ko[.xz|.zst|.gz] suffix.
func koBase(p string) string {
	b := path.Base(p)
	if i := strings.Index(b, ".ko"); i > 0 {
		b = b[:i]
	}
	return b
}

// moduleName is a module name as lsmod prints it: modprobe and modinfo accept "nvidia-peermem"
// for the module named nvidia_peermem.
func moduleName(s string) string { return strings.ReplaceAll(strings.Trim(s, "'\""), "-", "_") }
