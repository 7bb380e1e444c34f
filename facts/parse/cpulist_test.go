package parse_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rdmadoctor/rdmadoctor/facts/parse"
)

func TestCPUList(t *testing.T) {
	for _, tc := range []struct {
		in      string
		want    []int
		wantErr bool
	}{
		{"0-7,16", []int{0, 1, 2, 3, 4, 5, 6, 7, 16}, false},
		{"7\n", []int{7}, false},
		{"0-3,2,1", []int{0, 1, 2, 3}, false},
		{"", nil, false},
		{"3-1", nil, true},
		{"0-99999999", nil, true},
		{"a", nil, true},
	} {
		got, err := parse.CPUList(tc.in)
		if (err != nil) != tc.wantErr {
			t.Errorf("CPUList(%q) error = %v, want error %v", tc.in, err, tc.wantErr)
		}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("CPUList(%q) (-want +got):\n%s", tc.in, diff)
		}
	}
}
