package build

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"sort"
	"strings"

	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/facts/source"
)

// MaxFileBytes caps one input file; larger files are recorded as errors, not read.
const MaxFileBytes = 64 << 20

// sniffBytes is how much of an unnamed capture content recognition looks at.
const sniffBytes = 4096

// errBinary is the error of a capture that is not text; it is --input's wording for the same.
const errBinary = "binary data, not a captured text output"

// ignored are files that travel with snapshots but are not inputs.
var ignored = map[string]bool{
	"CASE.md": true, "expect.json": true, "profile.yaml": true, "README.md": true,
	".rdmadoctor.yaml": true, "rdmadoctor.yaml": true,
}

// relevantPlugins are the sos plugin folders whose unrecognised files are listed one by one in a
// sosreport; other unrecognised sos files are summarised in one line.
var relevantPlugins = map[string]bool{
	"infiniband": true, "mellanox_firmware": true, "pci": true, "networking": true,
	"kernel": true, "hardware": true, "rdma": true, "opensm": true,
}

// Snapshot reads fsys (in sos layout, or a folder of captures) and returns the snapshot. It fails
// only when fsys cannot be walked; unreadable or malformed files are recorded in Sources.
func Snapshot(fsys fs.FS, info facts.SourceInfo) (*facts.Snapshot, error) {
	s := &facts.Snapshot{SchemaVersion: facts.SchemaVersion, Source: info}
	if info.Kind == "" {
		s.Source.Kind = detectKind(fsys)
	}
	specs := Specs()
	inputs := map[string][]Input{}
	var unrecognised, outLinks []string
	otherSos := 0

	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			s.Sources = append(s.Sources, facts.Source{Name: "walk", Origin: p, Status: facts.StatusError, Error: err.Error()})
			if d != nil && d.IsDir() && p != "." {
				return fs.SkipDir
			}
			return nil
		}
		if d.IsDir() || ignored[path.Base(p)] {
			return nil
		}
		if d.Type()&fs.ModeSymlink != 0 {
			if target, err := fs.ReadLink(fsys, p); err == nil && source.LeavesTree(p, target) {
				// Never followed out of the snapshot: an input by its path or name is read,
				// and fails, naming the link; any other is counted.
				if in, how, sp := classify(fsys, specs, p); sp != nil {
					in.Spec, in.how = sp.Name, how
					inputs[sp.Name] = append(inputs[sp.Name], in)
				} else {
					outLinks = append(outLinks, p+" -> "+target)
				}
			}
			return nil
		}
		if !d.Type().IsRegular() {
			return nil
		}
		if underTree(specs, p) != nil {
			return nil
		}
		in, how, sp := classify(fsys, specs, p)
		if sp == nil {
			if s.Source.Kind == "sosreport" && !sosRelevant(p) {
				otherSos++
				return nil
			}
			unrecognised = append(unrecognised, p)
			return nil
		}
		in.Spec = sp.Name
		in.how = how
		inputs[sp.Name] = append(inputs[sp.Name], in)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("read snapshot: %w", err)
	}

	for i := range specs {
		sp := &specs[i]
		if sp.Tree != nil {
			if _, err := fs.Stat(fsys, sp.Root); err == nil {
				s.Sources = append(s.Sources, sp.Tree(s, fsys)...)
				stamp(s, sp.Name, sp.Root)
				continue
			}
		}
		ins := inputs[sp.Name]
		if len(ins) == 0 {
			if sp.Tree != nil || len(sp.Commands) > 0 || len(sp.Paths) > 0 {
				s.Sources = append(s.Sources, missing(sp))
			}
			continue
		}
		sort.Slice(ins, func(a, b int) bool { return ins[a].Path < ins[b].Path })
		for _, in := range ins {
			s.Sources = append(s.Sources, apply(s, fsys, sp, in))
		}
	}
	for _, p := range unrecognised {
		s.Sources = append(s.Sources, facts.Source{Name: "unrecognized", Origin: p, Status: facts.StatusUnrecognized,
			Error: "no parser recognises this file by name or content"})
	}
	if len(outLinks) > 0 {
		s.Sources = append(s.Sources, facts.Source{Name: "symlink", Origin: outLinks[0], Status: facts.StatusUnrecognized,
			Error: fmt.Sprintf("%d symbolic link(s) lead out of the snapshot, not followed (the first is named)", len(outLinks))})
	}
	if otherSos > 0 {
		s.Sources = append(s.Sources, facts.Source{Name: "unrecognized", Origin: "sos_commands/*", Status: facts.StatusUnrecognized,
			Error: fmt.Sprintf("%d other sosreport files not relevant to RDMA", otherSos)})
	}
	join(s)
	sortSnapshot(s)
	s.Available = facts.Available(s.Sources)
	return s, nil
}

// classify matches p to a spec by path pattern, then by command name, then by content.
func classify(fsys fs.FS, specs []Spec, p string) (Input, string, *Spec) {
	in := Input{Path: p}
	if sp := matchPath(specs, p); sp != nil {
		return in, "path", sp
	}
	if sp, args, label := matchName(specs, p); sp != nil {
		in.Args, in.Label = args, label
		return in, "name", sp
	}
	head, err := readHead(fsys, p)
	if err != nil {
		return in, "", nil
	}
	for i := range specs {
		if specs[i].Sniff != nil && specs[i].Sniff(head) {
			_, in.Label = splitName(path.Base(p))
			return in, "content", &specs[i]
		}
	}
	return in, "", nil
}

func apply(s *facts.Snapshot, fsys fs.FS, sp *Spec, in Input) (src facts.Source) {
	src = facts.Source{Name: sp.Name, Origin: in.Path, Status: facts.StatusOK, RecognisedBy: in.how}
	defer func() {
		// A parser bug must not take the whole diagnosis down: record it against the file.
		if r := recover(); r != nil {
			src.Status, src.Error = facts.StatusError, fmt.Sprintf("parser panic: %v", r)
		}
	}()
	if sp.Stream != nil {
		return streamFile(s, fsys, sp, in, src)
	}
	data, err := readFile(fsys, in.Path)
	if err != nil {
		src.Status, src.Error = facts.StatusError, err.Error()
		return src
	}
	if src, ok := notText(src, data); !ok {
		return src
	}
	in.Data = data
	if sp.Apply == nil {
		return src
	}
	src = outcome(src, sp.Apply(s, in))
	stamp(s, sp.Name, in.Path)
	return src
}

// notText records a capture that is compressed or binary, judged by its first bytes head; ok is
// false for those, which are not parsed. A file named like a capture can hold anything (a core
// dump, a UTF-16 export); parsers would read such junk as an empty but valid output. Tree specs
// read sysfs attributes themselves and are not held to this: only whole captures come through.
func notText(src facts.Source, head []byte) (facts.Source, bool) {
	switch {
	case source.IsCompressed(head):
		// sosreports carry rotated logs (var/log/messages-20240101.gz) beside the current one:
		// not an error, not read.
		src.Status, src.Error = facts.StatusUnrecognized, "compressed file, not read (a rotated log?)"
		return src, false
	case source.IsBinary(head):
		src.Status, src.Error = facts.StatusError, errBinary
		return src, false
	}
	return src, true
}

// outcome records what Apply or Stream returned in src, clipped to facts.MaxMessageBytes (a
// parse error quotes its line, and a line can be megabytes long).
func outcome(src facts.Source, err error) facts.Source {
	var n *NotedError
	switch {
	case err == nil:
	case errors.As(err, &n):
		src.Note = facts.Clip(n.Note, facts.MaxMessageBytes)
	case IsRefused(err):
		src.Status, src.Error = facts.StatusUnsupported, facts.Clip(err.Error(), facts.MaxMessageBytes)
	default:
		src.Status, src.Error = facts.StatusError, facts.Clip(err.Error(), facts.MaxMessageBytes) // Origin names the file
	}
	return src
}

// streamFile gives sp.Stream the file at in.Path as a reader, never reading it whole.
func streamFile(s *facts.Snapshot, fsys fs.FS, sp *Spec, in Input, src facts.Source) facts.Source {
	f, err := fsys.Open(in.Path)
	if err != nil {
		src.Status, src.Error = facts.StatusError, err.Error()
		return src
	}
	defer f.Close()
	br := bufio.NewReaderSize(f, sniffBytes)
	head, err := br.Peek(sniffBytes)
	if err != nil && err != io.EOF && err != bufio.ErrBufferFull {
		src.Status, src.Error = facts.StatusError, fmt.Sprintf("read %s: %v", in.Path, err)
		return src
	}
	if src, ok := notText(src, head); !ok {
		return src
	}
	src = outcome(src, sp.Stream(s, in, &pathReader{r: br, path: in.Path}))
	stamp(s, sp.Name, in.Path)
	return src
}

// pathReader names the file in its read errors.
type pathReader struct {
	r    io.Reader
	path string
}

func (p *pathReader) Read(b []byte) (int, error) {
	n, err := p.r.Read(b)
	if err != nil && err != io.EOF {
		err = fmt.Errorf("read %s: %w", p.path, err)
	}
	return n, err
}

func missing(sp *Spec) facts.Source {
	msg := "not in snapshot"
	if sp.MissingHint != "" {
		msg += ": " + sp.MissingHint
	}
	return facts.Source{Name: sp.Name, Status: facts.StatusMissing, Error: msg}
}

func readFile(fsys fs.FS, p string) ([]byte, error) {
	f, err := fsys.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := readAll(io.LimitReader(f, MaxFileBytes+1), sizeHint(f))
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", p, err)
	}
	if len(b) > MaxFileBytes {
		return nil, fmt.Errorf("read %s: larger than %d bytes", p, MaxFileBytes)
	}
	return b, nil
}

// sizeHint is the buffer to read f into: its size and one byte to see EOF, as os.ReadFile does,
// so that a large capture is not copied over and over as the buffer grows. 512 when unknown.
func sizeHint(f fs.File) int {
	if info, err := f.Stat(); err == nil && info.Size() > 0 && info.Size() <= MaxFileBytes {
		return int(info.Size()) + 1
	}
	return 512
}

// readAll is io.ReadAll into a buffer of capacity size.
func readAll(r io.Reader, size int) ([]byte, error) {
	b := make([]byte, 0, size)
	for {
		n, err := r.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err != nil {
			if err == io.EOF {
				err = nil
			}
			return b, err
		}
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)] // let append pick the next capacity
		}
	}
}

func readHead(fsys fs.FS, p string) ([]byte, error) {
	f, err := fsys.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b := make([]byte, sniffBytes)
	n, err := io.ReadFull(f, b)
	if err != nil && err != io.ErrUnexpectedEOF && err != io.EOF {
		return nil, err
	}
	return b[:n], nil
}

func detectKind(fsys fs.FS) string {
	if _, err := fs.Stat(fsys, "rdmadoctor.yaml"); err == nil {
		return "snapshot"
	}
	if _, err := fs.Stat(fsys, "sos_commands"); err == nil {
		return "sosreport"
	}
	return "captures"
}

func sosRelevant(p string) bool {
	parts := strings.Split(p, "/")
	if len(parts) >= 2 && parts[0] == "sos_commands" {
		return relevantPlugins[parts[1]]
	}
	return false
}
