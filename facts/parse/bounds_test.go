package parse_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/facts/parse"
)

// A log flooded with one message keeps its first and last MaxEventsPerKind and counts the rest.
func TestReadDmesgKeepsFirstAndLast(t *testing.T) {
	const n = 1000
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "[%d.000000] mlx5_core 0000:04:00.0 enp4s0np0: Link down\n", i)
		if i == 500 {
			b.WriteString("[500.5] mlx5_core 0000:04:00.0: firmware version: 20.27.446\n")
		}
	}
	log, err := parse.ReadDmesg(strings.NewReader(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := len(log.Events), 2*parse.MaxEventsPerKind+1; got != want {
		t.Fatalf("kept %d events, want %d", got, want)
	}
	if got := log.Omitted[facts.EventLinkDown]; got != n-2*parse.MaxEventsPerKind {
		t.Errorf("omitted %d link_down, want %d", got, n-2*parse.MaxEventsPerKind)
	}
	if first, last := log.Events[0].Evidence.Line, log.Events[len(log.Events)-1].Evidence.Line; first != 1 || last != n+1 {
		t.Errorf("kept lines %d..%d, want 1..%d", first, last, n+1)
	}
	if _, ok := log.Omitted[facts.EventOther]; ok {
		t.Errorf("omitted other events: %v", log.Omitted)
	}
}

// A line without end is cut to MaxLineBytes, and the lines after it keep their numbers.
func TestEachLineLong(t *testing.T) {
	in := "a\r\n" + strings.Repeat("x", 3*parse.MaxLineBytes) + "\n\nlast"
	var got []parse.Line
	if err := parse.EachLine(strings.NewReader(in), func(l parse.Line) { l.Text = strings.Clone(l.Text); got = append(got, l) }); err != nil {
		t.Fatal(err)
	}
	if len(got) != 4 || got[0].Text != "a" || len(got[1].Text) != parse.MaxLineBytes || got[2].Text != "" || got[3] != (parse.Line{N: 4, Text: "last"}) {
		t.Errorf("lines: %d, %v", len(got), got[len(got)-1])
	}
}

// The literal hints classify as the kinds' regexps do, word boundaries and case included.
func TestDmesgKindHints(t *testing.T) {
	for msg, want := range map[string]string{
		"mlx5_core 0000:04:00.0 eth0: Link DOWN":          facts.EventLinkDown,
		"mlx5_core 0000:04:00.0 eth0: uplink down":        facts.EventOther,
		"mlx5_core 0000:04:00.0 eth0: link downgraded":    facts.EventOther,
		"mlx5_core 0000:04:00.0 eth0: link_down, link up": facts.EventLinkUp,
		"mlx5_core 0000:04:00.0 eth0: Lin\u212a down":     facts.EventLinkDown, // Kelvin sign folds to k
		"mlx5_core 0000:04:00.0: probe of x failed":       facts.EventProbeFailed,
		"mlx5_core 0000:04:00.0: probe of  failed":        facts.EventOther,
	} {
		evs, err := parse.Dmesg([]byte(msg + "\n"))
		if err != nil || len(evs) != 1 || evs[0].Kind != want {
			t.Errorf("%q: %+v, %v; want kind %s", msg, evs, err, want)
		}
	}
}

// An ibstat of more than MaxDevices CA blocks is read for the first MaxDevices.
func TestIBStatMaxDevices(t *testing.T) {
	var b strings.Builder
	for i := range parse.MaxDevices + 6 {
		fmt.Fprintf(&b, "CA 'mlx5_%d'\n\tCA type: MT4115\n\tPort 1:\n\t\tState: Active\n", i)
	}
	out, err := parse.IBStat([]byte(b.String()))
	if _, partial := parse.AsProblems(err); err != nil && !partial {
		t.Fatal(err) // the blocks lack lines ibstat always prints: a partial read is right
	}
	if len(out.Devices) != parse.MaxDevices || out.Omitted != 6 {
		t.Errorf("%d devices, %d omitted, %v; want %d, 6", len(out.Devices), out.Omitted, err, parse.MaxDevices)
	}
}
