package parse_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/facts/parse"
	"github.com/rdmadoctor/rdmadoctor/fixtures"
)

func TestFlint(t *testing.T) {
	const (
		fs3    = "flint/cx4-lenovo-fs3.txt"
		before = "flint/cx3-fs2-blank-guids-before.txt"
		after  = "flint/cx3-fs2-after-burn-running-old.txt"
		hp     = "flint/cx3pro-hp-mstflint-4.29.txt"
		refuse = "flint/cx2-cannot-open-device.txt"
	)
	e := func(f string, n int) facts.Evidence { return fixtureEv(t, f, n) }
	for _, tc := range []struct {
		fixture string
		want    facts.FirmwareInfo
	}{
		{fs3, facts.FirmwareInfo{
			ImageType: "FS3", Version: "12.28.2006", ReleaseDate: "15.9.2020", ProductVersion: "12.28.2006",
			BaseGUID: "ec0d9a030076eae2", BaseMAC: "ec0d9a76eae2", PSID: "LNV2180110032",
			Evidence: facts.EvidenceMap{
				"image_type": e(fs3, 1), "version": e(fs3, 2), "release_date": e(fs3, 3), "product_version": e(fs3, 4),
				"base_guid": e(fs3, 8), "base_mac": e(fs3, 9), "psid": e(fs3, 12),
			},
		}},
		// Case 045 before the burn: FS2 image with blank (all-ones) GUIDs.
		{before, facts.FirmwareInfo{
			ImageType: "FS2", Version: "2.35.5100", ReleaseDate: "6.9.2015", ProductVersion: "02.35.51.00",
			DeviceID: "4099", BaseGUID: "ffffffffffffffff", BaseMAC: "e41d2ddd7850", PSID: "MT_1170110023",
			Evidence: facts.EvidenceMap{
				"image_type": e(before, 1), "version": e(before, 2), "release_date": e(before, 3), "product_version": e(before, 6),
				"device_id": e(before, 8), "base_guid": e(before, 10), "base_mac": e(before, 11), "psid": e(before, 13),
			},
		}},
		// After the burn the flash holds 2.42.5000 but 2.35.5100 still runs until a reset.
		{after, facts.FirmwareInfo{
			ImageType: "FS2", Version: "2.35.5100", PendingVersion: "2.42.5000", ReleaseDate: "5.9.2017",
			ProductVersion: "02.42.50.00", DeviceID: "4099", BaseGUID: "ffffffffffffffff", BaseMAC: "e41d2ddd7850",
			PSID: "MT_1170110023",
			Evidence: facts.EvidenceMap{
				"image_type": e(after, 1), "pending_version": e(after, 2), "version": e(after, 3), "release_date": e(after, 4),
				"product_version": e(after, 8), "device_id": e(after, 10), "base_guid": e(after, 12), "base_mac": e(after, 13),
				"psid": e(after, 15),
			},
		}},
		{hp, facts.FirmwareInfo{
			ImageType: "FS2", Version: "2.42.5044", ReleaseDate: "21.10.2018", ProductVersion: "02.42.50.44",
			DeviceID: "4103", BaseGUID: "b88303ffff93f430", BaseMAC: "b8830393f431", PSID: "HP_1370110017",
			Evidence: facts.EvidenceMap{
				"image_type": e(hp, 1), "version": e(hp, 2), "release_date": e(hp, 3), "product_version": e(hp, 4),
				"device_id": e(hp, 8), "base_guid": e(hp, 10), "base_mac": e(hp, 11), "psid": e(hp, 13),
			},
		}},
		{refuse, facts.FirmwareInfo{
			Refusal:  "-E- Cannot open Device: 01:00.0. Operation not supported. MFE_CR_ERROR",
			Evidence: facts.EvidenceMap{"refusal": e(refuse, 1)},
		}},
	} {
		if parse.FlintBurn(fixtures.Read(t, tc.fixture)) {
			t.Errorf("%s: taken for a burn log", tc.fixture)
		}
		got, err := parse.Flint(fixtures.Read(t, tc.fixture))
		if err != nil {
			t.Fatalf("%s: %v", tc.fixture, err)
		}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tc.fixture, diff)
		}
	}
	if !parse.FlintBurn(fixtures.Read(t, "flint/cx3-burn-log.txt")) {
		t.Error("flint/cx3-burn-log.txt: burn log not recognised")
	}
}

// TestFlintCutShort: case 045's query after the burn, cut after its second line, has lost the
// running version (2.35.5100) that follows: read as is it would say 2.42.5000 runs. The record
// is kept and the cut is named.
func TestFlintCutShort(t *testing.T) {
	const after = "flint/cx3-fs2-after-burn-running-old.txt"
	b := fixtures.Read(t, after)
	lines := strings.SplitAfter(string(b), "\n")
	got, err := parse.Flint([]byte(strings.Join(lines[:2], "")))
	ps, ok := parse.AsProblems(err)
	if !ok || len(ps) != 1 || ps[0].Line != 2 || !strings.Contains(ps[0].Why, "before its PSID line") {
		t.Fatalf("err = %v, want the cut named at line 2", err)
	}
	if got.Version != "2.42.5000" {
		t.Errorf("version = %q, want what the kept lines say (2.42.5000)", got.Version)
	}
	if _, err := parse.Flint(b); err != nil {
		t.Errorf("whole query: %v", err)
	}
}
