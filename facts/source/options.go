package source

import "strings"

// Default limits for reading archives and captures.
const (
	// DefaultMaxMember caps one member (or capture) kept in memory; gather reads no more either.
	DefaultMaxMember = 64 << 20
	// DefaultMaxTotal caps the uncompressed bytes read from one archive, kept or not: it stops
	// decompression bombs.
	DefaultMaxTotal = 1 << 30
	// DefaultMaxMembers caps the number of archive members (files, directories, links).
	DefaultMaxMembers = 200_000
)

// Options tune how archives are read. The zero value means the defaults.
type Options struct {
	// Want says whether a member is kept in memory; it gets the member's cleaned path inside the
	// archive (with any top folder), for files and symbolic links. Nil means DefaultWant.
	Want func(name string) bool
	// MaxMember caps one kept member: a larger member is listed in the fs but reading it
	// fails with an error saying so. Zero means DefaultMaxMember.
	MaxMember int64
	// MaxTotal caps the uncompressed bytes read from the archive; past it the archive is
	// refused. Zero means DefaultMaxTotal.
	MaxTotal int64
	// MaxMembers caps the number of members; past it the archive is refused. Zero means
	// DefaultMaxMembers.
	MaxMembers int
	// PureGoXZ decodes .xz in-process (github.com/ulikunitz/xz) even when xz-utils is
	// installed; by default xz-utils decodes, about four times faster.
	PureGoXZ bool
}

func (o Options) withDefaults() Options {
	if o.Want == nil {
		o.Want = DefaultWant
	}
	if o.MaxMember <= 0 {
		o.MaxMember = DefaultMaxMember
	}
	if o.MaxTotal <= 0 {
		o.MaxTotal = DefaultMaxTotal
	}
	if o.MaxMembers <= 0 {
		o.MaxMembers = DefaultMaxMembers
	}
	return o
}

// wantedPlugins are the sos plugin folders under sos_commands/ that DefaultWant keeps: the RDMA
// stack itself, and what rules need around it (kernel, PCI, NUMA, IRQs, services, logs).
var wantedPlugins = map[string]bool{
	"infiniband": true, "mellanox_firmware": true, "rdma": true, "opensm": true,
	"pci": true, "networking": true, "kernel": true, "hardware": true, "processor": true,
	"numa": true, "memory": true, "devices": true, "firmware": true, "process": true,
	"systemd": true, "logs": true, "host": true, "release": true, "date": true,
}

// sosOwnTop are folders only a sosreport has at its top.
var sosOwnTop = map[string]bool{"sos_commands": true, "sos_reports": true, "sos_logs": true, "sos_strings": true}

// droppedTop are sosreport top-level folders that hold nothing any parser reads.
var droppedTop = map[string]bool{
	"sos_reports": true, "sos_logs": true, "sos_strings": true,
	"usr": true, "lib": true, "lib64": true, "boot": true, "run": true, "dev": true, "opt": true,
}

// DefaultWant keeps what the parsers may read from a sosreport, a gather output or a folder of
// captures, and drops the bulk of a sosreport that none of them reads:
//   - sos_commands/<plugin>/... only for the plugins infiniband, mellanox_firmware, rdma,
//     opensm, pci, networking, kernel, hardware, processor, numa, memory, devices, firmware,
//     process, systemd, logs, host, release and date;
//   - var/ only below var/log/;
//   - nothing below sos_reports/, sos_logs/, sos_strings/, usr/, lib/, lib64/, boot/, run/,
//     dev/, opt/;
//   - everything else: top-level files (captures, and sos's links such as lspci), sys/, proc/,
//     etc/, rdmadoctor.yaml, and folders of captures under any other name.
//
// The report's own top folder is looked through: the rules apply to the path below a first
// folder named sosreport-* or followed by sos_commands/, sos_reports/, sos_logs/ or sos_strings/.
func DefaultWant(name string) bool {
	first, rest, _ := strings.Cut(name, "/")
	if second, _, _ := strings.Cut(rest, "/"); rest != "" && !sosOwnTop[first] &&
		(strings.HasPrefix(first, "sosreport") || sosOwnTop[second]) {
		first, rest, _ = strings.Cut(rest, "/")
	}
	if rest == "" {
		return !droppedTop[first]
	}
	switch first {
	case "sos_commands":
		plugin, _, _ := strings.Cut(rest, "/")
		return wantedPlugins[plugin]
	case "var":
		return rest == "log" || strings.HasPrefix(rest, "log/")
	}
	return !droppedTop[first]
}
