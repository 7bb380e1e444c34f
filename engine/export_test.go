package engine

// InputValue is inputValue for the benchmarks of package engine_test.
var InputValue = inputValue

// LoadHeaders is what New does with Options.Lazy: the built-in rules are parsed up to their
// package clause only.
func LoadHeaders(sources ...Source) (*Set, error) { return load(true, sources...) }

// CorpusSnapshots is corpusSnapshots for the tests of package engine_test.
var CorpusSnapshots = corpusSnapshots

// OrderOf is the catalog order of a set.
func OrderOf(s *Set) map[string]int { return s.order }
