// Command cmd writes rules/plan/policy_gen.go, the built-in rules planned to OPA IR; run it
// with `go generate ./rules/plan`.
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
	pkg := flag.String("pkg", "plan", "package of the generated file")
	flag.Parse()
	if err := run(*out, *pkg); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

func run(out, pkg string) error {
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
