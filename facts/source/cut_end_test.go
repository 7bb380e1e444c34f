package source_test

import (
	"strings"
	"testing"

	"github.com/rdmadoctor/rdmadoctor/facts/source"
)

// TestCutBetweenMembers: a stream that stops in a member's padding, at a member's end or before
// the two zero blocks that end a tar archive is truncated too (archive/tar ends there as
// quietly as after a whole archive); the members read whole are kept.
func TestCutBetweenMembers(t *testing.T) {
	top := "sosreport-node01-2024-05-01-abcdef"
	ibstat := "CA 'mlx5_0'\n" + strings.Repeat("x", 519) // 531 bytes: content 512-1043, padded to 1536
	raw := tarBytes(t, reg(top+"/sos_commands/infiniband/ibstat", ibstat), reg(top+"/sos_commands/kernel/lsmod", "Module Size Used by\n"))
	if len(raw) != 5*512+1024 {
		t.Fatalf("archive of %d bytes: the offsets below assume 2 headers, contents of 2 and 1 blocks and the end blocks", len(raw))
	}
	for _, tc := range []struct {
		name string
		size int
		cut  bool
	}{
		{"whole", len(raw), false},
		{"in the first member's padding", 1436, true},
		{"at the first member's end", 1536, true},
		{"without the end-of-archive blocks", len(raw) - 1024, true},
		{"with one zero block of two", len(raw) - 512, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := writeFile(t, t.TempDir(), "report.tar", raw[:tc.size])
			fsys, _, err := source.OpenWith(p, source.Options{})
			if err != nil {
				t.Fatal(err)
			}
			cut := fsys.(interface{ Truncated() *source.Cut }).Truncated()
			if (cut != nil) != tc.cut {
				t.Fatalf("cut = %+v, want cut %v", cut, tc.cut)
			}
			if cut != nil && (cut.Within || cut.Offset != int64(tc.size) || !strings.HasSuffix(cut.Member, "/ibstat") && !strings.HasSuffix(cut.Member, "/lsmod")) {
				t.Errorf("cut = %+v", cut)
			}
			if _, err := fsys.(interface {
				ReadFile(string) ([]byte, error)
			}).ReadFile("sos_commands/infiniband/ibstat"); err != nil {
				t.Errorf("the member read whole: %v", err)
			}
		})
	}
}
