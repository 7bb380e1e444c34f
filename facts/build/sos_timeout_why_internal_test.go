package build

import "testing"

// A timeout entry of the manifest without its command or run time is worded without them, not
// as "after its timeout;  ran 0 s" (fresh findings, second pass, F5).
func TestSosTimeoutWhy(t *testing.T) {
	for _, tc := range []struct {
		exec    string
		runTime float64
		want    string
	}{
		{"ibstat", 300.0123, "timed out (sos: return code 124 after its timeout; ibstat ran 300 s)"},
		{"ibstat", 0, "timed out (sos: return code 124 after its timeout; ibstat)"},
		{"", 0, "timed out (sos: return code 124 after its timeout)"},
	} {
		if got := sosTimeoutWhy(tc.exec, tc.runTime); got != tc.want {
			t.Errorf("sosTimeoutWhy(%q, %v) = %q, want %q", tc.exec, tc.runTime, got, tc.want)
		}
	}
}
