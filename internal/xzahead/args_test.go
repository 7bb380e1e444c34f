package xzahead

import "testing"

// TestSnapshotArg: the archive is found where urfave/cli finds --snapshot's value, and nothing
// where the run will not read it or the words cannot be read for sure.
func TestSnapshotArg(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string // "" for none
	}{
		{[]string{"rdmadoctor", "diagnose", "--snapshot", "sos.tar.xz"}, "sos.tar.xz"},
		{[]string{"rdmadoctor", "diagnose", "--snapshot=sos.tar.xz"}, "sos.tar.xz"},
		{[]string{"rdmadoctor", "diagnose", "-snapshot", "sos.tar.xz"}, "sos.tar.xz"},
		{[]string{"rdmadoctor", "facts", "--snapshot", "sos.tar.xz", "--format", "yaml"}, "sos.tar.xz"},
		{[]string{"/usr/bin/rdmadoctor", "diagnose", "--format", "json", "-o", "r.json", "--fail-on", "none", "--snapshot", "a=b.tar.xz", "-v", "--no-color=true", "--"}, "a=b.tar.xz"},
		{[]string{"rdmadoctor", "diagnose", "--format=json", "--snapshot", "--snapshot"}, "--snapshot"}, // a value flag takes the next word
		{[]string{"rdmadoctor", "diagnose", "--output", "--snapshot", "--snapshot", "x"}, "x"},
		{[]string{"rdmadoctor", "diagnose", "--verbose", "--snapshot", "x", "--input", "ibstat.txt"}, "x"}, // refused later: not taken, stopped
		// Not read, or not for sure.
		{[]string{"rdmadoctor"}, ""},
		{[]string{"rdmadoctor", "fleet", "--snapshot", "x"}, ""},
		{[]string{"rdmadoctor", "--snapshot", "x", "diagnose"}, ""},
		{[]string{"rdmadoctor", "diagnose"}, ""},
		{[]string{"rdmadoctor", "diagnose", "--snapshot"}, ""},
		{[]string{"rdmadoctor", "diagnose", "--snapshot", ""}, ""},
		{[]string{"rdmadoctor", "diagnose", "--snapshot="}, ""},
		{[]string{"rdmadoctor", "diagnose", "--snapshot", "-"}, ""},
		{[]string{"rdmadoctor", "diagnose", "--snapshot", "x", "--snapshot", "x"}, ""},
		{[]string{"rdmadoctor", "diagnose", "--snapshot", "x", "--help"}, ""},
		{[]string{"rdmadoctor", "diagnose", "-h", "--snapshot", "x"}, ""},
		{[]string{"rdmadoctor", "diagnose", "--snapshot", "x", "--bogus"}, ""},
		{[]string{"rdmadoctor", "diagnose", "--snapshot", "x", "--generate-bash-completion"}, ""},
		{[]string{"rdmadoctor", "diagnose", "--snapshot", "x", "extra"}, ""},
		{[]string{"rdmadoctor", "diagnose", "sos.tar.xz", "--snapshot", "x"}, ""},
		{[]string{"rdmadoctor", "diagnose", "--snapshot", "x", "-"}, ""},
		{[]string{"rdmadoctor", "diagnose", "--snapshot", "x", "--", "y"}, ""},
		{[]string{"rdmadoctor", "diagnose", "--", "--snapshot", "x"}, ""},
		{[]string{"rdmadoctor", "diagnose", "---snapshot", "x"}, ""},
		{[]string{"rdmadoctor", "diagnose", "--=x", "--snapshot", "x"}, ""},
		{[]string{"rdmadoctor", "diagnose", "--verbose=maybe", "--snapshot", "x"}, ""},
		{[]string{"rdmadoctor", "diagnose", "--verbose", "yes", "--snapshot", "x"}, ""}, // a boolean takes no word: "yes" is an argument
		{[]string{"rdmadoctor", "facts", "--verbose", "--snapshot", "x"}, ""},           // diagnose's, not facts'
		{[]string{"rdmadoctor", "diagnose", "--snapshot", "x", "--format"}, ""},
	} {
		got, ok := SnapshotArg(tc.args)
		if ok != (tc.want != "") || got != tc.want && ok {
			t.Errorf("SnapshotArg(%q) = %q, %v; want %q", tc.args, got, ok, tc.want)
		}
	}
}
