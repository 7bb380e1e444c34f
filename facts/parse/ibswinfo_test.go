package parse_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/facts/parse"
	"github.com/rdmadoctor/rdmadoctor/fixtures"
)

func swStatuses(sw facts.SwitchHealth) map[string]string {
	m := map[string]string{}
	for _, s := range sw.Statuses {
		m[s.Name] = s.Value
	}
	return m
}

func TestIBSwInfo(t *testing.T) {
	for _, tc := range []struct {
		fixture           string
		desc, guid, fw    string
		temp, maxTemp     int
		statuses          map[string]string
		fans              int
		uptime            int64
		warnLow, warnHigh *int
	}{
		{"ibswinfo/msb7790-fan-error.txt", "SwitchIB Mellanox Technologies", "0x1c34da0300010540", "11.2008.2102", 45, 57,
			map[string]string{"psu0.status": "OK", "psu0.dc": "OK", "psu0.fan": "OK", "psu1.status": "OK", "psu1.dc": "OK", "psu1.fan": "OK", "fans": "ERROR"},
			8, 160*86400 + 10*3600 + 38*60 + 53, nil, nil},
		{"ibswinfo/mqm8790-healthy.txt", "Quantum Mellanox Technologies", "0x08c0eb0300d9f672", "27.2010.3118", 53, 58,
			map[string]string{"psu0.status": "OK", "psu0.dc": "OK", "psu0.fan": "OK", "psu1.status": "OK", "psu1.dc": "OK", "psu1.fan": "OK", "fans": "OK"},
			9, 96*86400 + 1*3600 + 55*60 + 47, nil, nil},
		{"ibswinfo/mqm8790-psu1-dc-fan-error.txt", "Quantum Mellanox Technologies", "0x08c0eb0300add20e", "27.2010.4102", 47, 52,
			map[string]string{"psu0.status": "OK", "psu0.dc": "OK", "psu0.fan": "OK", "psu1.status": "OK", "psu1.dc": "ERROR", "psu1.fan": "ERROR", "fans": "OK"},
			9, 67*86400 + 4*3600 + 19*60 + 16, nil, nil},
		{"ibswinfo/readme-default-mqm8790.txt", "<node description>", "", "27.2000.1886", 34, 41,
			map[string]string{"psu0.status": "OK", "psu0.dc": "OK", "psu0.fan": "OK", "psu1.status": "OK", "psu1.dc": "OK", "psu1.fan": "OK", "fans": "OK"},
			9, 196*86400 + 7*3600 + 5*60 + 40, ibInt(95), ibInt(105)},
	} {
		got, err := parse.IBSwInfo(fixtures.Read(t, tc.fixture))
		if tc.guid == "" {
			// The README's "GUID | <redacted>" is the author's placeholder, named as a problem.
			ps, ok := parse.AsProblems(err)
			if !ok || len(ps) != 1 || ps[0].Text != "GUID               | <redacted>" {
				t.Errorf("%s: want only the redacted GUID named, got %v", tc.fixture, err)
			}
		} else if err != nil {
			t.Errorf("%s: %v", tc.fixture, err)
		}
		sw := got.Switch
		if sw.NodeDescription != tc.desc || sw.GUID != tc.guid || sw.FirmwareVersion != tc.fw {
			t.Errorf("%s: got %q %q %q", tc.fixture, sw.NodeDescription, sw.GUID, sw.FirmwareVersion)
		}
		if *sw.TemperatureC != tc.temp || *sw.MaxTemperatureC != tc.maxTemp || *sw.UptimeSeconds != tc.uptime {
			t.Errorf("%s: temperature %d max %d uptime %d", tc.fixture, *sw.TemperatureC, *sw.MaxTemperatureC, *sw.UptimeSeconds)
		}
		if diff := cmp.Diff(tc.statuses, swStatuses(sw)); diff != "" {
			t.Errorf("%s statuses (-want +got):\n%s", tc.fixture, diff)
		}
		if len(sw.FanRPM) != tc.fans {
			t.Errorf("%s: %d fans, want %d", tc.fixture, len(sw.FanRPM), tc.fans)
		}
		if diff := cmp.Diff([2]*int{tc.warnLow, tc.warnHigh}, [2]*int{sw.WarnLowC, sw.WarnHighC}); diff != "" {
			t.Errorf("%s warning thresholds (-want +got):\n%s", tc.fixture, diff)
		}
	}
}

func TestIBSwInfoFanErrorEvidence(t *testing.T) {
	got, err := parse.IBSwInfo(fixtures.Read(t, "ibswinfo/msb7790-fan-error.txt"))
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range got.Switch.Statuses {
		if s.Name == "fans" {
			if diff := cmp.Diff(ibEv(31, "fan status         | ERROR"), s.Evidence); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			return
		}
	}
	t.Fatal("no fans status")
}

// The targeted outputs use ":" and the script's own key names.
func TestIBSwInfoTargeted(t *testing.T) {
	got, err := parse.IBSwInfo(fixtures.Read(t, "ibswinfo/readme-status.txt"))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"psu0.status": "OK", "psu0.dc": "OK", "psu0.fan": "OK", "psu1.status": "OK", "psu1.dc": "OK", "psu1.fan": "OK", "fans": "OK"}
	if diff := cmp.Diff(want, swStatuses(got.Switch)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	got, err = parse.IBSwInfo(fixtures.Read(t, "ibswinfo/readme-vitals.txt"))
	if err != nil {
		t.Fatal(err) // vitals prints fan speeds without a fans status: not a loss
	}
	if *got.Switch.TemperatureC != 73 || *got.Switch.MaxTemperatureC != 80 || len(got.Switch.FanRPM) != 8 || *got.Switch.UptimeSeconds != 16982312 {
		t.Errorf("vitals: %+v", got.Switch)
	}
	if len(got.Switch.Statuses) != 0 {
		t.Errorf("vitals has no status words, got %v", got.Switch.Statuses)
	}
}

func TestIBSwInfoDamageNamed(t *testing.T) {
	const f = "ibswinfo/msb7790-fan-error.txt"
	t.Run("fan status line dropped", func(t *testing.T) {
		_, err := parse.IBSwInfo(damaged(t, f, dropLine(31)))
		wantProblems(t, err, []int{31}, "fan status")
	})
	t.Run("PSU1 DC power dropped", func(t *testing.T) {
		_, err := parse.IBSwInfo(damaged(t, f, dropLine(24)))
		wantProblems(t, err, []int{0}, "no dc line")
	})
	t.Run("status word damaged", func(t *testing.T) {
		_, err := parse.IBSwInfo(damaged(t, f, swap("| ERROR", "| ERR")))
		wantProblems(t, err, []int{31}, "neither OK nor ERROR")
	})
	t.Run("temperature not a number", func(t *testing.T) {
		_, err := parse.IBSwInfo(damaged(t, f, swap("| 45", "| fifty")))
		wantProblems(t, err, []int{28}, "not a number")
	})
	t.Run("cut", func(t *testing.T) {
		_, err := parse.IBSwInfo(damaged(t, f, cutAt("fan#8 (rpm)", 5)))
		wantProblems(t, err, []int{39, 39}, "cut")
	})
}

func TestIBSwInfoRefusal(t *testing.T) {
	// ibswinfo.sh err(): echo "error: $*" >&2; exit 1 (a capture taken with 2>&1).
	got, _ := parse.IBSwInfo([]byte("error: must run as root, aborting.\n"))
	if got.Refusal == nil || got.Refusal.Message != "error: must run as root, aborting." {
		t.Errorf("got %+v", got.Refusal)
	}
}

func FuzzIBSwInfo(f *testing.F) {
	ibSeed(f, "ibswinfo")
	f.Fuzz(func(t *testing.T, b []byte) {
		parse.IBSwInfo(b) //nolint:errcheck // only panics matter here
	})
}
