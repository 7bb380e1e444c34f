package fabricview

// SetLimits lowers a view's port and link caps, for tests of the bounds.
func SetLimits(v *View, ports, links int) { v.maxPorts, v.maxLinks = ports, links }
