package parse_test

import (
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/rdmadoctor/rdmadoctor/facts"
)

// noEvidence compares facts without their evidence maps; evidence is checked on its own.
var noEvidence = cmp.Options{
	cmpopts.IgnoreFields(facts.Netdev{}, "Evidence"),
	cmpopts.IgnoreFields(facts.Module{}, "Evidence"),
	cmpopts.IgnoreFields(facts.PCIFunction{}, "Evidence"),
	cmpopts.IgnoreFields(facts.IRQ{}, "Evidence"),
	cmpopts.IgnoreFields(facts.NetdevVF{}, "Evidence"),
	cmpopts.EquateEmpty(),
}

func ip(v int) *int                     { return &v }
func bp(v bool) *bool                   { return &v }
func fp(v float64) *float64             { return &v }
func ev(n int, t string) facts.Evidence { return facts.Evidence{Line: n, Text: t} }
