package rules

// docs/rules, the rule reference, from the rules' METADATA; cmd/rdmadoctor's TestRuleDocs fails
// while it is stale. index.json, the index of the modules the engine loads without parsing
// them; engine TestBuiltinIndex fails while it is stale.

//go:generate go run ../cmd/rdmadoctor rules docs -o ../docs/rules
//go:generate env RDMADOCTOR_UPDATE_INDEX=1 go test -count=1 -run ^TestBuiltinIndex$ ../engine
