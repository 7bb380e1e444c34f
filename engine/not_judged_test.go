package engine_test

import (
	"context"
	"strings"
	"testing"

	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/facts/build"
)

// TestBlankFirmwareNotJudged: corpus 003's ibstat, on whose MT4125s (ConnectX-6 Dx: mlx5_1, 2,
// 7, 8) the rule fires, with their "Firmware version: 22.38.1002" lines blanked. The version is unknown, not
// current: the rule is listed in skipped naming the device and the line, never silently
// passed, and the other devices are still judged.
func TestBlankFirmwareNotJudged(t *testing.T) {
	const id = "firmware-outdated-for-driver"
	fsys := vary(t, caseFS(t, "003"), "ibstat", "\tFirmware version: 22.38.1002", "\tFirmware version: ")
	s, err := build.Snapshot(fsys, facts.SourceInfo{Kind: "captures"})
	if err != nil {
		t.Fatal(err)
	}
	rep, err := builtinEngine(t).Diagnose(context.Background(), s)
	if err != nil {
		t.Fatal(err)
	}
	if ds := byID(rep, id); len(ds) != 0 {
		t.Errorf("diagnosed with blank versions: %s", summary(rep))
	}
	var found bool
	for _, sk := range rep.Skipped {
		if sk.ID != id {
			continue
		}
		found = true
		if strings.Join(sk.NotJudged, " ") != "mlx5_1 mlx5_2 mlx5_7 mlx5_8" ||
			!strings.Contains(sk.Reason, "could not judge mlx5_1 (ibstat:21), mlx5_2 (ibstat:72), mlx5_7 (ibstat:157), mlx5_8 (ibstat:174): its running firmware version is unknown") {
			t.Errorf("skipped: %+v", sk)
		}
	}
	if !found {
		t.Errorf("%s neither diagnosed mlx5_1 nor listed as skipped: %s", id, summary(rep))
	}
}
