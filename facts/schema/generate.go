package schema

// The comment table first, then the schemas built with it (internal/gen says why two runs).
// TestGenerated fails while any of the three files is stale.

//go:generate go run ./internal/gen -comments comments_gen.go -facts ..
//go:generate go run ./internal/gen -snapshot ../../docs/snapshot.schema.json -profile ../../docs/profile.schema.json -fleet ../../docs/fleet.schema.json
