package live

import (
	"context"

	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/facts/build"
)

// Snapshot gathers the node and builds its fact snapshot, with every source that could not be
// gathered explained (Annotate).
func Snapshot(ctx context.Context, opts Options) (*facts.Snapshot, *Result, error) {
	res := Gather(ctx, opts)
	info := facts.SourceInfo{Kind: "live"}
	if opts.Root != "" && opts.Root != "/" {
		info.Path = opts.Root
	}
	s, err := build.Snapshot(res.FS, info)
	if err != nil {
		return nil, res, err
	}
	Annotate(s, res.Meta)
	return s, res, nil
}
