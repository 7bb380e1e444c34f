package source

import "testing"

// TestCleanMemberFastPath: a member name that is already clean is taken as it is; every name
// gets what the full cleaning gives, errors included.
func TestCleanMemberFastPath(t *testing.T) {
	names := []string{
		"", "/", ".", "./", "..", "../", "a", "a/", "a/b", "a/b/", "/a", "//a", "a//b", "a/./b", "./a",
		"a/..", "a/../b", "..a", "a..", "a/.b", "a/b..", ".hidden", "a/.", "a/./", "a\\b", "a b/c",
		"sosreport-node01-2024/sos_commands/infiniband/ibstat", "sosreport-node01-2024/",
		"x/\xff/y", "a\x00b", "a/b//",
	}
	for _, raw := range names {
		got, gotErr := cleanMember(raw)
		want, wantErr := cleanPath(raw)
		if got != want || (gotErr == nil) != (wantErr == nil) || gotErr != nil && gotErr.Error() != wantErr.Error() {
			t.Errorf("cleanMember(%q) = %q, %v; the full cleaning gives %q, %v", raw, got, gotErr, want, wantErr)
		}
	}
}
