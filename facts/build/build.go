package build

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/facts/parse"
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

// Snapshot reads fsys (in sos layout, or a folder of captures) and returns the snapshot. It fails
// when fsys cannot be walked, or with a *SeveralHostsError when its folders hold different hosts'
// captures; unreadable or malformed files are recorded in Sources.
func Snapshot(fsys fs.FS, info facts.SourceInfo) (*facts.Snapshot, error) {
	s := &facts.Snapshot{SchemaVersion: facts.SchemaVersion, Source: info}
	if info.Kind == "" {
		s.Source.Kind = detectKind(fsys)
	}
	specs := sorted() // shared: read only here
	inputs := map[string][]Input{}
	var unrecognised, outLinks []string
	var unread []facts.Source // files no spec claims by path or name whose content could not be read
	// The files of a sosreport nothing reads, decided by path (Select) here or, for an
	// archive, as it was read (source.Open kept none of them).
	otherSos := 0
	if c, ok := fsys.(interface{ SkippedFiles() int }); ok {
		otherSos = c.SkippedFiles()
	}
	sos := s.Source.Kind == "sosreport"

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
			// A link that reaches a file of the snapshot is read as that file. One that
			// leaves the snapshot (never followed), dangles or loops is, when named like an
			// input (by path or name), that input's error naming the link, not "not in
			// snapshot"; any other link leaving the snapshot is counted.
			why, out, target := linkFault(fsys, p, sos)
			if why == "" {
				return nil
			}
			if in, how, sp := classify(fsys, specs, p); sp != nil {
				in.Spec, in.how, in.linkErr = sp.Name, how, why
				inputs[sp.Name] = append(inputs[sp.Name], in)
			} else if out {
				outLinks = append(outLinks, p+" -> "+target)
			}
			return nil
		}
		// A FIFO, socket or device is classified like a file but never opened (openRegular):
		// one named like an input is that input's error, not "not in snapshot".
		if underTree(specs, p) != nil || sos && p == SosManifest {
			return nil // a tree is read whole; the manifest after the inputs (applySosManifest)
		}
		if sos {
			switch Select(p, false) {
			case source.Skip, source.Keep:
				otherSos++
				return nil
			case source.List:
				unrecognised = append(unrecognised, p)
				return nil
			}
		}
		in, how, sp := classify(fsys, specs, p)
		if sp == nil {
			if sos && !sosRelevant(p) {
				otherSos++
				return nil
			}
			if in.readErr != nil {
				unread = append(unread, facts.Source{Name: "unreadable", Origin: p, Status: facts.StatusError,
					Error: facts.Clip(unreadable(in.readErr), facts.MaxMessageBytes)})
				return nil
			}
			unrecognised = append(unrecognised, p)
			return nil
		}
		in.Spec = sp.Name
		in.how = how
		if parts := split(fsys, specs, sp, in); parts != nil {
			for _, part := range parts {
				inputs[part.Spec] = append(inputs[part.Spec], part)
			}
			return nil
		}
		inputs[sp.Name] = append(inputs[sp.Name], in)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("read snapshot: %w", err)
	}
	if err := oneHost(fsys, inputs, info); err != nil {
		return nil, err
	}

	for i := range specs {
		sp := &specs[i]
		if sp.Tree != nil {
			_, err := fs.Stat(fsys, sp.Root)
			if err == nil {
				s.Sources = append(s.Sources, sp.Tree(s, fsys)...)
				stamp(s, sp.Name, sp.Root)
				continue
			}
			if src, ok := treeOut(fsys, sp, err); ok {
				s.Sources = append(s.Sources, src) // there, not followed: not "not in snapshot"
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
	s.Sources = append(s.Sources, unread...)
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
	if sos {
		applySosManifest(s, fsys)
	}
	if c, ok := fsys.(interface{ MembersAgain() source.Again }); ok && c.MembersAgain().Members > 0 {
		// Appended again (tar -r): the last copy is read, as tar -x leaves it; the earlier are not.
		s.Sources = append(s.Sources, facts.Source{Name: "archive", Origin: info.Path, Status: facts.StatusPartial, Error: c.MembersAgain().String()})
	}
	if c, ok := fsys.(interface{ Truncated() *source.Cut }); ok && c.Truncated() != nil {
		// Read as far as it goes: the report is incomplete, and says where the stream ended.
		s.Sources = append(s.Sources, facts.Source{Name: "archive", Origin: info.Path, Status: facts.StatusPartial, Error: c.Truncated().String()})
	}
	join(s)
	sortSnapshot(s)
	s.Available = facts.Available(s.Sources)
	return s, nil
}

// classify matches p to a spec by path pattern, then by command name, then by content. The
// content of a file matched by name is checked too: another tool's output saved under this
// tool's name is read as that tool (and the source's Note says so).
func classify(fsys fs.FS, specs []Spec, p string) (Input, string, *Spec) {
	in := Input{Path: p}
	if sp := matchPath(specs, p); sp != nil {
		return in, "path", sp
	}
	head, headErr := readHead(fsys, p)
	if sp, args, label := matchName(specs, p); sp != nil {
		in.Args, in.Label = args, label
		if headErr != nil || sp.Sniff != nil && sp.Sniff(head) || len(bytes.TrimSpace(head)) == 0 || source.IsBinary(head) {
			return in, "name", sp
		}
		// A spec without a Sniff (mlxup, whose output is mlxfwmanager's) cannot tell that the
		// content is another tool's; reading nothing from it still says so.
		if other := sniffOutput(specs, head); sp.Sniff != nil && other != nil && other.Name != sp.Name {
			in.Args = ""
			in.note = fmt.Sprintf("%s: content is %s output, read as %s", path.Base(p), other.Name, other.Name)
			return in, "content", other
		}
		in.sniffFailed = true
		return in, "name", sp
	}
	if headErr != nil {
		in.readErr = headErr
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

// logSpecs read logs: a line anywhere can match their Sniff, and a log that says nothing about
// RDMA is normal, so they never claim a file saved under another tool's name, and reading
// nothing from one is not "unrecognized content".
var logSpecs = map[string]bool{"dmesg": true, "rdma_app_log": true, "opensm_log": true}

// sniffOutput returns the first spec, logs aside, whose Sniff recognises head.
func sniffOutput(specs []Spec, head []byte) *Spec {
	for i := range specs {
		if specs[i].Sniff != nil && !logSpecs[specs[i].Name] && specs[i].Sniff(head) {
			return &specs[i]
		}
	}
	return nil
}

// splitStarts are the tools whose output starts with a line no other output has ("CA '...'",
// "hca_id:", "Infiniband device '...' port N status:"); a file of one of them is split where
// another of them starts (a ticket paste of ibstat, then ibv_devinfo).
var splitStarts = []string{"ibstat", "ibstatus", "ibv_devinfo"}

// split returns the parts of in, a file of spec sp, when it holds the outputs of several of
// splitStarts: each part keeps the file's line numbers (the other parts' lines are blanked),
// so evidence still names file:line. Nil when the file is one output.
func split(fsys fs.FS, specs []Spec, sp *Spec, in Input) []Input {
	if !slices.Contains(splitStarts, sp.Name) {
		return nil
	}
	data, err := readFile(fsys, in.Path)
	if err != nil || source.IsBinary(data) || source.IsCompressed(data) {
		return nil
	}
	data = source.Text(data)
	lines := bytes.SplitAfter(data, []byte("\n"))
	var starts []int   // line index where each part starts
	var owners []*Spec // the spec of each part
	for i, l := range lines {
		for _, name := range splitStarts {
			o := specNamed(specs, name)
			if o == nil || !o.Sniff(l) {
				continue
			}
			if len(owners) == 0 || owners[len(owners)-1] != o {
				starts, owners = append(starts, i), append(owners, o)
			}
			break
		}
	}
	if len(owners) < 2 {
		return nil
	}
	starts[0] = 0 // what precedes the first output belongs to it (a prompt, a title)
	var parts []Input
	for k, o := range owners {
		end := len(lines)
		if k+1 < len(starts) {
			end = starts[k+1]
		}
		var b bytes.Buffer
		for i, l := range lines {
			if i >= starts[k] && i < end {
				b.Write(l)
			} else if bytes.HasSuffix(l, []byte("\n")) {
				b.WriteByte('\n')
			}
		}
		part := in
		part.Spec, part.Data, part.how = o.Name, b.Bytes(), "content"
		part.note = fmt.Sprintf("lines %d-%d of a file holding several outputs, read as %s", starts[k]+1, end, o.Name)
		if o.Name != sp.Name {
			part.Args = ""
		}
		parts = append(parts, part)
	}
	return parts
}

func specNamed(specs []Spec, name string) *Spec {
	for i := range specs {
		if specs[i].Name == name {
			return &specs[i]
		}
	}
	return nil
}

func apply(s *facts.Snapshot, fsys fs.FS, sp *Spec, in Input) (src facts.Source) {
	src = facts.Source{Name: sp.Name, Origin: in.Path, Status: facts.StatusOK, RecognisedBy: in.how, Note: in.note}
	defer func() {
		// A parser bug must not take the whole diagnosis down: record it against the file.
		if r := recover(); r != nil {
			src.Status, src.Error = facts.StatusError, fmt.Sprintf("parser panic: %v", r)
		}
	}()
	if in.linkErr != "" {
		src.Status, src.Error = facts.StatusError, facts.Clip(in.linkErr, facts.MaxMessageBytes)
		return src
	}
	if sp.Stream != nil {
		return streamFile(s, fsys, sp, in, src)
	}
	data, err := in.Data, error(nil)
	if data == nil {
		data, err = readFile(fsys, in.Path)
	}
	if err != nil {
		src.Status, src.Error = facts.StatusError, facts.Clip(unreadable(err), facts.MaxMessageBytes)
		return src
	}
	if src, ok := notText(src, data); !ok {
		return src
	}
	if source.Blank(data) && !grepped(in) {
		// Absence is not evidence: an empty ibstat is a capture that failed, not a node
		// without devices.
		src.Status, src.Error = facts.StatusEmpty, source.BlankReason(len(data))
		return src
	}
	var long parse.Problems
	in.Data, long = cutLongLines(source.Text(data))
	if sp.Apply == nil {
		return src
	}
	src = outcome(src, sp.Apply(s, in))
	return withLong(nothingRead(s, sp, in, src), long)
}

// grepped reports whether in is a capture through a named line filter (`lsmod | grep
// nv_peer` saved as lsmod_grep_nv_peer): empty, it is an answer (no line matched), which its
// spec reads, not a capture that failed.
func grepped(in Input) bool {
	pattern, _ := grepFilter(in.Args)
	return pattern != ""
}

// givesFacts reports whether in, read alone, gives facts: what it says may all be known
// already (the header of `lspci | grep Mellanox` after `lspci -v -s` of the same function), and
// merging keeps the first source's evidence.
func givesFacts(sp *Spec, in Input) bool {
	scratch := &facts.Snapshot{}
	if err := sp.Apply(scratch, in); err != nil {
		return true // it said something: outcome has recorded it
	}
	return stampCount(scratch, sp.Name, in.Path) > 0
}

// nothingRead makes src, the source of a non-empty file that sp read without a complaint,
// "unrecognized" when the file gave no facts, with a note naming it: a file taken as a tool's
// output that yields nothing is reported, never a silent "ok" (a filtered capture whose lines
// are another tool's, an `ethtool -i` output whose file name names no interface). Logs may say
// nothing about RDMA, and a spec whose output can answer without facts (Spec.Answered) is exempt.
func nothingRead(s *facts.Snapshot, sp *Spec, in Input, src facts.Source) facts.Source {
	n := stampCount(s, sp.Name, in.Path) // stamps the evidence of what Apply merged: always run
	if n > 0 || src.Status != facts.StatusOK || logSpecs[sp.Name] || len(bytes.TrimSpace(in.Data)) == 0 ||
		(sp.Answered != nil && !in.sniffFailed && sp.Answered(in.Data)) || givesFacts(sp, in) {
		return src
	}
	src.Status = facts.StatusUnrecognized
	if in.sniffFailed {
		// Named like this tool, not like its output, and nothing could be read from it.
		src.Error = "unrecognized content: not " + sp.Name + " output"
	} else {
		src.Error = "read as " + sp.Name + " output but gave no facts: it held none of its lines, or none could be tied to a device, port or interface"
	}
	src.Note = joinNotes(src.Note, path.Base(in.Path)+": read as "+sp.Name+" output but held none of its lines")
	return src
}

// partialSummary is the Error of a partial source: how many lines, and the first.
func partialSummary(ps parse.Problems) string {
	if len(ps) == 1 {
		return "1 line not used: " + ps.Error()
	}
	return fmt.Sprintf("%d lines not used: %s", len(ps), ps.Error())
}

// capProblems keeps the first facts.MaxProblems problems, each quoting at most
// facts.MaxMessageBytes of its line, and counts the rest.
func capProblems(ps parse.Problems) ([]facts.Problem, int) {
	more := 0
	if len(ps) > facts.MaxProblems {
		ps, more = ps[:facts.MaxProblems], len(ps)-facts.MaxProblems
	}
	out := make([]facts.Problem, len(ps))
	for i, p := range ps {
		p.Text, p.Why = facts.Clip(p.Text, facts.MaxMessageBytes), facts.Clip(p.Why, facts.MaxMessageBytes)
		out[i] = p
	}
	return out, more
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
// parse error quotes its line, and a line can be megabytes long): lines a parser could not use
// make the source partial (it kept the rest), a tool's refusal unsupported, anything else an error.
func outcome(src facts.Source, err error) facts.Source {
	var n *NotedError
	if ps, ok := parse.AsProblems(err); ok {
		src.Status, src.Error = facts.StatusPartial, facts.Clip(partialSummary(ps), facts.MaxMessageBytes)
		src.Problems, src.MoreProblems = capProblems(ps)
		return src
	}
	switch {
	case err == nil:
	case errors.As(err, &n):
		src.Note = facts.Clip(joinNotes(src.Note, n.Note), facts.MaxMessageBytes)
	case IsRefused(err):
		src.Status, src.Error = facts.StatusUnsupported, facts.Clip(err.Error(), facts.MaxMessageBytes)
	default:
		src.Status, src.Error = facts.StatusError, facts.Clip(err.Error(), facts.MaxMessageBytes) // Origin names the file
	}
	return src
}

// joinNotes joins two notes of one source with "; ", either may be empty.
func joinNotes(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + "; " + b
}

// streamFile gives sp.Stream the file at in.Path as a reader, never reading it whole.
func streamFile(s *facts.Snapshot, fsys fs.FS, sp *Spec, in Input, src facts.Source) facts.Source {
	f, err := openRegular(fsys, in.Path)
	if err != nil {
		src.Status, src.Error = facts.StatusError, facts.Clip(unreadable(err), facts.MaxMessageBytes)
		return src
	}
	defer f.Close()
	br := bufio.NewReaderSize(f, sniffBytes)
	head, err := br.Peek(sniffBytes)
	if err != nil && err != io.EOF && err != bufio.ErrBufferFull {
		src.Status, src.Error = facts.StatusError, facts.Clip(unreadable(fmt.Errorf("read %s: %w", in.Path, err)), facts.MaxMessageBytes)
		return src
	}
	if src, ok := notText(src, head); !ok {
		return src
	}
	if len(head) < sniffBytes && source.Blank(head) && !grepped(in) {
		src.Status, src.Error = facts.StatusEmpty, source.BlankReason(len(head)) // head is the whole file
		return src
	}
	lc := newLineCapper(&pathReader{r: br, path: in.Path})
	src = outcome(src, sp.Stream(s, in, lc))
	src = withLong(src, lc.Long)
	if stampCount(s, sp.Name, in.Path) == 0 && src.Status == facts.StatusOK && in.sniffFailed && !logSpecs[sp.Name] {
		// Named like this tool, not like its output, and nothing could be read from it.
		src.Status, src.Error = facts.StatusUnrecognized, "unrecognized content: not "+sp.Name+" output"
	}
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
	f, err := openRegular(fsys, p)
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
	f, err := openRegular(fsys, p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b := make([]byte, sniffBytes)
	n, err := io.ReadFull(f, b)
	if err != nil && err != io.ErrUnexpectedEOF && err != io.EOF {
		return nil, err
	}
	return source.Text(b[:n]), nil
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
