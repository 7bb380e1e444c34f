// Package fabricview merges the fabric captures of many nodes' snapshots into one view of the
// InfiniBand fabric (facts.FleetFabric), for the fleet rules (rules/fleet/).
//
// Each snapshot's iblinkinfo lines, ibdiagnet2 ports (net_dump, pm, db_csv) and ibqueryerrors
// ports, local perfquery answers, ibnetdiscover/ibhosts nodes and sminfo answers are copied
// into the view by View.Add, the host's own HCA ports (ibstat, sysfs, ibv_devinfo) with them;
// the snapshot can then be dropped. View.Fabric joins what all hosts saw:
//
//   - A port is named by "<GUID>/<port number>": a switch's ports by the switch's node GUID, a
//     CA's by its node GUID or its port GUID. A record that names both (an ibstat port, an
//     ibdiagnet2 CA port) ties the two names to one port. Nothing else makes two records one
//     port: not a node description, not a LID seen in two files.
//   - A link is known when a record names both ends: an iblinkinfo line's peer LID and port,
//     looked up among the lines of the same file (one run of iblinkinfo sees one subnet, where
//     LIDs are unique), or a net_dump line's Neighbor Guid and N# (the peer's label or port
//     number, or the peer's only port when its node has one port).
//   - A host's port is cabled to the far end of the link of the fabric port with its GUID.
//
// Add is safe for concurrent use. The view is bounded: MaxPorts ports, MaxLinks links, and
// MaxViews views per port (those of the lowest host labels are kept, so the result does not
// depend on the order of Add calls); what was dropped is counted in the result.
package fabricview
