package live_test

import (
	"testing"

	_ "github.com/rdmadoctor/rdmadoctor/facts/live"
	"github.com/rdmadoctor/rdmadoctor/internal/lazyre"
)

// The package's regexps compile on first use (lazyre), not at init: compile them all here so that
// an invalid one fails the tests rather than the first run that reaches it.
func TestRegexpsCompile(t *testing.T) {
	if err := lazyre.Check(); err != nil {
		t.Fatal(err)
	}
}
