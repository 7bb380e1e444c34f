package report

// docs/report.schema.json and docs/fleet-report.schema.json are generated from the types of this
// package (and the facts types they hold); report/internal/gen TestGenerated fails while one is
// stale.

//go:generate go run ./internal/gen -o ../docs/report.schema.json -root ..
//go:generate go run ./internal/gen -type fleet -o ../docs/fleet-report.schema.json -root ..
