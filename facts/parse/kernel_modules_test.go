package parse_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/facts/parse"
	"github.com/rdmadoctor/rdmadoctor/fixtures"
)

func evMap(pairs ...any) facts.EvidenceMap {
	m := facts.EvidenceMap{}
	for i := 0; i < len(pairs); i += 2 {
		m[pairs[i].(string)] = pairs[i+1].(facts.Evidence)
	}
	return m
}

func TestModinfo(t *testing.T) {
	const dkms, missing = "modinfo/nv-peer-mem-dkms.txt", "modinfo/nv-peer-mem-not-found.txt"
	e := func(f string, n int) facts.Evidence { return fixtureEv(t, f, n) }
	for _, tc := range []struct {
		fixture string
		want    []facts.ModuleInfo
	}{
		// nv_peer_memory#46: installed by DKMS, while `lsmod | grep nv_peer` printed nothing.
		{dkms, []facts.ModuleInfo{{
			Name: "nv_peer_mem", Filename: "/lib/modules/4.15.0-46-generic/updates/dkms/nv_peer_mem.ko", Version: "1.0-8",
			Depends: []string{"ib_core"}, Vermagic: "4.15.0-46-generic SMP mod_unload",
			Evidence: evMap("filename", e(dkms, 1), "name", e(dkms, 9), "version", e(dkms, 2), "depends", e(dkms, 7), "vermagic", e(dkms, 10)),
		}}},
		// nv_peer_memory#51: the module is not installed for the running kernel.
		{missing, []facts.ModuleInfo{{Name: "nv_peer_mem", NotFound: true, Evidence: evMap("name", e(missing, 1), "not_found", e(missing, 1))}}},
	} {
		got, err := parse.Modinfo(fixtures.Read(t, tc.fixture))
		if err != nil {
			t.Fatalf("%s: %v", tc.fixture, err)
		}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tc.fixture, diff)
		}
	}
	// Another tool's output is not modinfo's: each line is named, nothing is invented.
	got, err := parse.Modinfo(fixtures.Read(t, "modprobe/nv-peer-mem-unknown-symbol-v.txt"))
	if ps, ok := parse.AsProblems(err); !ok || len(ps) != 2 || len(got) != 0 {
		t.Errorf("modprobe output read as modinfo: %v, %+v", err, got)
	}
}

func TestModprobe(t *testing.T) {
	const v, inval = "modprobe/nv-peer-mem-unknown-symbol-v.txt", "modprobe/nvidia-peermem-invalid-argument.txt"
	e := func(f string, n int) facts.Evidence { return fixtureEv(t, f, n) }
	for _, tc := range []struct {
		fixture string
		want    []facts.ModprobeRun
	}{
		// nv_peer_memory#84: -v shows the file tried, then the loader's refusal.
		{v, []facts.ModprobeRun{{
			Module: "nv_peer_mem", Inserted: []string{"/lib/modules/3.10.0-1127.19.1.el7.x86_64/extra/nv_peer_mem.ko"},
			Error:    "Unknown symbol in module, or unknown parameter (see dmesg)",
			Evidence: evMap("inserted", e(v, 1), "error", e(v, 2)),
		}}},
		// gpu-operator#2868: nvidia_peermem against an ib_core without the peer-memory API.
		{inval, []facts.ModprobeRun{{Module: "nvidia_peermem", Error: "Invalid argument", Evidence: evMap("error", e(inval, 1))}}},
	} {
		got, err := parse.Modprobe(fixtures.Read(t, tc.fixture))
		if err != nil {
			t.Fatalf("%s: %v", tc.fixture, err)
		}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tc.fixture, diff)
		}
	}
	got, err := parse.Modprobe(fixtures.Read(t, "modinfo/nv-peer-mem-dkms.txt"))
	if ps, ok := parse.AsProblems(err); !ok || len(ps) != 14 || len(got) != 0 {
		t.Errorf("modinfo output read as modprobe: %v, %+v", err, got)
	}
}

func TestIBStatusRefusal(t *testing.T) {
	const f = "ibstatus/sys-files-not-found.txt"
	want := &facts.ToolRefusal{Message: "Fatal error:  device '*': sys files not found (/sys/class/infiniband/*/ports)", Evidence: fixtureEv(t, f, 1)}
	if diff := cmp.Diff(want, parse.IBStatusRefusal(fixtures.Read(t, f))); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if r := parse.IBStatusRefusal(fixtures.Read(t, "ibstatus/roce-ndr.txt")); r != nil {
		t.Errorf("a port list read as a refusal: %+v", r)
	}
}
