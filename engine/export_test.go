package engine

// InputValue is inputValue for the benchmarks of package engine_test.
var InputValue = inputValue

// CorpusSnapshots is corpusSnapshots for the tests of package engine_test.
var CorpusSnapshots = corpusSnapshots

// OrderOf is the catalog order of a set.
func OrderOf(s *Set) map[string]int { return s.order }

// FleetInputValue is fleetInputValue for the tests of package engine_test.
var FleetInputValue = fleetInputValue
