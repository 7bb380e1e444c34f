package live

import (
	"context"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing/fstest"
	"time"

	"github.com/rdmadoctor/rdmadoctor/facts/build"
)

// Defaults for Options.
const (
	DefaultJobs           = 64
	DefaultCommandTimeout = 10 * time.Second
	DefaultTimeout        = 30 * time.Second
	// SampleDir holds the second read of --sample.
	SampleDir = build.SampleRoot
)

// Options configure a gather.
type Options struct {
	// Root is where sys/, proc/, etc/ and var/ are read from; "/" when empty.
	Root string
	// Path lists the directories tools are looked up in; $PATH plus the sbin directories when nil.
	Path []string
	// Jobs bounds how many commands and file copies run at once.
	Jobs int
	// CommandTimeout bounds each command; Timeout the whole gather (without the --sample wait).
	CommandTimeout time.Duration
	Timeout        time.Duration
	// MaxOutput is the output budget of the gather's commands together; MaxGatherOutput when
	// zero.
	MaxOutput int64
	// Sample, when positive, reads port counters and ethtool -S a second time after it.
	Sample time.Duration
	// Observer is told about progress; nil is silent.
	Observer Observer
	// Version and Argv go into rdmadoctor.yaml.
	Version string
	Argv    []string
}

// Observer follows a gather's progress.
type Observer interface {
	// Planned is called once with the number of tasks.
	Planned(n int)
	// Done is called when a task ends; r is nil for file copies.
	Done(name string, r *Run)
	// Finish is called when the gather ends.
	Finish()
}

// Starter is an Observer that is also told when each task starts (from another goroutine
// than Done), so that it can show what is still running.
type Starter interface {
	Started(name string)
}

// Result is a gathered snapshot in sos layout.
type Result struct {
	// FS is the snapshot tree, rdmadoctor.yaml included.
	FS        fstest.MapFS
	Meta      *Meta
	Inventory Inventory
}

// task is one unit of work for the pool.
type task struct {
	name string
	// counters marks the first read of counters that --sample repeats.
	counters bool
	run      func(ctx context.Context) (files map[string][]byte, r *Run, bad []Unreadable)
	// reading, for a copy task, names the file it is reading ("" between reads): what blocked,
	// when the task is abandoned at the deadline.
	reading func() string
}

func (o *Options) defaults() {
	if o.Root == "" {
		o.Root = "/"
	}
	if o.Path == nil {
		o.Path = ToolPath()
	}
	if o.Jobs <= 0 {
		o.Jobs = DefaultJobs
	}
	if o.CommandTimeout <= 0 {
		o.CommandTimeout = DefaultCommandTimeout
	}
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	if o.MaxOutput <= 0 {
		o.MaxOutput = MaxGatherOutput
	}
}

// ToolPathEnv names the environment variable that, when set, replaces the tool search path
// (colon-separated directories), e.g. to run against stub tools in tests.
const ToolPathEnv = "RDMADOCTOR_TOOL_PATH"

// ToolPath is where tools are looked up: $RDMADOCTOR_TOOL_PATH, or $PATH plus the sbin
// directories (infiniband-diags installs to /usr/sbin, often not on a user's PATH).
func ToolPath() []string {
	if p := os.Getenv(ToolPathEnv); p != "" {
		return filepath.SplitList(p)
	}
	return append(filepath.SplitList(os.Getenv("PATH")), "/usr/local/sbin", "/usr/sbin", "/sbin")
}

// Gather collects a snapshot of the node under opts.Root. It always returns a result: commands
// that are missing, time out or fail and files that cannot be read are recorded in Meta.
func Gather(ctx context.Context, opts Options) *Result {
	opts.defaults()
	becomeSubreaper()
	defer sweepOrphans() // what commands abandoned at the deadline left
	start := time.Now()
	inv := Discover(opts.Root)
	meta := &Meta{Time: start.UTC().Truncate(time.Second), Argv: opts.Argv, Root: opts.Root,
		TimeoutSeconds: opts.Timeout.Seconds()}
	meta.Tool.Name, meta.Tool.Version = "rdmadoctor", opts.Version
	describe(meta, inv)

	r := &runner{path: opts.Path, timeout: opts.CommandTimeout, budget: newBudget(opts.MaxOutput)}
	tasks := plan(opts.Root, inv, r)
	if opts.Observer != nil {
		opts.Observer.Planned(len(tasks))
	}
	dctx, cancel := context.WithTimeout(ctx, opts.Timeout)
	defer cancel()
	tree := fstest.MapFS{}
	firstRead := runPool(dctx, opts, tasks, tree, meta)

	if opts.Sample > 0 && !firstRead.IsZero() {
		sample(ctx, opts, inv, r, firstRead, tree, meta)
	}
	if opts.Observer != nil {
		opts.Observer.Finish()
	}
	meta.DurationSeconds = time.Since(start).Seconds()
	sort.SliceStable(meta.Commands, func(i, j int) bool {
		return strings.Join(meta.Commands[i].Argv, " ") < strings.Join(meta.Commands[j].Argv, " ")
	})
	sort.Slice(meta.Unreadable, func(i, j int) bool { return meta.Unreadable[i].Path < meta.Unreadable[j].Path })
	tree[MetaFile] = &fstest.MapFile{Data: meta.marshal(), Mode: 0o644, ModTime: meta.Time}
	return &Result{FS: tree, Meta: meta, Inventory: inv}
}

// plan turns the inventory into tasks: counter reads first (so --sample's interval is measured
// from a well-defined start), then the rest in plan order.
func plan(root string, inv Inventory, r *runner) []task {
	var first, rest []task
	for _, d := range inv.Devices {
		d := d
		first = append(first, copyTask("sys/class/infiniband/"+d.Name, true, func(c *copied) { c.ibDeviceFiles(root, d.Name) }))
	}
	for _, c := range Plan(inv) {
		t := commandTask(c, "", r)
		if c.Counters {
			t.counters = true
			first = append(first, t)
		} else {
			rest = append(rest, t)
		}
	}
	for _, n := range inv.Netdevs {
		n := n
		rest = append(rest, copyTask("sys/class/net/"+n.Name, false, func(c *copied) { c.netdevFiles(root, n.Name) }))
	}
	rest = append(rest, copyTask(HostFiles, false, func(c *copied) { c.hostFiles(root) }))
	return append(first, rest...)
}

// HostFiles names the copy of the node-wide files (hostPatterns) in the gather's progress and,
// when it could not finish, in rdmadoctor.yaml's unreadable list.
const HostFiles = "host files"

// copyTask is the task name that runs f on a fresh copied, which f fills.
func copyTask(name string, counters bool, f func(c *copied)) task {
	reading := &atomic.Pointer[string]{}
	return task{name: name, counters: counters,
		reading: func() string {
			if p := reading.Load(); p != nil {
				return *p
			}
			return ""
		},
		run: func(context.Context) (map[string][]byte, *Run, []Unreadable) {
			c := copied{files: map[string][]byte{}, reading: reading}
			f(&c)
			return c.files, nil, c.unreadable
		}}
}

// commandTask runs c and files its output under prefix/sos_commands/<plugin>/<mangled argv>.
func commandTask(c Command, prefix string, r *runner) task {
	return task{name: c.String(), run: func(ctx context.Context) (map[string][]byte, *Run, []Unreadable) {
		res := r.runCommand(ctx, c)
		if res.Status != RanOK {
			return nil, &res, nil
		}
		res.File = path.Join(prefix, "sos_commands", c.Plugin, build.Mangle(strings.Join(res.Argv, " ")))
		return map[string][]byte{res.File: res.output}, &res, nil
	}}
}

// The errors of a task the gather's deadline stopped: Abandoned starts that of one still
// running (a copy adds the file whose read blocked), NotStarted is that of one not started.
const (
	Abandoned  = "abandoned at the gather deadline"
	NotStarted = "not started: the gather deadline had passed"
)

// runPool runs tasks with at most opts.Jobs at once until they are done or ctx ends, and merges
// their output into tree and meta. Tasks not finished at the deadline are recorded and
// abandoned (a read stuck in the kernel cannot be interrupted). It returns when the first
// counter read started.
func runPool(ctx context.Context, opts Options, tasks []task, tree fstest.MapFS, meta *Meta) time.Time {
	type done struct {
		i     int
		files map[string][]byte
		run   *Run
		bad   []Unreadable
	}
	results := make(chan done, len(tasks))
	sem := make(chan struct{}, opts.Jobs)
	var mu sync.Mutex
	var firstRead time.Time
	started := make([]bool, len(tasks))
	nStarted := 0
	stopped := make(chan struct{}) // closed when no further task will start
	go func() {
		defer close(stopped)
		for i, t := range tasks {
			select {
			case sem <- struct{}{}:
			case <-ctx.Done():
				return
			}
			mu.Lock()
			started[i] = true
			nStarted++
			if t.counters && firstRead.IsZero() {
				firstRead = time.Now()
			}
			mu.Unlock()
			if st, ok := opts.Observer.(Starter); ok {
				st.Started(t.name)
			}
			go func(i int, t task) {
				defer func() { <-sem }()
				f, r, bad := t.run(ctx)
				results <- done{i, f, r, bad}
			}(i, t)
		}
	}()
	finished := make([]bool, len(tasks))
	deadline := ctx.Done()
	var grace <-chan time.Time
	// drained reports whether, past the deadline, every task that started has reported.
	drained := func(n int) bool {
		select {
		case <-stopped:
			mu.Lock()
			defer mu.Unlock()
			return n == nStarted
		default:
			return false
		}
	}
collect:
	for n := 0; n < len(tasks); {
		var d done
		select {
		case d = <-results:
			n++
		case <-deadline:
			// Commands are killed at the deadline and report promptly; give them a moment.
			deadline, grace = nil, time.After(2*time.Second)
			if drained(n) {
				break collect
			}
			continue
		case <-grace:
			break collect
		}
		if deadline == nil && drained(n) {
			n = len(tasks) // record this last result, then stop
		}
		finished[d.i] = true
		for p, b := range d.files {
			tree[p] = &fstest.MapFile{Data: b, Mode: 0o644, ModTime: meta.Time}
		}
		if d.run != nil {
			meta.Commands = append(meta.Commands, *d.run)
		}
		meta.Unreadable = append(meta.Unreadable, d.bad...)
		if opts.Observer != nil {
			opts.Observer.Done(tasks[d.i].name, d.run)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	for i, t := range tasks {
		if finished[i] {
			continue
		}
		msg := NotStarted
		if started[i] {
			msg = Abandoned
			if t.reading != nil {
				if p := t.reading(); p != "" {
					msg += " while reading " + p + " (the read blocked)"
				}
			}
		}
		if t.reading != nil {
			meta.Unreadable = append(meta.Unreadable, Unreadable{Path: t.name, Error: msg})
			continue
		}
		meta.Commands = append(meta.Commands, Run{Argv: strings.Fields(t.name), Status: RanNotRun, Error: msg})
	}
	return firstRead
}

// describe records the inventory in meta.
func describe(m *Meta, inv Inventory) {
	for _, d := range inv.Devices {
		m.Found.RDMADevices = append(m.Found.RDMADevices, d.Name)
		for _, p := range d.Ports {
			if p.ActiveIB() {
				m.Found.ActiveIB = append(m.Found.ActiveIB, d.Name+"/"+itoa(p.Number))
			}
		}
	}
	for _, f := range inv.PCI {
		if f.VF {
			m.Found.MellanoxVFs = append(m.Found.MellanoxVFs, f.Address)
		} else {
			m.Found.MellanoxPFs = append(m.Found.MellanoxPFs, f.Address)
		}
	}
	for _, n := range inv.Netdevs {
		m.Found.Netdevs = append(m.Found.Netdevs, n.Name)
	}
}
