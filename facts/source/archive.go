package source

import (
	"archive/tar"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"strings"
)

// errTotal is returned by the capped reader once more than MaxStream bytes came out.
var errTotal = errors.New("uncompressed size limit reached")

// archive reads one tar stream into a memFS, keeping only wanted members, without writing
// anything to disk.
type archive struct {
	path    string   // as given by the user, for errors
	file    *os.File // the archive, which xz-utils reads itself when it can seek back to its start
	opt     Options
	tree    memFS
	kept    int64         // bytes of member content held in memory
	skipped int           // files not kept (decided by path), for the report's count
	roots   roots         // which folders are sosreports, as far as the stream has shown
	stream  *cappedReader // the tar stream, whose count is a cut's offset
	cut     *Cut          // where a truncated or corrupt stream ended (cut.go)
	cutNode *node         // the member it ended in, when it was listed unread
	again   Again         // kept members that came more than once
	settle  settling      // when to offer Options.Settled a view (settle.go)
}

// errNotKept is why a listed member of a sosreport cannot be read: it was decided by its path
// (Decision List) and never read.
var errNotKept = errors.New("not kept: no input reads this file")

func (a *archive) fail(member string, kind error, format string, args ...any) error {
	return &Error{Path: a.path, Member: member, Kind: kind, Err: fmt.Errorf(format, args...)}
}

// decompress returns the tar stream inside r, which holds data of format f, and a function
// that ends the decoder (kill: stop it early) and reports a failure the decoder saw. The stream
// is decoded in a goroutine of its own (readahead), or by xz-utils in its own process, so that
// decoding and the tar walk run side by side. The decoder's failures, read from the stream or
// reported at its end, are decodeErrors.
func (a *archive) decompress(r io.Reader, f format) (io.Reader, func(kill bool) error, error) {
	var dr io.Reader
	switch f {
	case formatTar:
		dr = r
	case formatGzip, formatBzip2:
		var err error
		if dr, err = inProcess(r, f); err != nil {
			return nil, nil, a.fail("", ErrFormat, "%s: %w", f, err)
		}
	case formatXZ:
		xr, finish, err := xzStream(r, a.file, a.opt.PureGoXZ)
		if err != nil {
			return nil, nil, a.fail("", ErrFormat, "xz: %w", err)
		}
		if finish != nil {
			return xr, decoderFinish(f, finish), nil
		}
		dr = xr
	default:
		return nil, nil, a.fail("", ErrFormat, "%s compression is not supported: give a .tar, .tar.gz or .tar.xz, or the extracted folder", f)
	}
	ra := newReadahead(dr)
	var out io.Reader = ra
	if f != formatTar {
		out = decoding{r: ra, f: f} // its failures, and its panics, are the decoder's
	}
	return out, func(bool) error { ra.stop(); return nil }, nil
}

// read reads the tar stream of format f from r. A panic in a decoder on hostile input is
// turned into an error naming the archive.
func (a *archive) read(r io.Reader, f format) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = a.fail("", ErrFormat, "%s decoder failed: %v", f, p)
		}
	}()
	a.opt = a.opt.withDefaults()
	a.tree = memFS{root: newDir(".")}
	a.roots = roots{sos: map[string]bool{}, byName: map[string]bool{}}
	stream, finish, err := a.decompress(r, f)
	if err != nil {
		return err
	}
	a.opt.started()
	rec := &headRecorder{r: stream}
	cr := &cappedReader{r: rec, max: a.opt.MaxStream}
	a.stream = cr
	last, err := a.readTar(cr, f)
	whole := err == nil && a.cut == nil // read to its end-of-archive blocks
	if whole {
		err = a.readEnd(cr) // zero padding, or what makes the archive partial (trailer.go)
	}
	err = a.outcome(last, whole, err, finish(!whole || err != nil))
	if e := (*Error)(nil); errors.As(err, &e) && e.Kind == ErrFormat && last == "" && f != formatTar && singleFile(rec.head) {
		err = singleFileError(a.path, f) // `gzip ibstat`: no tar in it
	}
	a.tree.skipped, a.tree.cut, a.tree.again = a.skipped, a.cut, a.again
	return err
}

// readTar reads the members of the tar stream r into a.tree; it returns the name of the last
// member read.
func (a *archive) readTar(r io.Reader, f format) (last string, err error) {
	tr := tar.NewReader(r)
	var lastEnd int64 // where the last member's content ends in the stream
	end := int64(-1)  // where a whole archive's end-of-archive blocks end after it; -1 unknown
	for count := 0; ; count++ {
		hdr, err := tr.Next()
		if err == io.EOF {
			if count == 0 && f != formatTar {
				return last, a.fail("", ErrFormat, "%s stream holds no tar archive", f)
			}
			if last != "" && end >= 0 && a.stream.n < end {
				// archive/tar ends as quietly where the stream stops in the last member's
				// padding, or before the end-of-archive blocks, as after them.
				a.cut = &Cut{Member: last, Offset: a.stream.n}
			}
			return last, nil
		}
		if err != nil {
			if last != "" && broken(err) {
				// In the content of the last member (skipped unread), or in the next header.
				a.cutAt(last, a.stream.n < lastEnd, err, nil)
				return last, nil
			}
			return last, a.streamError(last, err)
		}
		if count >= a.opt.MaxMembers {
			return last, a.fail("", ErrLimit, "more than %d members", a.opt.MaxMembers)
		}
		last, lastEnd = hdr.Name, a.stream.n+hdr.Size
		end = archiveEnd(a.stream.n, hdr)
		if err := a.member(tr, hdr); err != nil {
			if isRefusal(err) {
				return last, err
			}
			if broken(err) {
				a.cutAt(last, true, err, nil)
				return last, nil
			}
			return last, a.streamError(last, err)
		}
		if a.cut != nil {
			return last, nil
		}
		a.offerView()
	}
}

// tarBlock is the tar format's block size; an archive ends with two zero blocks.
const tarBlock = 512

// archiveEnd returns where, in the tar stream, the end-of-archive blocks after the member hdr
// (whose content starts at offset at) end: its content padded to a block, then two zero
// blocks; -1 when its content's length in the stream is not its Size (a sparse file).
func archiveEnd(at int64, hdr *tar.Header) int64 {
	size := hdr.Size
	switch hdr.Typeflag {
	case tar.TypeLink, tar.TypeSymlink, tar.TypeChar, tar.TypeBlock, tar.TypeDir, tar.TypeFifo:
		size = 0 // archive/tar reads no content for these, whatever Size says
	case tar.TypeGNUSparse:
		return -1
	}
	for k := range hdr.PAXRecords {
		if strings.HasPrefix(k, "GNU.sparse.") {
			return -1
		}
	}
	padded := (at + size + tarBlock - 1) / tarBlock * tarBlock
	return padded + 2*tarBlock
}

func isRefusal(err error) bool {
	var e *Error
	return errors.As(err, &e)
}

// streamError explains a failure to read the stream in or after member last: the decoder's
// complaint (decodeError) is the archive's, as it is.
func (a *archive) streamError(last string, err error) error {
	switch {
	case errors.Is(err, errTotal):
		return a.fail(last, ErrLimit, "more than %d bytes uncompressed", a.opt.MaxStream)
	case isDecodeError(err) && !isCut(err):
		return a.fail("", ErrFormat, "%w", err)
	case errors.Is(err, io.ErrUnexpectedEOF) && last == "":
		return a.fail("", ErrFormat, "truncated before the first member")
	case errors.Is(err, io.ErrUnexpectedEOF):
		return a.fail(last, ErrFormat, "truncated")
	case last == "":
		return a.fail("", ErrFormat, "not a tar archive: %w", err)
	}
	return a.fail(last, ErrFormat, "%w", err)
}

// member adds one tar entry to the fs, or refuses the archive. A member of a sosreport is
// decided from its path before its content is read (decide): one that nothing reads is
// skipped as the stream goes by.
func (a *archive) member(tr *tar.Reader, hdr *tar.Header) error {
	name, err := cleanMember(hdr.Name)
	if err != nil {
		return a.fail(hdr.Name, ErrUnsafe, "%w", err)
	}
	n := &node{mode: hdr.FileInfo().Mode(), modTime: hdr.ModTime, size: hdr.Size}
	pend, read := false, false
	switch hdr.Typeflag {
	case tar.TypeDir:
		if name == "." {
			return nil
		}
		if d, _ := a.decide(name, true); d == Skip {
			return nil
		}
		n.mode, n.size, n.kids = fs.ModeDir|n.mode.Perm(), 0, map[string]*node{}
	case tar.TypeReg, tar.TypeGNUSparse, tar.TypeCont:
		var d Decision
		switch d, pend = a.decide(name, false); d {
		case Skip:
			a.skipped++
			return nil // the tar reader skips its content
		case List:
			n.mode, n.err = n.mode.Perm(), errNotKept
		default:
			if err := a.fill(n, tr, hdr); broken(err) {
				// Listed, unread: the cut is named where the member is read.
				n.data, n.packed = nil, nil
				a.cutAt(hdr.Name, true, err, n)
			} else if err != nil {
				return err
			}
			read = d == Read
		}
	case tar.TypeSymlink:
		// A link whose target is absolute or leaves the archive is kept as it is: memFS never
		// follows it out (opening it, or anything below it, fails with errLinkEscape), and
		// the builder names it (a systemd *.wants link in etc/ is no reason to refuse a
		// sosreport). Links are kept wherever they are, having no content: the builder names
		// those that leave the archive, and sysfs trees are read through them.
		if hdr.Linkname == "" {
			return a.fail(hdr.Name, ErrUnsafe, "symbolic link with an empty target")
		}
		d, _ := a.decide(name, false)
		if d == Skip && a.opt.Want != nil {
			return nil // Options.Want alone decides links too
		}
		n.target, n.size, read = hdr.Linkname, int64(len(hdr.Linkname)), d == Read
	case tar.TypeLink:
		if err := checkLink(name, hdr.Linkname, true); err != nil {
			return a.fail(hdr.Name, ErrUnsafe, "hard link to %q: %w", hdr.Linkname, err)
		}
		var d Decision
		if d, pend = a.decide(name, false); d == Skip {
			a.skipped++
			return nil
		}
		tname, err := cleanMember(hdr.Linkname)
		if err != nil {
			return a.fail(hdr.Name, ErrUnsafe, "hard link to %q: %w", hdr.Linkname, err)
		}
		target, err := a.tree.lookup("link", tname, false)
		switch {
		case err == nil && !target.isDir() && !target.isSymlink():
			n.mode, n.size, n.data, n.packed, n.err = target.mode, target.size, target.data, target.packed, target.err
		case errors.Is(err, fs.ErrNotExist):
			// Its target was skipped (or comes later, which tar does not write): the content
			// went by unread. Listed, and reading it says why.
			n.mode, n.size, n.err = n.mode.Perm(), 0, fmt.Errorf("hard link to %s, which was not kept", tname)
		default:
			a.skipped++
			return nil // a link to a folder or a symbolic link carries no content
		}
		if d == List {
			n.data, n.packed, n.err = nil, nil, errNotKept
		}
		read = d == Read
	case tar.TypeChar, tar.TypeBlock, tar.TypeFifo:
		return a.fail(hdr.Name, ErrUnsafe, "is a %s, not a file", specialKind(hdr.Typeflag))
	default:
		return nil // global headers, volume labels and other non-file entries carry no input
	}
	if name == "." {
		return a.fail(hdr.Name, ErrUnsafe, "names the archive root")
	}
	again, err := a.tree.add(name, n)
	if err != nil {
		return a.fail(hdr.Name, ErrUnsafe, "%w", err)
	}
	if again {
		a.again.note(name)
	}
	a.settle.changed()
	if pend {
		a.roots.pending = append(a.roots.pending, pending{name, n})
	}
	if read && a.opt.Seen != nil {
		rel, ok := a.roots.of(name)
		if !ok {
			rel = name
		}
		a.opt.Seen(rel)
	}
	return nil
}

// decide returns what becomes of the member name (a folder when dir is set): Options.Want's
// answer when it is set; else, in a folder known to be a sosreport, the installed Selector's;
// else Read, pending (true) for a file: kept as a capture would be, and decided again if its
// folder turns out to be a sosreport.
func (a *archive) decide(name string, dir bool) (Decision, bool) {
	if a.opt.Want != nil {
		if a.opt.Want(name) {
			return Read, false
		}
		return Skip, false
	}
	if a.opt.keepAll {
		return Read, false
	}
	if root, isNew := a.roots.learn(name); isNew {
		a.resolve(root)
	}
	rel, ok := a.roots.of(name)
	if !ok {
		return Read, !dir
	}
	return Select(rel, dir), false
}

// resolve decides the members kept pending below root, which has just shown to be a
// sosreport: those nothing reads are taken out of the tree again.
func (a *archive) resolve(root string) {
	for _, p := range a.roots.under(root) {
		rel := p.name
		if root != "" {
			rel = strings.TrimPrefix(rel, root+"/")
		}
		switch Select(rel, false) {
		case Skip:
			if a.tree.remove(p.name, p.n) {
				a.skipped++
				a.kept -= p.n.size
				a.settle.changed()
			}
		case List:
			a.kept -= p.n.size
			p.n.data, p.n.packed, p.n.err = nil, nil, errNotKept
			a.settle.changed()
		}
	}
}

// fill reads a regular member's content, or marks it unreadable when it is over MaxMember.
func (a *archive) fill(n *node, tr *tar.Reader, hdr *tar.Header) error {
	n.mode = n.mode.Perm()
	if hdr.Size > a.opt.MaxMember {
		n.err = fmt.Errorf("%s: member larger than %d bytes (%d), not read", a.path, a.opt.MaxMember, hdr.Size)
		return nil
	}
	// Sparse members expand beyond what the stream holds: cap what is kept, too.
	if a.kept += hdr.Size; a.kept > a.opt.MaxTotal {
		return a.fail(hdr.Name, ErrLimit, "more than %d bytes uncompressed kept", a.opt.MaxTotal)
	}
	if hdr.Size > packAbove {
		return pack(n, tr, hdr.Size)
	}
	n.data = make([]byte, hdr.Size)
	if _, err := io.ReadFull(tr, n.data); err != nil {
		return err
	}
	return nil
}

func specialKind(t byte) string {
	switch t {
	case tar.TypeChar:
		return "character device"
	case tar.TypeBlock:
		return "block device"
	}
	return "FIFO"
}

// cleanMember returns the member name as a valid fs path. Absolute names and names with a ".."
// element are refused, not cleaned: an archive that holds them is not a sosreport.
func cleanMember(raw string) (string, error) {
	if name := strings.TrimSuffix(raw, "/"); name != "" && fs.ValidPath(name) {
		return name, nil // already clean, as nearly every member of a real archive is
	}
	return cleanPath(raw)
}

// cleanPath is cleanMember for any name: each element looked at.
func cleanPath(raw string) (string, error) {
	if raw == "" {
		return "", errors.New("empty name")
	}
	if strings.HasPrefix(raw, "/") {
		return "", errors.New("absolute path")
	}
	var parts []string
	for _, p := range strings.Split(raw, "/") {
		switch p {
		case "", ".":
			continue
		case "..":
			return "", errors.New("path leaves the archive (..)")
		}
		parts = append(parts, p)
	}
	if len(parts) == 0 {
		return ".", nil
	}
	name := strings.Join(parts, "/")
	if !fs.ValidPath(name) {
		return "", errors.New("invalid path")
	}
	return name, nil
}

// LeavesTree reports whether the symbolic link name (a slash-separated path inside a tree) with
// target points out of the tree: an absolute target, or one whose ".." climb above the root.
func LeavesTree(name, target string) bool {
	return checkLink(name, target, false) != nil
}

// checkLink refuses a link whose target is absolute or, resolved from the link's folder (or,
// for a hard link, from the archive root), leaves the archive.
func checkLink(name, target string, hard bool) error {
	if target == "" {
		return errors.New("empty target")
	}
	if path.IsAbs(target) {
		return errors.New("absolute target")
	}
	from := path.Dir(name)
	if hard {
		from = "."
	}
	j := path.Join(from, target)
	if j == ".." || strings.HasPrefix(j, "../") {
		return errors.New("target leaves the archive")
	}
	return nil
}

// cappedReader fails once more than max bytes were read through it.
type cappedReader struct {
	r      io.Reader
	n, max int64
}

func (c *cappedReader) Read(p []byte) (int, error) {
	if c.n > c.max {
		return 0, errTotal
	}
	if rest := c.max - c.n + 1; int64(len(p)) > rest {
		p = p[:rest]
	}
	k, err := c.r.Read(p)
	c.n += int64(k)
	if c.n > c.max {
		return k, errTotal
	}
	return k, err
}
