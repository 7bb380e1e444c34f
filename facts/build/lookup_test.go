package build_test

import (
	"slices"
	"testing"

	"github.com/rdmadoctor/rdmadoctor/facts/build"
)

// TestGroupsOf: the groups of a file by its path are those of the spec SpecOf names for it, for
// a command's output in a plugin folder, a file under a tree root and one matching a path
// pattern; none for a file no spec names.
func TestGroupsOf(t *testing.T) {
	byName := map[string][]string{}
	for _, sp := range build.Specs() {
		byName[sp.Name] = sp.Groups
	}
	for _, tc := range []struct {
		path, group string
	}{
		{"sos_commands/infiniband/ibstat", "ib_ports"},
		{"sos_commands/networking/ip_-d_address", "netdevs"},
		{"sos_commands/pci/lspci_-nnvv", "lspci"},
		{"sys/class/infiniband/mlx5_0/ports/1/state", "ib_ports"},
		{"proc/interrupts", "irqs"},
		{"etc/apt/sources.list", ""},
		{"sos_commands/infiniband/not_a_command", ""},
	} {
		got := build.GroupsOf(tc.path)
		spec := build.SpecOf(tc.path)
		if !slices.Equal(got, byName[spec]) {
			t.Errorf("GroupsOf(%s) = %q, but SpecOf names %q, whose groups are %q", tc.path, got, spec, byName[spec])
		}
		if tc.group == "" && got != nil || tc.group != "" && !slices.Contains(got, tc.group) {
			t.Errorf("GroupsOf(%s) = %q, want %q among them", tc.path, got, tc.group)
		}
	}
}
