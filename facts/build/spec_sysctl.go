package build

import (
	"errors"
	"io/fs"
	"strings"

	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/facts/parse"
)

// sysctlSniffRe is a `sysctl -a` line.
var sysctlSniffRe = mustSniff(`(?m)^(kernel|net|vm|fs)\.[a-z0-9_.-]+ = `)

func init() {
	register(
		Spec{
			Name:     "sysctl",
			Plugin:   "kernel",
			Commands: []string{"sysctl"},
			Sniff:    func(head []byte) bool { return len(sysctlSniffRe.FindAll(head, 5)) == 5 },
			// Host.Sysctls keeps every value; only the ones rules quote keep their line.
			Answered:    func(b []byte) bool { e, err := parse.Sysctl(b); return err == nil && len(e) > 0 },
			Apply:       applySysctl,
			MissingHint: "run `sysctl -a`",
			Groups:      []string{"sysctl"},
			Live:        []LiveCommand{{Alts: [][]string{{"sysctl", "-a"}}}},
			Tools:       []Tool{{Name: "sysctl", Package: "procps", Allow: []Grammar{{Bare: []string{"-a"}}}}},
		},
		Spec{
			Name:        "proc_sys",
			Root:        "proc/sys",
			Tree:        readProcSys,
			MissingHint: "copy /proc/sys (e.g. vm/max_map_count, net/core/rmem_max, net/ipv6/conf/*/disable_ipv6)",
			Groups:      []string{"sysctl"},
		},
	)
}

// sysctlEvidencePrefixes are the parameters whose lines are kept as evidence (rules quote them);
// the values of all parameters are kept in Host.Sysctls.
var sysctlEvidencePrefixes = []string{
	"net.core.", "net.ipv4.tcp_", "net.ipv6.conf.", "net.rdma_ucm.", "vm.", "kernel.numa_balancing",
	"kernel.osrelease", "kernel.hostname",
}

func keepSysctlEvidence(name string) bool {
	for _, p := range sysctlEvidencePrefixes {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return false
}

// applySysctl merges `sysctl -a` into Host.Sysctls (kernel.hostname and kernel.osrelease also give
// Hostname and Kernel) and sets each interface's DisableIPv6.
func applySysctl(s *facts.Snapshot, in Input) error {
	entries, err := parse.Sysctl(in.Data)
	if err != nil {
		return err
	}
	mergeSysctls(s, in, entries)
	return nil
}

func mergeSysctls(s *facts.Snapshot, in Input, entries []parse.SysctlEntry) {
	h := facts.Host{Sysctls: map[string]string{}}
	for _, e := range entries {
		h.Sysctls[e.Name] = e.Value
		if keepSysctlEvidence(e.Name) {
			h.Evidence.Set("sysctls."+e.Name, e.Evidence)
		}
		switch e.Name {
		case "kernel.hostname":
			h.Hostname = e.Value
			h.Evidence.Set("hostname", e.Evidence)
		case "kernel.osrelease":
			h.Kernel = e.Value
			h.Evidence.Set("kernel", e.Evidence)
		}
		if ifname, disabled, ok := parse.SysctlIPv6Disabled(e.Name, e.Value); ok {
			n := facts.Netdev{Name: ifname, DisableIPv6: &disabled}
			n.Evidence.Set("disable_ipv6", e.Evidence)
			addNetdev(s, in, n)
		}
	}
	mergeHost(s, in, h)
}

// readProcSys reads every file under proc/sys as a sysctl: "proc/sys/vm/max_map_count" is
// vm.max_map_count (a "." inside a path element, as in an interface "eth0.100", becomes "/", as
// sysctl prints it). Each value's evidence is its file (line 0).
func readProcSys(s *facts.Snapshot, fsys fs.FS) []facts.Source {
	const root = "proc/sys"
	var entries []parse.SysctlEntry
	var out []facts.Source
	err := fs.WalkDir(fsys, root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			out = append(out, facts.Source{Name: "proc_sys", Origin: p, Status: facts.StatusError, Error: err.Error(), RecognisedBy: "path"})
			return nil
		}
		if d.IsDir() || !d.Type().IsRegular() {
			return nil
		}
		b, err := readFile(fsys, p)
		if err != nil {
			if !errors.Is(err, fs.ErrNotExist) {
				out = append(out, facts.Source{Name: "proc_sys", Origin: p, Status: facts.StatusError, Error: err.Error(), RecognisedBy: "path"})
			}
			return nil
		}
		val := strings.TrimRight(string(b), "\n")
		first, _, _ := strings.Cut(val, "\n")
		entries = append(entries, parse.SysctlEntry{Name: procSysName(p, root), Value: val,
			Evidence: facts.Evidence{Source: "proc_sys", Path: p, Text: first}})
		return nil
	})
	if err != nil {
		return append(out, facts.Source{Name: "proc_sys", Origin: root, Status: facts.StatusError, Error: err.Error(), RecognisedBy: "path"})
	}
	if len(entries) == 0 {
		return append(out, facts.Source{Name: "proc_sys", Origin: root, Status: facts.StatusMissing, Error: "no files under proc/sys", RecognisedBy: "path"})
	}
	mergeSysctls(s, Input{Spec: "proc_sys", Path: root}, entries)
	return append(out, facts.Source{Name: "proc_sys", Origin: root, Status: facts.StatusOK, RecognisedBy: "path"})
}

func procSysName(p, root string) string {
	rel := strings.TrimPrefix(p, root+"/")
	parts := strings.Split(rel, "/")
	for i, e := range parts {
		parts[i] = strings.ReplaceAll(e, ".", "/")
	}
	return strings.Join(parts, ".")
}
