package live_test

import (
	"context"
	"encoding/hex"
	"math"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/facts/build"
	"github.com/rdmadoctor/rdmadoctor/facts/live"
	"github.com/rdmadoctor/rdmadoctor/facts/live/livetest"
	"github.com/rdmadoctor/rdmadoctor/facts/parse"
	"github.com/rdmadoctor/rdmadoctor/fixtures"
)

func portStates(s *facts.Snapshot) map[string]string {
	out := map[string]string{}
	for _, d := range s.Devices {
		for _, p := range d.Ports {
			out[d.Name+"/"+strconv.Itoa(p.Number)] = p.State + " " + p.PhysicalState + " " + p.LinkLayer
		}
	}
	return out
}

func TestRedactSnapshot(t *testing.T) {
	e := livetest.New(t, "root-h100.txtar", stubs(""))
	res := gatherEnv(t, e, live.Options{})
	before, err := build.Snapshot(res.FS, facts.SourceInfo{Kind: "live"})
	if err != nil {
		t.Fatal(err)
	}
	live.Redact(res)
	secrets := []string{
		"0x946dae0300cde72c",              // ibstat GUIDs
		"946d:ae03:00cd:e72c",             // the same in sysfs spelling
		"fe80::202:c903:4e:47cf",          // ip addr link-local
		"00:02:c9:03:00:4e:47:cf",         // the IPoIB hardware address's GUID
		"2001:db8:0:0:214:5eff:fe15:8496", // global IPv6
		"fd57::214:5eff:fe15:8496",        // ULA
		"08:c0:eb:03:00:ea:50:e6",         // sys/class/net/ib0/address
		"S2202655321-1",                   // mlxlink vendor serial
		"vm",                              // the hostname, as a word
		strings.TrimSpace(string(fixtures.Read(t, "live/hostname-build-vm.txt"))),
	}
	for p, f := range res.FS {
		for _, sec := range secrets {
			if sec == "vm" {
				for _, w := range strings.FieldsFunc(string(f.Data), func(r rune) bool { return strings.ContainsRune(" \t\n\"'=:,()[]", r) }) {
					if w == sec {
						t.Errorf("%s still holds the host name", p)
					}
				}
				continue
			}
			if strings.Contains(string(f.Data), sec) {
				t.Errorf("%s still holds %q", p, sec)
			}
		}
	}
	if !strings.Contains(string(res.FS[live.MetaFile].Data), "redacted: true") {
		t.Error("rdmadoctor.yaml does not say redacted: true")
	}
	// The link-local address and the IPoIB hardware address carry the same GUID: still equal.
	ip := string(res.FS["sos_commands/networking/ip_-d_address"].Data)
	hw := regexp.MustCompile(`link/infiniband 80:00:00:48:fe:80:00:00:00:00:00:01:((?:[0-9a-f]{2}:){7}[0-9a-f]{2})`).FindStringSubmatch(ip)
	ll := regexp.MustCompile(`inet6 (fe80::[0-9a-f:]+)/64`).FindStringSubmatch(ip)
	if hw == nil || ll == nil || !strings.EqualFold(guidFromLinkLocal(ll[1]), strings.ReplaceAll(hw[1], ":", "")) {
		t.Errorf("GUID placeholders differ between the IPv6 and the IPoIB address:\n%s", ip)
	}
	after, err := build.Snapshot(res.FS, facts.SourceInfo{Kind: "live"})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(portStates(before), portStates(after)); diff != "" {
		t.Errorf("redaction changed port states (-before +after):\n%s", diff)
	}
}

// TestSample: counters read twice give Port.CounterDeltas and Netdev.StatsDeltas.
func TestSample(t *testing.T) {
	s := stubs("")
	eth := s["ethtool"]
	for i, c := range eth.Cases {
		if c.Args == "-S *" {
			eth.Cases[i].Then = "ethtool_stats/mlx5-xdp-kernel-6.5.txt"
		}
	}
	s["ethtool"] = eth
	e := livetest.New(t, "root-h100.txtar", s)
	counter := filepath.Join(e.Root, "sys/class/infiniband/mlx5_4/ports/1/counters/symbol_error")
	obs := &bumpOnCopy{dev: "sys/class/infiniband/mlx5_4", file: counter, t: t}
	res := gatherEnv(t, e, live.Options{Sample: 500 * time.Millisecond, Observer: obs})
	if res.Meta.Sample == nil || res.Meta.Sample.IntervalSeconds < 0.5 {
		t.Fatalf("sample = %+v, want an interval of at least 0.5 s", res.Meta.Sample)
	}
	snap, err := build.Snapshot(res.FS, facts.SourceInfo{Kind: "live"})
	if err != nil {
		t.Fatal(err)
	}
	if snap.Sample == nil || math.Abs(snap.Sample.IntervalSeconds-res.Meta.Sample.IntervalSeconds) > 0.001 {
		t.Errorf("Snapshot.Sample = %+v, want the interval of rdmadoctor.yaml %v", snap.Sample, res.Meta.Sample.IntervalSeconds)
	}
	var port *facts.Port
	for i := range snap.Devices {
		if snap.Devices[i].Name == "mlx5_4" && len(snap.Devices[i].Ports) > 0 {
			port = &snap.Devices[i].Ports[0]
		}
	}
	if port == nil {
		t.Fatal("mlx5_4 port 1 missing")
	}
	if got := port.CounterDeltas["symbol_error"]; got != 7 {
		t.Errorf("symbol_error delta = %d, want 7", got)
	}
	if got, ok := port.CounterDeltas["port_rcv_errors"]; !ok || got != 0 {
		t.Errorf("port_rcv_errors delta = %d (present %v), want 0", got, ok)
	}
	first, _, _, _ := parse.EthtoolStats(fixtures.Read(t, "ethtool_stats/mlx5-xdp-kernel-5.15.txt"))
	second, _, _, _ := parse.EthtoolStats(fixtures.Read(t, "ethtool_stats/mlx5-xdp-kernel-6.5.txt"))
	want := map[string]int64{}
	for k, v := range second {
		if o, ok := first[k]; ok && v >= o {
			want[k] = v - o
		}
	}
	var got map[string]int64
	for _, n := range snap.Netdevs {
		if n.Name == "eth2" {
			got = n.StatsDeltas
		}
	}
	if len(want) == 0 {
		t.Fatal("the two ethtool -S fixtures share no counter")
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("eth2 stats deltas (-want +got):\n%s", diff)
	}
}

// bumpOnCopy adds 7 to a counter file once the first read of its device is done, so the second
// read differs.
type bumpOnCopy struct {
	dev, file string
	t         *testing.T
	done      bool
}

func (b *bumpOnCopy) Planned(int) {}
func (b *bumpOnCopy) Finish()     {}
func (b *bumpOnCopy) Done(name string, _ *live.Run) {
	if name != b.dev || b.done {
		return
	}
	b.done = true
	old, err := os.ReadFile(b.file)
	if err != nil {
		b.t.Error(err)
		return
	}
	n, err := strconv.Atoi(strings.TrimSpace(string(old)))
	if err != nil {
		b.t.Error(err)
		return
	}
	if err := os.WriteFile(b.file, []byte(strconv.Itoa(n+7)+"\n"), 0o644); err != nil {
		b.t.Error(err)
	}
}

func TestSnapshotExplainsMissing(t *testing.T) {
	e := livetest.New(t, "", nil) // an empty root and no tools at all
	s, _, err := live.Snapshot(context.Background(), live.Options{Root: e.Root, Path: []string{e.Bin}})
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Devices) != 0 {
		t.Fatalf("devices on an empty root: %v", s.Devices)
	}
	for _, src := range s.Sources {
		if src.Status == facts.StatusOK {
			continue
		}
		if src.Error == "" || strings.HasPrefix(src.Error, "not in snapshot") {
			t.Errorf("source %s (%s) not explained: %q", src.Name, src.Status, src.Error)
		}
	}
	want := map[string]string{
		"ibstat":          "ibstat not installed (package: infiniband-diags)",
		"perfquery":       "not run: no RDMA device in " + filepath.Join(e.Root, "sys/class/infiniband"),
		"mstconfig_query": "not run: no Mellanox (15b3) physical function in " + filepath.Join(e.Root, "sys/bus/pci/devices"),
	}
	got := map[string]string{}
	for _, src := range s.Sources {
		if _, ok := want[src.Name]; ok {
			got[src.Name] = src.Error
		}
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("explanations (-want +got):\n%s", diff)
	}
}

// guidFromLinkLocal returns the GUID behind a link-local address's modified EUI-64 interface id.
func guidFromLinkLocal(a string) string {
	ip := net.ParseIP(a)
	if ip == nil {
		return ""
	}
	id := append([]byte{}, ip[8:]...)
	id[0] ^= 0x02
	return hex.EncodeToString(id)
}
