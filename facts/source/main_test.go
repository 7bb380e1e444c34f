package source_test

import (
	"os"
	"testing"
)

func TestMain(m *testing.M) {
	code := m.Run()
	removeSosreport()
	os.Exit(code)
}
