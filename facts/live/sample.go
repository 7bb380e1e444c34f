package live

import (
	"context"
	"path"
	"strconv"
	"testing/fstest"
	"time"
)

// sample waits until opts.Sample after the first counter read, then reads port counters and
// ethtool -S again into SampleDir, with the same relative paths.
func sample(ctx context.Context, opts Options, inv Inventory, r *runner, first time.Time, tree fstest.MapFS, meta *Meta) {
	select {
	case <-time.After(time.Until(first.Add(opts.Sample))):
	case <-ctx.Done():
		return
	}
	second := time.Now()
	var tasks []task
	for _, d := range inv.Devices {
		d := d
		tasks = append(tasks, copyTask(path.Join(SampleDir, "sys/class/infiniband", d.Name), false, func(c *copied) {
			c.portCounterFiles(opts.Root, d.Name)
			moved := map[string][]byte{}
			for p, b := range c.files {
				moved[path.Join(SampleDir, p)] = b
			}
			c.files = moved
		}))
	}
	for _, c := range Plan(inv) {
		if c.Counters {
			tasks = append(tasks, commandTask(c, SampleDir, r))
		}
	}
	dctx, cancel := context.WithTimeout(ctx, opts.Timeout)
	defer cancel()
	o := opts
	o.Observer = nil
	runPool(dctx, o, tasks, tree, meta)
	meta.Sample = &SampleMeta{Dir: SampleDir, IntervalSeconds: second.Sub(first).Seconds()}
	tree[path.Join(SampleDir, "interval_seconds")] = &fstest.MapFile{
		Data: []byte(strconv.FormatFloat(meta.Sample.IntervalSeconds, 'f', 3, 64) + "\n"), Mode: 0o644, ModTime: meta.Time}
}

func itoa(n int) string { return strconv.Itoa(n) }
