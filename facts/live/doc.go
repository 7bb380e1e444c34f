// Package live gathers facts from the running node: it discovers RDMA devices, netdevs and
// Mellanox PCI functions under a root (normally "/"), runs read-only diagnostic commands in
// parallel under timeouts, copies the relevant sysfs, procfs and configuration files, and
// produces the same sos-shaped tree that build.Snapshot reads from a sosreport. Written out
// (directory or .tar.gz, optionally redacted) the tree is a snapshot with an rdmadoctor.yaml
// describing every command that ran.
//
// Every argv passes Check, a hard allow-list of read-only invocations, before it is run.
package live
