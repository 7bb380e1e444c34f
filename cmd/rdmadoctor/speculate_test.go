package main

import (
	"archive/tar"
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/rdmadoctor/rdmadoctor/facts/source"
	"github.com/rdmadoctor/rdmadoctor/fixtures"
	"github.com/rdmadoctor/rdmadoctor/internal/diagnosis"
	"github.com/rdmadoctor/rdmadoctor/report"
)

// sosTar writes a sosreport .tar at path whose members (sos path -> fixture path, or "" for a
// file nothing reads) come in the order given.
func sosTar(t *testing.T, path string, members [][2]string) {
	t.Helper()
	var b bytes.Buffer
	tw := tar.NewWriter(&b)
	for _, m := range members {
		body := []byte("x=1\n")
		if m[1] != "" {
			body = fixtures.Read(t, m[1])
		}
		if err := tw.WriteHeader(&tar.Header{Name: "sosreport-node01-2024/" + m[0], Mode: 0o644, Size: int64(len(body)), Typeflag: tar.TypeReg}); err != nil {
			t.Fatal(err)
		}
		if _, err := tw.Write(body); err != nil {
			t.Fatal(err)
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// unreadMembers are n files of a sosreport nothing reads.
func unreadMembers(from, n int) [][2]string {
	var ms [][2]string
	for i := from; i < from+n; i++ {
		ms = append(ms, [2]string{fmt.Sprintf("etc/unrelated-%d.conf", i), ""})
	}
	return ms
}

// TestSpeculation: a sosreport whose captures are followed by files nothing reads is evaluated
// while those stream by, with the compile ahead, and the report of the snapshot read whole is
// the report made without that evaluation; so is it when a capture comes after it (the
// evaluation is then of a snapshot the rules see otherwise, and not taken: engine's
// TestEvaluationTaken).
func TestSpeculation(t *testing.T) {
	ibstat := [2]string{"sos_commands/infiniband/ibstat", "corpus/003-h100-ib-ndr-frontend-eth-ports-disabled/ibstat"}
	ipAddr := [2]string{"sos_commands/networking/ip_addr", "corpus/108-cx4lx-show-gids-96-vlan-subifs-link-local-only-no-ipv4-gids/ip_addr"}
	for _, tc := range []struct {
		name    string
		members [][2]string
	}{
		{"nothing kept after", append([][2]string{ibstat}, unreadMembers(0, 100)...)},
		{"a capture after", append(append(append([][2]string{ibstat}, unreadMembers(0, 40)...), ipAddr), unreadMembers(40, 10)...)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			p := filepath.Join(t.TempDir(), "sosreport.tar")
			sosTar(t, p, tc.members)
			ahead := newRulesAhead(ctx, time.Minute)
			defer ahead.stop()
			// The compile ahead of what ibstat feeds has ended before the reading, so that the
			// first view is taken (on a real sosreport the decompressor gives it the time).
			ahead.seen(ibstat[0])
			for deadline := time.Now().Add(time.Minute); ahead.ready() == nil; time.Sleep(time.Millisecond) {
				if time.Now().After(deadline) {
					t.Fatal("the compile ahead did not end")
				}
			}
			spec := newSpeculation(ctx, ahead, nil)
			defer spec.stop()
			fsys, info, err := diagnosis.OpenSourceWith(p, source.Options{Seen: ahead.seen, Settled: spec.settled})
			if err != nil {
				t.Fatal(err)
			}
			s, err := diagnosis.Build(fsys, info)
			if err != nil {
				t.Fatal(err)
			}
			ev := spec.evaluation()
			e, early, err := ahead.engine(ctx, s, ev == nil)
			if err != nil {
				t.Fatal(err)
			}
			if early != nil {
				t.Error("evaluated beside the compiles as well as ahead")
			}
			if ev == nil {
				t.Fatal("no speculation was evaluated")
			}
			got, err := e.DiagnoseWith(ctx, s, ev)
			if err != nil {
				t.Fatal(err)
			}
			want, err := e.Diagnose(ctx, s)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want, got, cmpopts.IgnoreUnexported(report.Report{})); diff != "" {
				t.Errorf("report with the speculation (-without +with):\n%s", diff)
			}
			if len(want.Diagnoses) == 0 {
				t.Error("no diagnosis: the case says nothing")
			}
		})
	}
}
