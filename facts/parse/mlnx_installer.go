package parse

import (
	"strconv"
	"strings"

	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/internal/lazyregexp"
)

// MlnxInstallerOutput is what an MLNX_OFED / mlnx-en installer printed that says something about
// the node: what it could not do, and what its firmware updater found.
type MlnxInstallerOutput struct {
	Events []facts.InstallerEvent
	// Firmware holds the firmware updater's device reports (mlxfwmanager's format, after
	// "Querying Mellanox devices firmware ..."), and one record per device whose PSID it has no
	// image for ("The firmware for this device is not distributed inside Mellanox driver").
	// A device it flashed ("Device #1: Updating FW ... Done", "Restart needed for updates to take
	// effect.") has the flashed image as PendingVersion: the running firmware stays the old one
	// until a reset. Tool is left to the caller.
	Firmware []facts.FirmwareInfo
}

// MlnxInstaller reads the output of an MLNX_OFED or mlnx-en installer (mlnxofedinstall,
// mlnx_add_kernel_support.sh, mlnx-en's install, and the install.pl and mlnx-fw-updater they
// run; MLNX_OFED_SRC):
//
//	Failed to build MLNX_OFED_LINUX for 5.14.0-rc5
//	Error: mlnx-ofed-kernel-modules installation failed!
//	WARNING: NFSoRDMA is not supported over kernel 6.5.11-7-pve, will continue installation without it.
//	Attempting to perform Firmware update...
//	Querying Mellanox devices firmware ...
//	Device #1: ... Status:           Update required
//	The firmware for this device is not distributed inside Mellanox driver: 01:00.0 (PSID: HUA0020040036)
//	Failed to update Firmware.
//
// The rest (package lists, "Installing ...", the "Device (03:00.0): Link Width" summary) is
// progress and is not read. An output that says nothing of these reported no failure.
func MlnxInstaller(b []byte) (MlnxInstallerOutput, error) {
	var out MlnxInstallerOutput
	var probs problems
	lines := Lines(b)
	start, end := -1, len(lines) // the firmware updater's query report
	updating := 0                // the device # being flashed
	flashed := map[int]Line{}    // device # -> its "Done"
	restart := Line{}
	for i, l := range lines {
		t := strings.TrimSpace(l.Text)
		switch {
		case start < 0 && t == "Querying Mellanox devices firmware ...":
			start = i
		case start >= 0 && end == len(lines) && fwReportEndRe.MatchString(t):
			end = i
		}
		if m := fwUpdatingRe.FindStringSubmatch(t); m != nil {
			updating, _ = strconv.Atoi(m[1])
		} else if t == "Done" && updating > 0 {
			flashed[updating] = l
			updating = 0
		}
		if t == "Restart needed for updates to take effect." {
			restart = l
		}
		if m := fwNotDistributedRe.FindStringSubmatch(t); m != nil {
			fw := facts.FirmwareInfo{Device: m[1], PSID: m[2], Status: "The firmware for this device is not distributed inside Mellanox driver"}
			for _, k := range []string{"device", "psid", "status"} {
				fw.Evidence.Set(k, l.Evidence())
			}
			out.Firmware = append(out.Firmware, fw)
			continue
		}
		if e, ok := installerEvent(l); ok {
			out.Events = append(out.Events, e)
		}
	}
	if start >= 0 {
		recs, err := MlxFWManager(section(lines, start, end))
		probs.addErr(err)
		for i := range recs {
			if done, ok := flashed[i+1]; ok && restart.N > 0 && recs[i].AvailableVersion != "" {
				recs[i].PendingVersion = recs[i].AvailableVersion
				recs[i].Evidence.Set("pending_version", done.Evidence())
			}
		}
		out.Firmware = append(recs, out.Firmware...)
	}
	probs.replaced(lines)
	if len(lines) > 0 {
		_, isEvent := installerEvent(lines[len(lines)-1])
		probs.cut(b, lines, isEvent) // a cut event line may have lost the kernel it names
	}
	return out, probs.err()
}

// section is lines[start:end] as text, the other lines blank, so that line numbers stay the file's.
func section(lines []Line, start, end int) []byte {
	var sb strings.Builder
	for i, l := range lines {
		if i >= start && i < end {
			sb.WriteString(l.Text)
		}
		sb.WriteByte('\n')
	}
	return []byte(sb.String())
}

func installerEvent(l Line) (facts.InstallerEvent, bool) {
	for _, p := range installerLines {
		m := p.re.FindStringSubmatch(l.Text)
		if m == nil {
			continue
		}
		e := facts.InstallerEvent{Kind: p.kind, Evidence: l.Evidence()}
		if p.kernel > 0 {
			e.Kernel = m[p.kernel]
		}
		if p.pkg > 0 {
			e.Package = m[p.pkg]
		}
		return e, true
	}
	return facts.InstallerEvent{}, false
}

var (
	// fwReportEndRe: the lines after mlxfwmanager's query report in an installer's output.
	fwReportEndRe      = lazyregexp.New(`^(?:Found \d+ device\(s\) requiring|Device #\d+: Updating FW|Log File:|Restart needed|Device \(|Installation |Failed to update Firmware)`)
	fwUpdatingRe       = lazyregexp.New(`^Device #(\d+): Updating FW`)
	fwNotDistributedRe = lazyregexp.New(`^The firmware for this device is not distributed inside Mellanox driver: (\S+) \(PSID: ([^)\s]+)\)`)
)

// installerLines are the installer's own words (MLNX_OFED_SRC install.pl, mlnxofedinstall), with
// the submatch of the kernel and of the package or feature they name (0: none).
var installerLines = []struct {
	kind        string
	re          *lazyregexp.Regexp
	kernel, pkg int
}{
	{facts.InstallerKernelBuildFailed, lazyregexp.New(`^\s*Failed to build (MLNX_OFED_LINUX) for (\S+)\s*$`), 2, 1},
	{facts.InstallerPackageFailed, lazyregexp.New(`^\s*Error: (\S+) installation failed!`), 0, 1},
	{facts.InstallerFeatureUnsupported, lazyregexp.New(`^\s*WARNING: (.+?) is not supported over kernel (\S+), will continue installation without it`), 2, 1},
	{facts.InstallerFirmwareUpdateFailed, lazyregexp.New(`^\s*Failed to update Firmware\.`), 0, 0},
}
