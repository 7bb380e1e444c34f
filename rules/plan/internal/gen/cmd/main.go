// Command cmd writes rules/plan/policy_gen.go, the built-in rules planned to OPA IR, and
// rules/plan/rules_gen.go, their metadata as the engine loads it; run it with
// `go generate ./rules/plan`.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"

	"github.com/rdmadoctor/rdmadoctor/rules"
	"github.com/rdmadoctor/rdmadoctor/rules/plan/internal/gen"
)

func main() {
	out := flag.String("o", "policy_gen.go", "file to write")
	meta := flag.String("rules", "rules_gen.go", "file to write the rules' metadata to")
	pkg := flag.String("pkg", "plan", "package of the generated file")
	flag.Parse()
	if err := run(*out, *pkg, *meta); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

func run(out, pkg, meta string) error {
	b, err := gen.BuiltinRulesSource(pkg)
	if err != nil {
		return err
	}
	if err := os.WriteFile(meta, b, 0o644); err != nil {
		return err
	}
	p, err := gen.Build(context.Background(), rules.FS, false)
	if err != nil {
		return err
	}
	src, err := gen.GoSource(p, pkg)
	if err != nil {
		return err
	}
	return os.WriteFile(out, src, 0o644)
}
