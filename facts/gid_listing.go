package facts

// GIDListing is what a GID listing tool said of the whole table it walked, beyond its rows:
// show_gids ends with `n_gids_found=N`, the number of GIDs it found in all devices' sysfs gid
// tables of the namespace it ran in. Found 0 with RDMA devices present means no GID at all:
// InfiniBand ports always have their default GID, so those are RoCE devices with no netdev
// (and address) bound to them in this namespace.
type GIDListing struct {
	// Found is the tool's own count of the GIDs it listed.
	Found int `json:"found"`
	// Evidence is the line that says it ("n_gids_found=0").
	Evidence Evidence `json:"evidence"`
}
