package build

// SpecOf returns the name of the spec that reads the snapshot file at p (by tree root, path
// pattern or command name, as Snapshot matches it), or "" when none does. The live gatherer uses
// it to say which source a command that did not run would have fed.
func SpecOf(p string) string {
	specs := Specs()
	if sp := underTree(specs, p); sp != nil {
		return sp.Name
	}
	if sp := matchPath(specs, p); sp != nil {
		return sp.Name
	}
	if sp, _, _ := matchName(specs, p); sp != nil {
		return sp.Name
	}
	return ""
}
