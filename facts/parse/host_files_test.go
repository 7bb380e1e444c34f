package parse_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/facts/parse"
	"github.com/rdmadoctor/rdmadoctor/fixtures"
)

func TestUlimit(t *testing.T) {
	const sge = "ulimit/sge-job-memlock-32.txt"
	// Case 110: the batch job still sees 32 KiB; the job printed its host name first.
	got, err := parse.Ulimit(fixtures.Read(t, sge))
	if err != nil {
		t.Fatal(err)
	}
	want := &facts.MemlockLimit{SoftKiB: i64p(32), Evidence: fixtureEv(t, sge, 6)}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("%s (-want +got):\n%s", sge, diff)
	}
}

func TestLimits(t *testing.T) {
	const (
		studio = "limits/rudd-o-recordingstudio-limits.conf"
		pam    = "limits/linux-pam-default-limits.conf"
	)
	got, err := parse.Limits(fixtures.Read(t, studio))
	if err != nil {
		t.Fatal(err)
	}
	want := []facts.LimitRule{
		{Domain: "*", Type: "hard", Item: "memlock", Unlimited: true, Evidence: fixtureEv(t, studio, 4)},
		{Domain: "*", Type: "hard", Item: "nice", ValueKiB: i64p(-20), Evidence: fixtureEv(t, studio, 5)},
		{Domain: "*", Type: "hard", Item: "rtprio", ValueKiB: i64p(99), Evidence: fixtureEv(t, studio, 6)},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("%s (-want +got):\n%s", studio, diff)
	}
	// The stock file has examples only, all commented out.
	if got, err := parse.Limits(fixtures.Read(t, pam)); err != nil || got != nil {
		t.Errorf("%s: %+v, %v", pam, got, err)
	}
}

func TestMeminfo(t *testing.T) {
	const f = "meminfo/coreos-master1.txt"
	got, err := parse.Meminfo(fixtures.Read(t, f))
	if err != nil {
		t.Fatal(err)
	}
	want := facts.Host{HugePagesTotal: ip(0), Evidence: facts.EvidenceMap{"hugepages_total": fixtureEv(t, f, 39)}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("%s (-want +got):\n%s", f, diff)
	}
}

func TestTHP(t *testing.T) {
	if mode, ok := parse.THP(fixtures.Read(t, "thp/sandbox-enabled.txt")); !ok || mode != "madvise" {
		t.Errorf("got %q, %v", mode, ok)
	}
}

func TestScalingGovernor(t *testing.T) {
	// The file holds one word; the THP file's three words are not a governor.
	if g, ok := parse.ScalingGovernor(fixtures.Read(t, "thp/sandbox-enabled.txt")); ok {
		t.Errorf("three words taken as governor %q", g)
	}
}

func TestUname(t *testing.T) {
	const f = "uname/hotsos-openstack-uname-a.txt"
	got, err := parse.Uname(fixtures.Read(t, f))
	if err != nil {
		t.Fatal(err)
	}
	want := facts.Host{Hostname: "compute4", Kernel: "5.4.0-97-generic",
		Evidence: facts.EvidenceMap{"hostname": fixtureEv(t, f, 1), "kernel": fixtureEv(t, f, 1)}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("%s (-want +got):\n%s", f, diff)
	}
	// The first line of case 110's job output is the host name alone.
	got, err = parse.Uname(fixtures.Read(t, "ulimit/sge-job-memlock-32.txt")[:7])
	if err != nil || got.Hostname != "node02" || got.Kernel != "" {
		t.Errorf("lone host name: %+v, %v", got, err)
	}
}
