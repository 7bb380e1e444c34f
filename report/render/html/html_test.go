package html_test

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/rdmadoctor/rdmadoctor/report/render/html"
)


func TestDump(t *testing.T) {
	if os.Getenv("DUMP") == "" {
		t.Skip()
	}
	var b bytes.Buffer
	if err := html.Write(&b, realistic(t)); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(os.Getenv("DUMP"), b.Bytes(), 0o644)
	_ = strings.Contains
}
