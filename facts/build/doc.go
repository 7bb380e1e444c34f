// Package build builds a facts.Snapshot from a sos-shaped filesystem (a sosreport, a gather
// output, or a folder of loose captures): it recognises each file as a spec's output (by path,
// by the command name sos gives it, or by content), runs that spec's pure parser, merges the
// records, joins RDMA devices, PCI functions, netdevs, firmware queries and IRQs, and records
// what each file was taken as in sources[]. In a sosreport, each file is first decided from its
// path alone (Select, derived from the specs' Paths, Root, Commands and Plugin): what no spec
// could read is counted, never opened, and an archive skips it as it streams (facts/source).
//
// The package is named for its step in the flow (source -> build -> engine), not "gather":
// `rdmadoctor gather`, the live collection, is facts/live, which writes the tree this package
// reads.
//
// Every input tool has one declaration here, its Spec, in a file named for the tool
// (spec_ibstat.go, ...). Adding a parser means a parser in facts/parse and one spec file here;
// the live plan, the allow-list, the package hints and the fact groups are derived from it.
package build
