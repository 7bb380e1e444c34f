package parse_test

import (
	"strings"
	"testing"

	"github.com/rdmadoctor/rdmadoctor/facts/parse"
	"github.com/rdmadoctor/rdmadoctor/fixtures"
)

func TestIBDiagnetSM(t *testing.T) {
	for _, tc := range []struct {
		fixture, guid   string
		lid, prio, line int
	}{
		{ibdiag301 + "ibdiagnet2.sm", "0xb0cf0e0300d33fc0", 180, 12, 11},
		{"ibdiagnet2/sm-master-sriov-notes.txt", "0x08c0eb0300f6fc26", 4, 15, 7},
	} {
		sms, err := parse.IBDiagnetSM(fixtures.Read(t, tc.fixture))
		if err != nil {
			t.Fatalf("%s: %v", tc.fixture, err)
		}
		if len(sms) != 1 {
			t.Fatalf("%s: %d SMs, want 1: %+v", tc.fixture, len(sms), sms)
		}
		sm := sms[0]
		if sm.State != "SMINFO_MASTER" || sm.SMGUID != tc.guid || *sm.SMLID != tc.lid || *sm.Priority != tc.prio ||
			sm.Tool != "ibdiagnet2" || sm.Evidence.Line != tc.line || sm.Port != nil || sm.Device != "" {
			t.Errorf("%s: %+v", tc.fixture, sm)
		}
	}
}

// A damaged report keeps the SMs it could read and names the lines it could not.
func TestIBDiagnetSMDamaged(t *testing.T) {
	real := string(fixtures.Read(t, ibdiag301+"ibdiagnet2.sm"))
	for name, tc := range map[string]struct {
		text string
		sms  int
		why  string
	}{
		"a line of another shape": {strings.Replace(real, "priority:12", "prio=12", 1), 0, "not an ibdiagnet2.sm line"},
		"no heading":              {strings.Replace(real, "  SM - master\n", "", 1), 0, "before any"},
		"cut mid-line":            {real[:strings.Index(real, "dev=54002")+7], 0, "not an ibdiagnet2.sm line"},
	} {
		sms, err := parse.IBDiagnetSM([]byte(tc.text))
		if len(sms) != tc.sms {
			t.Errorf("%s: %d SMs, want %d", name, len(sms), tc.sms)
		}
		if p, ok := parse.AsProblems(err); !ok || !strings.Contains(p[0].Why, tc.why) {
			t.Errorf("%s: err %v, want a problem saying %q", name, err, tc.why)
		}
	}
}
