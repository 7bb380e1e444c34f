package lazyre_test

import (
	"testing"

	_ "github.com/rdmadoctor/rdmadoctor/facts/gather"
	_ "github.com/rdmadoctor/rdmadoctor/facts/live"
	_ "github.com/rdmadoctor/rdmadoctor/facts/parse"
	"github.com/rdmadoctor/rdmadoctor/internal/lazyre"
)

// The packages that use lazyre compile their regexps on first use, not at init: compile them
// all here so that an invalid one fails the tests rather than the first run that reaches it.
func TestUsersRegexpsCompile(t *testing.T) {
	if err := lazyre.Check(); err != nil {
		t.Fatal(err)
	}
}
