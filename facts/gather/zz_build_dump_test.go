package gather

import (
	"encoding/json"
	"fmt"
	"os"
	"testing"

	"github.com/rdmadoctor/rdmadoctor/facts"
)

func TestZZBuildDump(t *testing.T) {
	dir := os.Getenv("CASEDIR")
	if dir == "" {
		t.Skip()
	}
	s, err := Build(os.DirFS(dir), facts.SourceInfo{Kind: "captures", Path: dir})
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]any{"nv": s.NVConfig, "fw": s.Firmware, "mst": s.MSTDevices, "mlxlink": s.MlxLink, "host": s.Host, "sources": s.Sources}
	j, _ := json.MarshalIndent(out, "", " ")
	fmt.Println(string(j))
}
