package facts

// FleetFabric is the fabric seen from all nodes at once, keyed by GUID and port.
type FleetFabric struct{}
