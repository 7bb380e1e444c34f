package live

import "testing"

// TestRunningMessage: the progress message names the running commands, first started first,
// within its width, and counts the ones that do not fit.
func TestRunningMessage(t *testing.T) {
	for _, tc := range []struct {
		running []string
		want    string
	}{
		{nil, "gathering"},
		{[]string{"ibstat"}, "running: ibstat"},
		{[]string{"mstflint -d 0000:17:00.0 q", "ibstat", "lspci -nnvv"}, "running: mstflint -d 0000:17:00.0 q, ibstat +1"},
		{[]string{"mstconfig -d 0000:17:00.0 -e q", "mstlink -d 0000:17:00.0 -m -c"}, "running: mstconfig -d 0000:17:00.0 -e q +1"},
		{[]string{"ibdiagnet --pm_pause_time 1200 --get_cable_info --output_path /tmp/x", "ibstat"}, "running: ibdiagnet --pm_pause_time 1200 --ge… +1"},
	} {
		got := runningMessage(tc.running, 48)
		if got != tc.want {
			t.Errorf("runningMessage(%q) = %q, want %q", tc.running, got, tc.want)
		}
		if n := len([]rune(got)); n > 48 {
			t.Errorf("runningMessage(%q) is %d runes, more than 48", tc.running, n)
		}
	}
}
