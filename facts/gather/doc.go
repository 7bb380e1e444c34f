// Package gather turns a sos-shaped filesystem (a sosreport, a gather output, or a folder of loose
// captures) into a facts.Snapshot: it recognises each file as a spec's output (by path, by the
// command name sos gives it, or by content), runs that spec's pure parser, merges the records, and
// joins RDMA devices, PCI functions, netdevs, firmware queries and IRQs.
//
// Every spec has one file here named for the tool (spec_ibstat.go, ...). Adding a parser means
// adding a parser in facts/parse and one spec file here; nothing else changes.
package gather
