package main

import (
	"bytes"
	"strings"
	"testing"
)

// TestRulesTestOnBuiltinFolder: pointing `rules test` at the built-in folder gives one hint, not
// a "loaded twice" line per rule.
func TestRulesTestOnBuiltinFolder(t *testing.T) {
	var out, errb bytes.Buffer
	code := run([]string{"rdmadoctor", "rules", "test", "../../rules"}, strings.NewReader(""), &out, &errb)
	if code != exitUsage || strings.Count(errb.String(), "\n") != 1 || !strings.Contains(errb.String(), "it is for site rules") {
		t.Errorf("exit %d, stderr:\n%s", code, errb.String())
	}
}
