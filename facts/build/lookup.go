package build

import "path"

// SpecOf returns the name of the spec that reads the snapshot file at p (by tree root, path
// pattern or command name, as Snapshot matches it), or "" when none does. The live gatherer uses
// it to say which source a command that did not run would have fed.
func SpecOf(p string) string {
	specs := sorted() // shared: read only
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

// GroupsOf returns the fact groups the snapshot file at p may feed, from its path alone: those
// of the spec that reads it by tree root, path pattern or command name (SpecOf's); nil when
// none does (a file recognised by its content feeds whatever its content is). diagnose guesses
// from them, while an archive streams by, which rules the snapshot will run (a guess: the
// groups a snapshot has are those of the inputs that were read, facts.Available). Shared: callers
// must not modify it.
func GroupsOf(p string) []string {
	ix, specs := specIndex(), sorted()
	i := ix.underTree(p)
	if i < 0 {
		i = ix.matchPath(p)
	}
	if i < 0 {
		name, _ := splitName(path.Base(p))
		i, _ = ix.matchName(name)
	}
	if i < 0 {
		return nil
	}
	return specs[i].Groups
}
