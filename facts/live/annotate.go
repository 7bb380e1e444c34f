package live

import (
	"io/fs"
	"path"
	"slices"
	"strings"
	"syscall"

	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/facts/build"
)

// notInSnapshot is how build.Snapshot words a source it found no file for.
const notInSnapshot = "not in snapshot"

// Annotate explains, from a gather's metadata, the sources build.Snapshot could only call "not in
// snapshot": a tool that is not installed, a command killed at its timeout, a per-port or
// per-function command with nothing to run on, a file absent from the node. Commands that
// failed are added as sources of their own, named by their command line, and so are the files
// of Meta.Unreadable (named by path; a copy abandoned at the deadline by its task, e.g.
// HostFiles, for every spec it copies), status timeout for a copy the deadline stopped, error
// for one refused or failed (a FIFO, a link leaving the root, EACCES; not EINVAL, which sysfs
// returns for an attribute without a value in the device's state). The source of an
// output cut at the gather (Run.Truncated) is partial (cutShort).
func Annotate(s *facts.Snapshot, m *Meta) {
	if m == nil {
		return
	}
	explained := map[string][]facts.Source{}
	cut := map[string]string{} // file -> why the output is cut
	for _, r := range m.Commands {
		if r.Status == RanOK && r.Truncated && r.File != "" {
			cut[r.File] = r.Error
		}
		if r.Status == RanOK {
			continue
		}
		name := SpecForArgv(r.Argv)
		if name == "" {
			continue
		}
		status := facts.StatusError
		switch r.Status {
		case RanMissing:
			status = facts.StatusMissing
		case RanTimeout, RanNotRun:
			status = facts.StatusTimeout
		}
		explained[name] = append(explained[name], facts.Source{Name: name, Origin: strings.Join(r.Argv, " "), Status: status, Error: r.Error})
	}
	for _, u := range m.Unreadable {
		if u.Error == syscall.EINVAL.Error() {
			// A sysfs attribute with no value in this state (carrier of an interface that is
			// down, a counter the driver does not keep): kept in rdmadoctor.yaml, not a gap.
			continue
		}
		status := facts.StatusError
		if strings.HasPrefix(u.Error, Abandoned) || u.Error == NotStarted {
			status = facts.StatusTimeout
		}
		for _, name := range copiedSpecs(u.Path) {
			explained[name] = append(explained[name], facts.Source{Name: name, Origin: u.Path, Status: status,
				Error: facts.Clip(u.Error, facts.MaxMessageBytes)})
		}
	}
	why := notRunReasons(m)
	var out []facts.Source
	for _, src := range s.Sources {
		if why, ok := cut[src.Origin]; ok {
			src = cutShort(src, why)
		}
		if src.Status != facts.StatusMissing || !strings.HasPrefix(src.Error, notInSnapshot) {
			out = append(out, src)
			continue
		}
		if ex, ok := explained[src.Name]; ok {
			out = append(out, ex...)
			delete(explained, src.Name)
			continue
		}
		if reason, ok := why[src.Name]; ok {
			src.Error = reason
		} else {
			src.Error = notCollected(src.Name, m.Root)
		}
		out = append(out, src)
	}
	// Failures of sources that other files of the same spec did provide.
	for _, ex := range explained {
		out = append(out, ex...)
	}
	s.Sources = out
	s.Available = facts.Available(s.Sources)
}

// cutShort records in src, the source of an output cut at the gather, that only its start was
// read, why being the command's error in the metadata ("output truncated at 4096 bytes: the
// gather's output budget ... was spent"): a source read ok or partly is partial, that error
// first, so the report is incomplete; any other status keeps its error, and the note says it.
func cutShort(src facts.Source, why string) facts.Source {
	msg := why + "; the rest was not gathered"
	if !src.ReadInPart(msg) {
		src.Note = facts.Clip(strings.TrimSpace(src.Note+" "+msg), facts.MaxMessageBytes)
	}
	return src
}

// AnnotateFS applies Annotate with the rdmadoctor.yaml of fsys, when it has one (a gather output).
func AnnotateFS(s *facts.Snapshot, fsys fs.FS) {
	b, err := fs.ReadFile(fsys, MetaFile)
	if err != nil {
		return
	}
	if m, err := ParseMeta(b); err == nil {
		Annotate(s, m)
	}
}

// SpecForArgv names the spec that reads a command's output.
func SpecForArgv(argv []string) string {
	return build.SpecOf(path.Join("sos_commands", build.Mangle(strings.Join(argv, " "))))
}

// notRunReasons says, per spec, why its per-object commands were not planned: the live gather
// found no object of their scope (build.LiveCommand.Per).
func notRunReasons(m *Meta) map[string]string {
	noIB := "not run: no ACTIVE InfiniBand port (sos and rdmadoctor query the fabric only from ACTIVE ports)"
	if len(m.Found.RDMADevices) == 0 {
		noIB = "not run: no RDMA device in " + path.Join(m.Root, "sys/class/infiniband")
	}
	none := map[build.Scope]string{}
	if len(m.Found.RDMADevices) == 0 {
		none[build.PerDevice] = "not run: no RDMA device in " + path.Join(m.Root, "sys/class/infiniband")
	}
	if len(m.Found.ActiveIB) == 0 {
		none[build.PerActiveIBPort] = noIB
	}
	if len(m.Found.MellanoxPFs) == 0 {
		none[build.PerPF] = "not run: no Mellanox (15b3) physical function in " + path.Join(m.Root, "sys/bus/pci/devices")
	}
	// Netdevs without a device behind them get no command; Found lists them all.
	none[build.PerNetdev] = "not run: no network interface with a device in " + path.Join(m.Root, "sys/class/net")
	why := map[string]string{}
	for _, sp := range build.Specs() {
		for _, lc := range sp.Live {
			if reason, ok := none[lc.Per]; ok {
				if _, set := why[sp.Name]; !set {
					why[sp.Name] = reason
				}
			}
		}
	}
	return why
}

// notCollected explains a missing source that no live command feeds: a file absent from the
// node, or an input only captures and sosreports can provide.
func notCollected(name, root string) string {
	for _, sp := range build.Specs() {
		if sp.Name != name {
			continue
		}
		switch {
		case sp.Root == build.SampleRoot:
			return "not sampled: counter rates need two reads, rdmadoctor gather --sample DURATION"
		case sp.Root != "":
			return "not present on this node: " + path.Join(root, sp.Root)
		case len(sp.Paths) > 0:
			return "not present on this node: " + path.Join(root, sp.Paths[0])
		}
		msg := "not collected by rdmadoctor gather"
		if sp.MissingHint != "" {
			msg += ": " + sp.MissingHint
		}
		return msg
	}
	return "not collected by rdmadoctor gather"
}

// copiedSpecs names the specs that read what a copy recorded as unreadable copied: a file or
// directory relative to the root (SpecOf), or HostFiles, every spec of hostPatterns and hostLog.
func copiedSpecs(p string) []string {
	if p != HostFiles {
		if name := build.SpecOf(p); name != "" {
			return []string{name}
		}
		return nil
	}
	var out []string
	for _, pat := range append(hostPatterns[:len(hostPatterns):len(hostPatterns)], hostLog) {
		if name := build.SpecOf(pat); name != "" && !slices.Contains(out, name) {
			out = append(out, name)
		}
	}
	return out
}
