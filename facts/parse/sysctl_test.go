package parse_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rdmadoctor/rdmadoctor/facts/parse"
	"github.com/rdmadoctor/rdmadoctor/fixtures"
)

func TestSysctl(t *testing.T) {
	const (
		head   = "sysctl/hotsos-openstack-head_TRUNCATED.txt"
		kernel = "sysctl/hotsos-openstack-kernel_EXCERPT.txt"
		tail   = "sysctl/hotsos-openstack-tail_EXCERPT.txt"
		ipv6   = "sysctl/hotsos-openstack-ipv6-conf_EXCERPT.txt"
	)
	read := func(f string) map[string]parse.SysctlEntry {
		entries, err := parse.Sysctl(fixtures.Read(t, f))
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		m := map[string]parse.SysctlEntry{}
		for _, e := range entries {
			m[e.Name] = e
		}
		return m
	}
	e := func(f string, n int, name, val string) parse.SysctlEntry {
		return parse.SysctlEntry{Name: name, Value: val, Evidence: fixtureEv(t, f, n)}
	}

	h := read(head)
	if len(h) != 30 {
		t.Errorf("%s: %d parameters, want 30 (dev.cdrom.info's 24 lines are one)", head, len(h))
	}
	cdrom := "CD-ROM information, Id: cdrom.c 3.20 2003/12/17\n\ndrive name:\t\ndrive speed:\t\ndrive # of slots:\n" +
		"Can close tray:\t\nCan open tray:\t\nCan lock tray:\t\nCan change speed:\nCan select disk:\nCan read multisession:\n" +
		"Can read MCN:\t\nReports media changed:\nCan play audio:\t\nCan write CD-R:\t\nCan write CD-RW:\nCan read DVD:\t\n" +
		"Can write DVD-R:\nCan write DVD-RAM:\nCan read MRW:\t\nCan write MRW:\t\nCan write RAM:\t\n\n"
	for _, want := range []parse.SysctlEntry{
		e(head, 1, "abi.vsyscall32", "1"),
		e(head, 8, "dev.cdrom.info", cdrom),
		e(head, 44, "fs.dentry-state", "419447\t374561\t45\t0\t36054\t0"),
	} {
		if diff := cmp.Diff(want, h[want.Name]); diff != "" {
			t.Errorf("%s %s (-want +got):\n%s", head, want.Name, diff)
		}
	}

	k := read(kernel)
	for _, want := range []parse.SysctlEntry{
		e(kernel, 3, "kernel.hostname", "compute4"),
		e(kernel, 4, "kernel.hotplug", ""),
		e(kernel, 29, "kernel.numa_balancing", "0"),
		e(kernel, 34, "kernel.osrelease", "5.4.0-97-generic"),
	} {
		if diff := cmp.Diff(want, k[want.Name]); diff != "" {
			t.Errorf("%s %s (-want +got):\n%s", kernel, want.Name, diff)
		}
	}

	tl := read(tail)
	for _, want := range []parse.SysctlEntry{
		e(tail, 88, "sunrpc.transports", "tcp 1048576\nudp 32768"),
		e(tail, 114, "vm.lowmem_reserve_ratio", "256\t256\t32\t0\t0"),
		e(tail, 115, "vm.max_map_count", "524288"),
		e(tail, 124, "vm.nr_hugepages", "0"),
	} {
		if diff := cmp.Diff(want, tl[want.Name]); diff != "" {
			t.Errorf("%s %s (-want +got):\n%s", tail, want.Name, diff)
		}
	}

	var disabled []string
	entries, _ := parse.Sysctl(fixtures.Read(t, ipv6))
	for _, en := range entries {
		if nd, off, ok := parse.SysctlIPv6Disabled(en.Name, en.Value); ok {
			disabled = append(disabled, nd)
			if off {
				t.Errorf("%s: %s has IPv6 disabled", ipv6, nd)
			}
		}
	}
	// "default" is not an interface.
	if diff := cmp.Diff([]string{"ens3"}, disabled); diff != "" {
		t.Errorf("%s: interfaces (-want +got):\n%s", ipv6, diff)
	}
}
