package engine

// InputValue is inputValue for the benchmarks of package engine_test.
var InputValue = inputValue
