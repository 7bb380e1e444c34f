// Package diagnosis is the path from one node's snapshot to its report that `diagnose` and
// `fleet` share: read the snapshot, evaluate the rules, apply the site's ignore list and
// --min-severity, and tell a node with nothing about RDMA from one with bad input.
package diagnosis

import (
	"context"
	"io"
	"io/fs"
	"os"
	"slices"

	"github.com/rdmadoctor/rdmadoctor/engine"
	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/facts/build"
	"github.com/rdmadoctor/rdmadoctor/facts/live"
	"github.com/rdmadoctor/rdmadoctor/facts/source"
	"github.com/rdmadoctor/rdmadoctor/report"
)

// Open reads the snapshot at path (a folder, sosreport, gather output, .tar, .tar.gz, .tar.xz
// or one capture). The error names path when it cannot be opened or walked; files that were
// recognised but could not be read or parsed are in the snapshot's Sources, not errors.
func Open(path string) (*facts.Snapshot, error) {
	fsys, info, err := OpenSource(path)
	if err != nil {
		return nil, err
	}
	if c, ok := fsys.(io.Closer); ok {
		defer c.Close() // a folder's open descriptors: a fleet opens thousands of snapshots
	}
	return Build(fsys, info)
}

// OpenSource opens the snapshot at path with facts/source, refusing a folder, or an archive,
// that is a folder of several snapshots (a *build.SeveralSnapshotsError naming them: read as
// one node, its snapshots would be mixed up or left unread, and the report would say little or
// nothing about RDMA, or claim complete what it read of one of them). An archive is told by
// the same decision on its whole tree once read (source.Options.Check).
func OpenSource(path string) (fs.FS, facts.SourceInfo, error) {
	return OpenSourceWith(path, source.Options{})
}

// OpenSourceWith is OpenSource reading an archive with opt (diagnose's Seen); opt.Check is
// set here.
func OpenSourceWith(path string, opt source.Options) (fs.FS, facts.SourceInfo, error) {
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		if err := build.CheckOneSnapshot(os.DirFS(path), path); err != nil {
			return nil, facts.SourceInfo{Path: path}, err
		}
	}
	opt.Check = func(top fs.FS) error { return build.CheckOneArchive(top, path) }
	return source.OpenWith(path, opt)
}

// Build builds the snapshot of fsys (as facts/source opened it) and lets a gather output explain
// what it could not collect. A snapshot of which no file could be read (empty, or only links out
// of it) is a *NothingReadError naming its path.
func Build(fsys fs.FS, info facts.SourceInfo) (*facts.Snapshot, error) {
	s, err := build.Snapshot(fsys, info)
	if err != nil {
		return nil, err
	}
	if err := nothingRead(s); err != nil {
		return nil, err
	}
	live.AnnotateFS(s, fsys)
	return s, nil
}

// Options are what a run applies to each report after the rules.
type Options struct {
	// Ignore is the site's ignore list (.rdmadoctor.yaml), applied before MinSeverity so that
	// an ignored diagnosis never counts for --fail-on.
	Ignore []report.Ignore
	// MinSeverity hides the diagnoses below it (report.Report.HideBelow); "" hides none.
	MinSeverity string
	// Evaluated is the rules' evaluation made ahead of the report, on what an archive had kept
	// before it ended (engine.Engine.DiagnoseWith takes it when the rules see the same input),
	// or nil.
	Evaluated *engine.Evaluation
}

// Diagnose evaluates e on s and applies opts. version is written into the report.
func Diagnose(ctx context.Context, e *engine.Engine, s *facts.Snapshot, opts Options, version string) (*report.Report, error) {
	r, err := e.DiagnoseWith(ctx, s, opts.Evaluated)
	if err != nil {
		return nil, err
	}
	r.Tool.Version = version
	r.Ignore(opts.Ignore)
	if opts.MinSeverity != "" {
		r.HideBelow(opts.MinSeverity)
	}
	return r, nil
}

// DeviceListers are the inputs that list a node's RDMA devices: one of them refusing ("No IB
// devices found") is evidence that there is none; another tool's refusal (ethtool -a on a NIC
// without pause frames) says nothing about RDMA.
var DeviceListers = []string{"ibstat", "ibv_devinfo", "ibstatus", "ibv_devices", "ibdev2netdev", "rdma_link"}

// ListsDevices reports whether the input name would show the node's RDMA devices, were it read
// whole: lspci, or one of DeviceListers.
func ListsDevices(name string) bool { return name == "lspci" || slices.Contains(DeviceListers, name) }

// Unevaluable says whether nothing about RDMA could be evaluated on s (r has no diagnosis,
// hidden ones included, and s holds no RDMA fact), and, if so, how many of its inputs could
// not be read or parsed (a truncated archive is one): with one or more that is bad input
// (diagnose exits 2), with none the node has no RDMA to diagnose (exit 3).
func Unevaluable(s *facts.Snapshot, r *report.Report) (bool, int) {
	if r.AtLeast("info") || !engine.NoRDMAFacts(s) {
		return false, 0
	}
	n := 0
	for _, src := range s.Sources {
		// A truncated archive (a partial "archive" source) may have held the RDMA captures in
		// the part that is missing: not read whole, it is bad input too, never "no RDMA".
		// So may a partial listing of the node's devices (lspci, ibstat, ...): a line it could
		// not use (a 10 MB line, a cut) may be where they were.
		if src.Status == facts.StatusError || src.Status == facts.StatusPartial && (src.Name == "archive" || ListsDevices(src.Name)) {
			n++
		}
	}
	return true, n
}
