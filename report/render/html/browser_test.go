package html_test

import (
	"bytes"
	"context"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/rdmadoctor/rdmadoctor/report"
	"github.com/rdmadoctor/rdmadoctor/report/render/html"
)

// chromium returns the path of Debian's chromium, skipping the test when it is missing (failing
// it when RDMADOCTOR_REQUIRE_TOOLS=1, as in CI).
func chromium(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("RDMADOCTOR_REQUIRE_TOOLS") == "1" {
		t.Fatal("chromium not installed (package: chromium) and RDMADOCTOR_REQUIRE_TOOLS=1")
	}
	t.Skip("chromium not installed (package: chromium)")
	return ""
}

// artifact is where a test writes a file for people to look at: $RDMADOCTOR_ARTIFACTS when set,
// else the test's temporary folder.
func artifact(t *testing.T, name string) string {
	t.Helper()
	dir := os.Getenv("RDMADOCTOR_ARTIFACTS")
	if dir == "" {
		dir = t.TempDir()
	} else if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return filepath.Join(dir, name)
}

// browserLog collects what the page did that it must not: console errors and warnings, uncaught
// exceptions, log entries (a Content-Security-Policy refusal is one), and requests for anything
// but the page itself.
type browserLog struct {
	mu       sync.Mutex
	page     string
	problems []string
}

func (l *browserLog) listen(ev any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	switch ev := ev.(type) {
	case *runtime.EventConsoleAPICalled:
		if ev.Type == runtime.ConsoleAPICalledTypeError || ev.Type == runtime.ConsoleAPICalledTypeWarning || ev.Type == runtime.ConsoleAPICalledTypeAssert {
			var args []string
			for _, a := range ev.Args {
				args = append(args, string(a.Value)+a.Description)
			}
			l.problems = append(l.problems, fmt.Sprintf("console.%s: %s", ev.Type, strings.Join(args, " ")))
		}
	case *runtime.EventExceptionThrown:
		l.problems = append(l.problems, "exception: "+(&chromedp.ExceptionError{ExceptionDetails: ev.ExceptionDetails}).Error())
	case *log.EventEntryAdded:
		if ev.Entry.Level == log.EntryLevelError || ev.Entry.Level == log.EntryLevelWarning {
			l.problems = append(l.problems, fmt.Sprintf("log %s %s: %s %s", ev.Entry.Level, ev.Entry.Source, ev.Entry.Text, ev.Entry.URL))
		}
	case *network.EventRequestWillBeSent:
		if ev.Request.URL != l.page {
			l.problems = append(l.problems, "request: "+ev.Request.URL)
		}
	case *network.EventLoadingFailed:
		l.problems = append(l.problems, "loading failed: "+ev.ErrorText)
	}
}

func (l *browserLog) report() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.problems...)
}

// openPage starts a headless chromium on the page at path (a file:// URL) and returns its
// context and log; the browser is closed at the end of the test.
func openPage(t *testing.T, path string, width, height int) (context.Context, *browserLog) {
	t.Helper()
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(chromium(t)),
		chromedp.WindowSize(width, height),
		chromedp.Flag("hide-scrollbars", true),
		chromedp.Flag("force-device-scale-factor", "1"),
	)
	if os.Geteuid() == 0 {
		opts = append(opts, chromedp.NoSandbox) // chromium refuses to run as root with its sandbox
	}
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelCtx := chromedp.NewContext(actx)
	ctx, cancelTime := context.WithTimeout(ctx, 60*time.Second)
	t.Cleanup(func() { cancelTime(); cancelCtx(); cancelAlloc() })
	page := (&url.URL{Scheme: "file", Path: path}).String()
	l := &browserLog{page: page}
	if err := chromedp.Listen(ctx, l.listen); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, chromedp.Navigate(page), chromedp.WaitReady(chromedp.CSS("footer"))); err != nil {
		t.Fatalf("load %s: %v", page, err)
	}
	return ctx, l
}

// pageFile writes the page of f to a file of the test's and returns its path.
func pageFile(t *testing.T, f *report.Fleet) string {
	t.Helper()
	var b bytes.Buffer
	if err := html.Write(&b, f); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "fleet.html")
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestPageInChromium loads the page of a 40-node fleet built from real corpus captures from a
// file:// URL in headless chromium: it loads without a console error and without a request, its
// key parts are there (summary counts, a group row, the heat map, a plot, a node that expands),
// and a screenshot is kept as the test's artifact.
//
// chromedp rather than go-rod: it drives the installed browser through the DevTools protocol
// with no launcher that downloads a browser of its own (rod's falls back to one, which cannot
// work offline or in CI), and its typed events (console, exceptions, log, network) are what
// the assertions are about.
func TestPageInChromium(t *testing.T) {
	f := realistic(t)
	ctx, l := openPage(t, pageFile(t, f), 1400, 1000)

	text := func(sel string) string {
		t.Helper()
		v, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(sel)))
		if err != nil {
			t.Fatalf("%s: %v", sel, err)
		}
		return v
	}
	count := func(sel string) int {
		t.Helper()
		n, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll(`+strconv.Quote(sel)+`).length`))
		if err != nil {
			t.Fatalf("%s: %v", sel, err)
		}
		return n
	}
	critical, unreadable := text("#summary .t-critical .n"), text("#summary .t-unreadable .n")
	firstGroup := text("table.groups tr.group")
	heatRows, groupRows, plots, nodes := count("table.heat tbody tr"), count("table.groups tr.group"), count("#plots figure.chart"), count("details.node")
	firstNode := text("details.node summary .host")
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS("details.node summary"))); err != nil {
		t.Fatal(err)
	}
	opened, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`document.querySelector("details.node").open && document.querySelector("details.node[open] .fix code") !== null`))
	if err != nil {
		t.Fatal(err)
	}
	shot, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatal(err)
	}
	png := artifact(t, "fleet-report.png")
	if err := os.WriteFile(png, shot, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot: %s", png)

	if p := l.report(); len(p) > 0 {
		t.Errorf("the page did what it must not:\n%s", strings.Join(p, "\n"))
	}
	wantCritical := 0
	for _, n := range f.Nodes {
		if n.Worst == "critical" {
			wantCritical++
		}
	}
	if critical != fmt.Sprint(wantCritical) || wantCritical == 0 {
		t.Errorf("critical tile = %q, want %d", critical, wantCritical)
	}
	if unreadable != "1" {
		t.Errorf("unreadable tile = %q, want 1", unreadable)
	}
	if !strings.Contains(firstGroup, f.Groups[0].ID) || !strings.Contains(firstGroup, f.Groups[0].HostList) {
		t.Errorf("first group row %q lacks %s on %s", firstGroup, f.Groups[0].ID, f.Groups[0].HostList)
	}
	if groupRows != len(f.Groups) {
		t.Errorf("%d group rows, want %d", groupRows, len(f.Groups))
	}
	if heatRows != len(f.Nodes) {
		t.Errorf("%d heat map rows, want one per node (%d)", heatRows, len(f.Nodes))
	}
	if plots != 3 {
		t.Errorf("%d plots, want 3", plots)
	}
	if nodes == 0 || firstNode == "" || !opened {
		t.Errorf("nodes %d, first %q, opened with a fix command %v", nodes, firstNode, opened)
	}
	if f.Nodes[0].Status == report.NodeUnreadable {
		t.Fatal("test fleet: the first node should be readable")
	}
}

// TestDocsScreenshot writes the screenshot docs/fleet-report.png shows (make fleet-report-png):
// the top of the page of the realistic fleet, as a 1280-pixel-wide window shows it. It runs
// only when RDMADOCTOR_FLEET_PNG names the file to write.
func TestDocsScreenshot(t *testing.T) {
	out := os.Getenv("RDMADOCTOR_FLEET_PNG")
	if out == "" {
		t.Skip("RDMADOCTOR_FLEET_PNG not set (make fleet-report-png sets it)")
	}
	ctx, l := openPage(t, pageFile(t, realistic(t)), 1280, 2300)
	shot, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatal(err)
	}
	if p := l.report(); len(p) > 0 {
		t.Errorf("the page did what it must not:\n%s", strings.Join(p, "\n"))
	}
	if err := os.WriteFile(out, shot, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("%s: %d bytes", out, len(shot))
}

// Corpus cases with fabric captures: an sminfo answer and ibdiagnet2.sm naming the master SM
// (112), and ibdiagnet2's full run of an NDR fabric with its port counters (301).
const (
	smMaster   = "112-cx6-ib-sriov-pf-initializing-switch-sm-master-local-opensm-bind-fails"
	ndrFabric  = "301-ndr-cx7-quantum2-fabric-ibdiagnet2-full-run-switch-fw-mismatch-dup-nodedesc"
	fabricRows = 10 // report.DigestCap
)

// TestFabricInChromium: the fabric section of a fleet whose snapshots hold fabric captures
// lists the subnet managers with who saw them, the links with receive errors with both ends
// and each host's counters (cut at report.DigestCap, saying how many more), and the hosts' ports
// not mapped to the fabric; the page loads without a console error, and a screenshot of the
// section is kept as the test's artifact.
func TestFabricInChromium(t *testing.T) {
	f := runFleet(t, []member{{"gpu001", healthyH100}, {"gpu003", noSM}, {"gpu020", smMaster}, {"gpu038", ndrFabric}})
	d := report.Digest(f.Fabric)
	if d == nil || len(d.SMs) != 2 || len(d.ErrorLinks) != fabricRows || d.ErrorLinksMore == 0 {
		t.Fatalf("digest %+v: want 2 SMs and %d links with errors, and more", d, fabricRows)
	}
	ctx, l := openPage(t, pageFile(t, f), 1400, 1000)
	eval := func(js string) string {
		t.Helper()
		v, err := chromedp.Run(ctx, chromedp.Evaluate[string](js))
		if err != nil {
			t.Fatalf("%s: %v", js, err)
		}
		return v
	}
	rows := func(sel string) []string {
		t.Helper()
		v, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`[...document.querySelectorAll(`+strconv.Quote(sel)+`)].map(e => e.innerText)`))
		if err != nil {
			t.Fatalf("%s: %v", sel, err)
		}
		return v
	}
	sms, links := rows("#fabric table.sms tbody tr"), rows("#fabric table.links tbody tr")
	unmapped := eval(`document.querySelector("#fabric p.unmapped").innerText`)
	nav := eval(`document.querySelector('header nav a[href="#fabric"]').innerText`)
	shot, err := chromedp.Run(ctx, chromedp.Screenshot(chromedp.CSS("#fabric")))
	if err != nil {
		t.Fatal(err)
	}
	png := artifact(t, "fleet-fabric.png")
	if err := os.WriteFile(png, shot, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot: %s", png)
	if p := l.report(); len(p) > 0 {
		t.Errorf("the page did what it must not:\n%s", strings.Join(p, "\n"))
	}

	if nav != "Fabric" {
		t.Errorf("nav link %q", nav)
	}
	// 112's sminfo: "sminfo: sm lid 4 sm guid 0x8c0eb0300f6fc26, activity count 5568705 priority 15 state 3 SMINFO_MASTER"
	if len(sms) != 2 || !regexp.MustCompile(`^0x08c0eb0300f6fc26\s+4\s+15\s+MASTER\s+gpu020 \(ibdiagnet2, sminfo\)$`).MatchString(sms[0]) ||
		!strings.Contains(sms[1], "0xb0cf0e0300d33fc0") || !strings.Contains(sms[1], "gpu038 (ibdiagnet2)") {
		t.Errorf("SM rows %q", sms)
	}
	// the link with the most receive errors in 301's ibdiagnet2.pm: both ends, gpu038's counters
	if len(links) != fabricRows || !strings.Contains(links[0], `switch 0xfc6a1c03008a5c00 "Quantum-2 Mellanox Technologies" port 27 (1/14/1)`) ||
		!strings.Contains(links[0], `CA 0x5c25730300f3df50 "node27 mlx5_11" port 1`) || !strings.Contains(links[0], "gpu038: link_downed 55, port_rcv_errors 65535") {
		t.Errorf("%d link rows, the first %q", len(links), links[0])
	}
	if more := eval(`document.querySelector("#fabric .fabpart:nth-child(2) p.cut").innerText`); !strings.HasPrefix(more, fmt.Sprint(d.ErrorLinksMore)+" more links with errors") {
		t.Errorf("cut note %q", more)
	}
	if !strings.Contains(unmapped, "gpu001 mlx5_0/1") || !strings.Contains(unmapped, "more") {
		t.Errorf("unmapped ports %q", unmapped)
	}
}

// TestTileHostsInChromium: the hosts a summary tile names are one to a line, and a host name
// longer than the tile wraps inside it: long names never run together or out of the tile.
func TestTileHostsInChromium(t *testing.T) {
	f := runFleet(t, []member{{"cx-ib-mode-on-ethernet-switch-rack12-node0042", noSM}, {"no-rdma-device-kernel-asks-for-firmware", noSM}, {"gpu003", noSM}})
	ctx, l := openPage(t, pageFile(t, f), 1400, 1000)
	problems, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`(() => {
		const out = [];
		for (const tile of document.querySelectorAll(".tile")) {
			const box = tile.getBoundingClientRect();
			let bottom = -1;
			for (const a of tile.querySelectorAll(".hosts a")) {
				for (const r of a.getClientRects()) {
					if (r.right > box.right + 0.5) out.push(a.innerText + " runs out of its tile");
				}
				const first = a.getClientRects()[0];
				if (first && first.top < bottom - 0.5) out.push(a.innerText + " shares a line with the host before it");
				bottom = Math.max(bottom, a.getBoundingClientRect().bottom);
			}
		}
		return out;
	})()`))
	if err != nil {
		t.Fatal(err)
	}
	n, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll(".tile .hosts a").length`))
	if err != nil {
		t.Fatal(err)
	}
	if n < 3 {
		t.Errorf("%d host links in the tiles, want the 3 nodes named", n)
	}
	for _, p := range problems {
		t.Error(p)
	}
	if p := l.report(); len(p) > 0 {
		t.Errorf("the page did what it must not:\n%s", strings.Join(p, "\n"))
	}
}
