package engine_test

import (
	"strings"
	"testing"
	"testing/fstest"

	"github.com/rdmadoctor/rdmadoctor/fixtures"
	"github.com/rdmadoctor/rdmadoctor/report"
)

// withFile returns a copy of fsys with one more file: a real capture from fixtures/ put beside a
// corpus case's, as a node's snapshot would hold both.
func withFile(t *testing.T, fsys fstest.MapFS, name, fixture string) fstest.MapFS {
	t.Helper()
	out := fstest.MapFS{}
	for k, v := range fsys {
		out[k] = v
	}
	out[name] = &fstest.MapFile{Data: fixtures.Read(t, fixture)}
	return out
}

// oneOdd diagnoses three nodes, node02 the odd one, and returns the diagnoses of rule id,
// failing unless there is exactly one and it names node02 alone with message want.
func oneOdd(t *testing.T, id string, same, odd fstest.MapFS, want string) {
	t.Helper()
	ds, _ := diagnoseFleet(t, fleetOf(t, map[string]fstest.MapFS{"node01": same, "node02": odd, "node03": same}))
	got := fleetByID(ds, id)
	if len(got) != 1 {
		t.Fatalf("%s: %d diagnoses, want 1; all: %+v", id, len(got), ds)
	}
	d := got[0]
	if d.Message != want || strings.Join(d.Nodes, ",") != "node02" {
		t.Errorf("%s: nodes %v message %q, want node02 %q", id, d.Nodes, d.Message, want)
	}
	if len(d.Evidence) == 0 || d.Evidence[0].Host != "node02" {
		t.Errorf("%s: evidence %+v, want node02's line first", id, d.Evidence)
	}
	for _, o := range ds {
		if o.ID != id {
			t.Errorf("another fleet diagnosis on one varied fact: %s %q", o.ID, o.Message)
		}
	}
}

// Corpus 005, node02's mlx5_0 port 1 sysfs rate varied from the real "400 Gb/sec (4X NDR)" to
// "200 Gb/sec (2X NDR)": a link trained at two lanes.
func TestFleetPortRateBelowPeers(t *testing.T) {
	c := caseFS(t, "005")
	odd := vary(t, c, "sys/class/infiniband/mlx5_0/ports/1/rate", "400 Gb/sec (4X NDR)", "200 Gb/sec (2X NDR)")
	oneOdd(t, "fleet-port-rate-below-peers", c, odd,
		"node02 mlx5_0 port 1 runs 200 Gb/s (2X NDR) while 2 nodes' MT4129 ports run 400 Gb/s (4X NDR): fewer lanes")
}

// Corpus 005, node02's mlx5_0 port 1 sysfs state varied from the real "4: ACTIVE" to "1: DOWN".
func TestFleetActivePortsBelowPeers(t *testing.T) {
	c := caseFS(t, "005")
	odd := vary(t, c, "sys/class/infiniband/mlx5_0/ports/1/state", "4: ACTIVE", "1: DOWN")
	oneOdd(t, "fleet-active-ports-below-peers", c, odd, "node02 has 7 Active MT4129 ports while 2 nodes have 8")
}

// Corpus 112, node02's `ip addr show ib0` varied from the real mtu 4092 to 2044.
func TestFleetIPoIBMTUDrift(t *testing.T) {
	c := caseFS(t, "112")
	line := "8: ib0: <NO-CARRIER,BROADCAST,MULTICAST,UP> mtu 4092 qdisc mq state DOWN group default qlen 256"
	odd := vary(t, c, "ip_addr_show_ib0__after_sriov_reboot", line, strings.Replace(line, "mtu 4092", "mtu 2044", 1))
	oneOdd(t, "fleet-ipoib-drift", c, odd, "node02 ib0 runs MTU 2044 while 2 nodes' ib0 run MTU 4092")
}

// fixtures/scenarios/ipoib-pkey-children-healthy (`ip -d link` of an IPoIB parent and two P_Key
// children), node02's parent mlx5_ib0 varied from the real "mode  datagram" to "mode  connected".
func TestFleetIPoIBModeDrift(t *testing.T) {
	c := loadMapFS(t, fixtures.Path("scenarios/ipoib-pkey-children-healthy"))
	delete(c, "expect.json")
	line := "    ipoib pkey  0xffff mode  datagram umcast  0000 addrgenmode none numtxqueues 256 numrxqueues 32 gso_max_size 65536 gso_max_segs 65535"
	odd := vary(t, c, "ip_-d_link", line, strings.Replace(line, "datagram", "connected", 1))
	oneOdd(t, "fleet-ipoib-drift", c, odd, "node02 mlx5_ib0 runs connected mode, MTU 2044 while 2 nodes' mlx5_ib0 run datagram mode, MTU 2044")
}

// Corpus 034 (mlxconfig query of a ConnectX-3 Pro), node02's LINK_TYPE_P1 varied from the real
// ETH(2) to IB(1).
func TestFleetLinkTypeDrift(t *testing.T) {
	c := caseFS(t, "034")
	line := "         LINK_TYPE_P1                                ETH(2)          "
	odd := vary(t, c, "mlxconfig_-d_.dev.mst.mt4103_pci_cr0_query", line, strings.Replace(line, "ETH(2)", "IB(1) ", 1))
	oneOdd(t, "fleet-link-type-drift", c, odd,
		"node02 0000:04:00.0 has LINK_TYPE_P1 IB(1) while 2 nodes with device type ConnectX3Pro have ETH(2)")
}

// Corpus 005 with the real `uname -a` of fixtures/uname on every node, node02's release varied
// from 5.4.0-97-generic to 5.4.0-96-generic.
func TestFleetKernelDrift(t *testing.T) {
	c := withFile(t, caseFS(t, "005"), "sos_commands/kernel/uname_-a", "uname/hotsos-openstack-uname-a.txt")
	line := "Linux compute4 5.4.0-97-generic #110-Ubuntu SMP Thu Jan 13 18:22:13 UTC 2022 x86_64 x86_64 x86_64 GNU/Linux"
	odd := vary(t, c, "sos_commands/kernel/uname_-a", line, strings.Replace(line, "5.4.0-97", "5.4.0-96", 1))
	oneOdd(t, "fleet-kernel-drift", c, odd, "node02 runs kernel 5.4.0-96-generic while 2 nodes run 5.4.0-97-generic")
}

// Corpus 112, node02's `ethtool -i ib1` version varied from the real MLNX_OFED 4.9-5.1.0 to
// 5.8-1.0.1.
func TestFleetDriverVersionDrift(t *testing.T) {
	c := caseFS(t, "112")
	odd := vary(t, c, "ethtool_-i_ib1", "version: 4.9-5.1.0", "version: 5.8-1.0.1")
	oneOdd(t, "fleet-driver-version-drift", c, odd, "node02 runs mlx5_core[ib_ipoib] 5.8-1.0.1 while 2 nodes run 4.9-5.1.0")
}

// Corpus 110 (an SGE job's `ulimit -a`: 32 KiB), node02's limit varied to unlimited: it differs,
// upwards, so the finding is a note.
func TestFleetMemlockDrift(t *testing.T) {
	c := caseFS(t, "110")
	odd := vary(t, c, "ulimit_-a__sge_job_MPI_Job.o112116", "max locked memory       (kbytes, -l) 32", "max locked memory       (kbytes, -l) unlimited")
	oneOdd(t, "fleet-memlock-drift", c, odd, "node02 allows unlimited locked memory while 2 nodes allow 32 KiB")
}

// Corpus 005, node02's mlx5_0 sysfs fw_ver varied from the real "28.41.1000" to empty: the rule
// cannot compare that adapter, and says so in the skipped list with where it read the blank,
// never passing it as one that matches its peers.
func TestFleetFirmwareNotJudged(t *testing.T) {
	c := caseFS(t, "005")
	odd := vary(t, c, "sys/class/infiniband/mlx5_0/fw_ver", "28.41.1000", "")
	ds, skipped := diagnoseFleet(t, fleetOf(t, map[string]fstest.MapFS{"node01": c, "node02": odd, "node03": c}))
	if got := fleetByID(ds, "fleet-firmware-skew"); len(got) != 0 {
		t.Errorf("diagnoses %+v, want none: the blank version is not judged", got)
	}
	var sk *report.Skipped
	for i := range skipped {
		if skipped[i].ID == "fleet-firmware-skew" {
			sk = &skipped[i]
		}
	}
	want := "ran, but could not judge node02 mlx5_0 (node02 sys/class/infiniband/mlx5_0/fw_ver): its running firmware version is unknown (empty in the capture), so it is not compared with the 2 other nodes of PSID MT_0000000838"
	if sk == nil || sk.Reason != want || strings.Join(sk.NotJudged, ",") != "node02 mlx5_0" {
		t.Errorf("skipped %+v, want reason %q and not_judged [node02 mlx5_0]", sk, want)
	}
}
