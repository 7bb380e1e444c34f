package rules

// docs/rules, the rule reference, from the rules' METADATA; cmd/rdmadoctor's TestRuleDocs fails
// while it is stale.

//go:generate go run ../cmd/rdmadoctor rules docs -o ../docs/rules
