package source

import (
	"io/fs"

	"github.com/rdmadoctor/rdmadoctor/facts"
)

// Default limits for reading archives and captures.
const (
	// DefaultMaxMember caps one member (or capture) kept in memory; gather reads no more either.
	DefaultMaxMember = 64 << 20
	// DefaultMaxTotal caps the uncompressed bytes kept in memory from one archive.
	DefaultMaxTotal = 1 << 30
	// DefaultMaxStream caps the uncompressed bytes read from one archive, kept or skipped: it
	// stops decompression bombs (at xz-utils' 60-100 MB/s, 16 GiB is 3-5 minutes) and lets a
	// real sosreport with gigabytes of journals and logs no rule reads through.
	DefaultMaxStream = 16 << 30
	// DefaultMaxMembers caps the number of archive members (files, directories, links).
	DefaultMaxMembers = 200_000
)

// Options tune how archives are read. The zero value means the defaults.
type Options struct {
	// Want, when set, alone says whether a member is kept in memory; it gets the member's
	// cleaned path inside the archive (with any top folder), for files, folders and links. Nil
	// means: the members of a sosreport as the installed Selector decides (facts/build's,
	// derived from the input specs), every other member kept.
	Want func(name string) bool
	// MaxMember caps one kept member: a larger member is listed in the fs but reading it
	// fails with an error saying so. Zero means DefaultMaxMember.
	MaxMember int64
	// MaxTotal caps the uncompressed bytes of the members kept; past it the archive is
	// refused. Zero means DefaultMaxTotal.
	MaxTotal int64
	// MaxStream caps the uncompressed bytes read from the archive, skipped members included;
	// past it the archive is refused. Zero means DefaultMaxStream.
	MaxStream int64
	// MaxMembers caps the number of members; past it the archive is refused. Zero means
	// DefaultMaxMembers.
	MaxMembers int
	// Seen, when set, is called as the archive streams with each member kept to be read (a
	// file or link decided Read, or kept as a capture): its path below its sosreport's top
	// folder, or in the archive when it is not known to be in one. It runs on the reading
	// goroutine, before the archive is read to its end: diagnose guesses from these paths
	// which rules the snapshot can run and compiles them meanwhile. A pending member later
	// found to be in a sosreport that reads nothing of it was still Seen. For a folder,
	// OpenWith lists the files the snapshot could read and calls Seen with each before it
	// returns (seeFolder).
	Seen func(rel string)
	// Started, when set, is called once by OpenWith when the reading is under way: for an
	// archive, once its decoder runs (xz-utils started, or the goroutine that decodes), before
	// its first member is read; for a folder or a single capture, before it is read. diagnose
	// starts loading its rules then, so that this work does not delay the start of xz-utils
	// on a busy machine. It runs on the reading goroutine and must not block.
	Started func()
	// Settled, when set, is called on the reading goroutine of an archive once the stream has
	// gone settleAfter members past the last one that changed what is kept, and again with each
	// member after that until view is called. view returns what OpenWith would return were the
	// archive to end there: a copy of what is kept so far, which the reading goes on without
	// (safe to read on another goroutine); false when it cannot say (the archive would be read
	// again whole, rereadAll). diagnose evaluates that snapshot while the rest of the archive
	// streams by (cmd/rdmadoctor speculate.go). Settled must not block; view may be called
	// during the call only.
	Settled func(view func() (fs.FS, facts.SourceInfo, bool))
	// Check, when set, is called with the whole tree of an archive once it is read (its
	// members as kept, with any top folder; before it is re-rooted at the report folder in it),
	// and its error refuses the archive as it is: diagnose refuses there an archive that holds
	// several snapshots, as it refuses such a folder (build.CheckOneSnapshot), rather than read
	// one of them and drop the others.
	Check func(top fs.FS) error
	// PureGoXZ decodes .xz in-process (github.com/ulikunitz/xz) even when xz-utils is
	// installed; by default xz-utils decodes, about four times faster.
	PureGoXZ bool

	// keepAll keeps every member: the second reading of an archive whose top folder was taken
	// for a sosreport by its name but holds no sos_commands/.
	keepAll bool
}

// started calls Started, if set.
func (o Options) started() {
	if o.Started != nil {
		o.Started()
	}
}

func (o Options) withDefaults() Options {
	if o.MaxMember <= 0 {
		o.MaxMember = DefaultMaxMember
	}
	if o.MaxTotal <= 0 {
		o.MaxTotal = DefaultMaxTotal
	}
	if o.MaxStream <= 0 {
		o.MaxStream = DefaultMaxStream
	}
	if o.MaxMembers <= 0 {
		o.MaxMembers = DefaultMaxMembers
	}
	return o
}
