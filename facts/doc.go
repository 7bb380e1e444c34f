// Package facts holds the typed snapshot of everything rdmadoctor knows about one node's RDMA
// stack: devices and ports, netdevs, PCI functions, firmware configuration, IRQs, fabric views and
// host settings. The JSON field names are exactly what the Rego rules see as `input`.
//
// A fact that could not be gathered is null (a nil pointer, an empty string or an absent map key),
// never zero or false; Snapshot.Sources says which inputs were looked for and what happened to each.
package facts
