package live

import "testing"

func TestRedactorValues(t *testing.T) {
	r := NewRedactor("node01.example.com")
	for _, tc := range []struct{ in, want string }{
		// GUIDs in every spelling map to one placeholder; zero GUIDs are diagnostic and stay.
		{"Node GUID: 0x946dae0300cde72c", "Node GUID: 0x0000000000000001"},
		{"node_guid: 946d:ae03:00cd:e72c", "node_guid: 0000:0000:0000:0001"},
		{"Base GUID:             946dae0300cde72c        4", "Base GUID:             0000000000000001        4"},
		{"Port GUID: 0x0000000000000000", "Port GUID: 0x0000000000000000"},
		// A GID keeps its link-local prefix; its interface id is the port GUID.
		{"fe80:0000:0000:0000:946d:ae03:00cd:e72c", "fe80:0000:0000:0000:0000:0000:0000:0001"},
		{"inet6 fe80::966d:ae03:cd:e72c/64 scope link", "inet6 fe80::200:0:0:1/64 scope link"}, // EUI-64 of the GUID
		// An IPv4-mapped RoCE v2 GID maps its IPv4 part like the address itself.
		{"0000:0000:0000:0000:0000:ffff:0a00:0001", "0000:0000:0000:0000:0000:ffff:c000:0201"},
		{"inet 10.0.0.1/24 brd 10.0.0.255", "inet 192.0.2.1/24 brd 192.0.2.2"},
		{"inet6 2001:db8:0:0:214:5eff:fe15:8496/64 scope global", "inet6 2001:db8::1/64 scope global"},
		// IPoIB hardware address: flags and QPN stay, the GUID part is mapped.
		{"link/infiniband 80:00:00:48:fe:80:00:00:00:00:00:01:94:6d:ae:03:00:cd:e7:2c brd 00:ff:ff:ff:ff:12:40:1b:ff:ff:00:00:00:00:00:00:ff:ff:ff:ff",
			"link/infiniband 80:00:00:48:fe:80:00:00:00:00:00:01:00:00:00:00:00:00:00:01 brd 00:ff:ff:ff:ff:12:40:1b:ff:ff:00:00:00:00:00:00:ff:ff:ff:ff"},
		{"link/ether 0c:42:a1:9b:1a:2c brd ff:ff:ff:ff:ff:ff", "link/ether 02:00:00:00:00:01 brd ff:ff:ff:ff:ff:ff"},
		{"Base MAC:              0c42a19b1a2c            4", "Base MAC:              020000000001            4"},
		{"\tVendor SN                                 : MT2052VS01234", "\tVendor SN                                 : SN0000001"},
		{"Vendor Serial Number               : S2202655321-1", "Vendor Serial Number               : SN0000002"},
		{"\t\t\t[SN] Serial number: MT2052VS01234", "\t\t\t[SN] Serial number: SN0000001"},
		{"Vendor SN : N/A", "Vendor SN : N/A"},
		{"node01.example.com node01 mlx5_0", "host-1 host-1 mlx5_0"},
		// Not identifying: PCI addresses, versions, subnet prefixes, masks, loopback, times.
		{"0000:81:00.0 fw 28.39.1002 MLNX_OFED 5.8-1.0.1.1 subnet fe80:0000:0000:0000", "0000:81:00.0 fw 28.39.1002 MLNX_OFED 5.8-1.0.1.1 subnet fe80:0000:0000:0000"},
		{"255.255.255.0 127.0.0.1 0.0.0.0 ::1 12:34:56", "255.255.255.0 127.0.0.1 0.0.0.0 ::1 12:34:56"},
		{"node01-ib is another host vm.swappiness", "node01-ib is another host vm.swappiness"},
		// opensm drops a GUID's leading zeros: the same GUID, the same placeholder.
		{"port guid 0x8c0eb0300f6fc26", "port guid 0x0000000000000002"},
		{"Port GUID: 0x08c0eb0300f6fc26", "Port GUID: 0x0000000000000002"},
		{"Capability mask: 0xa751e848", "Capability mask: 0xa751e848"},
		// Same input, same placeholder.
		{"10.0.0.1 0x946dae0300cde72c node01", "192.0.2.1 0x0000000000000001 host-1"},
	} {
		if got := r.String(tc.in); got != tc.want {
			t.Errorf("Redact(%q)\n got %q\nwant %q", tc.in, got, tc.want)
		}
	}
}

// TestRedactorName: a host name inside a file name or a path is replaced where it stands
// between non-alphanumerics, the longer name first; a name glued to letters or digits is
// another word and stays.
func TestRedactorName(t *testing.T) {
	r := NewRedactor("node01.example.com", "vm")
	for in, want := range map[string]string{
		"node01.tar.gz":                      "host-1.tar.gz",
		"/tmp/NODE01/out":                    "/tmp/host-1/out",
		"-o=node01.example.com-ib.tar.gz":    "-o=host-1-ib.tar.gz",
		"vm.tar.gz":                          "host-2.tar.gz",
		"node010.tar.gz vmx.tar.gz evm":      "node010.tar.gz vmx.tar.gz evm",
		"gather --redact -o vm/ --sample 1s": "gather --redact -o host-2/ --sample 1s",
	} {
		if got := r.Name(in); got != want {
			t.Errorf("Name(%q) = %q, want %q", in, got, want)
		}
	}
}
