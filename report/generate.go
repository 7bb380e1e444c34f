package report

// docs/report.schema.json is generated from the types of this package (and the facts types they
// hold); report/internal/gen TestGenerated fails while it is stale.

//go:generate go run ./internal/gen -o ../docs/report.schema.json -root ..
