package parse

import (
	"regexp"

	"github.com/rdmadoctor/rdmadoctor/facts"
)

// MlnxInstaller reads what an MLNX_OFED installer printed about what it could not do
// (mlnxofedinstall, mlnx_add_kernel_support.sh and the install.pl they run; MLNX_OFED_SRC):
//
//	Failed to build MLNX_OFED_LINUX for 5.14.0-rc5
//	Error: mlnx-ofed-kernel-modules installation failed!
//	WARNING: NFSoRDMA is not supported over kernel 6.5.11-7-pve, will continue installation without it.
//
// The rest (package lists, "Installing ...", the firmware updater's device list) is progress and
// is not read. An output that says nothing of these is an installation that reported no failure.
func MlnxInstaller(b []byte) ([]facts.InstallerEvent, error) {
	var out []facts.InstallerEvent
	lines := Lines(b)
	for _, l := range lines {
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
			out = append(out, e)
			break
		}
	}
	var probs problems
	probs.replaced(lines)
	probs.cut(b, lines, true) // a cut last line may have lost the kernel it names
	return out, probs.err()
}

// installerLines are the installer's own words (MLNX_OFED_SRC install.pl, mlnxofedinstall), with
// the submatch of the kernel and of the package or feature they name (0: none).
var installerLines = []struct {
	kind        string
	re          *regexp.Regexp
	kernel, pkg int
}{
	{facts.InstallerKernelBuildFailed, regexp.MustCompile(`^\s*Failed to build (MLNX_OFED_LINUX) for (\S+)\s*$`), 2, 1},
	{facts.InstallerPackageFailed, regexp.MustCompile(`^\s*Error: (\S+) installation failed!`), 0, 1},
	{facts.InstallerFeatureUnsupported, regexp.MustCompile(`^\s*WARNING: (.+?) is not supported over kernel (\S+), will continue installation without it`), 2, 1},
}
