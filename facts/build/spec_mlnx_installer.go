package build

import (
	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/facts/parse"
)

func init() {
	register(Spec{
		Name:     "mlnx_installer",
		Plugin:   "mellanox_firmware",
		Commands: []string{"mlnxofedinstall", "mlnx_add_kernel_support.sh", "mlnx_add_kernel_support"},
		Sniff:    func(h []byte) bool { return installerSniffRe.Match(h) },
		// An installation that reported no failure is an answer too.
		Answered:    func(b []byte) bool { return installerSniffRe.Match(b) },
		Apply:       applyMlnxInstaller,
		MissingHint: "save the output of the MLNX_OFED/DOCA-OFED installer (./mlnxofedinstall, mlnx_add_kernel_support.sh) when it was run",
		Groups:      []string{"ofed_installer", "firmware_query"},
		NotLive:     "an installer's output exists only if whoever ran the installer saved it",
	})
}

// installerSniffRe finds the installer's own lines (MLNX_OFED_SRC install.pl, mlnxofedinstall,
// mlnx-en's install, mlnx-fw-updater).
var installerSniffRe = mustSniff(`(?m)This program will (?:install|create) (?:the )?(?:MLNX_OFED_LINUX|mlnx-en)|^Attempting to perform Firmware update\.\.\.|^\s*Failed to build MLNX_OFED_LINUX for |^\s*Error: \S+ installation failed!|is not supported over kernel \S+, will continue installation without it|^\s*Installing mlnx-ofed-kernel`)

// applyMlnxInstaller adds the installer's events to Host.Installer and its firmware updater's
// device reports to Firmware (tool "mlnx-fw-updater"), as mlxfwmanager's would be.
func applyMlnxInstaller(s *facts.Snapshot, in Input) error {
	out, err := parse.MlnxInstaller(in.Data) // parse.Problems: what was returned is still good
	if _, ok := parse.AsProblems(err); err != nil && !ok {
		return err
	}
	if len(out.Events) > 0 {
		h := facts.Host{Installer: out.Events}
		stamp(&h, in.Spec, in.Path)
		s.Host.Installer = append(s.Host.Installer, h.Installer...)
	}
	for _, fw := range out.Firmware {
		fw.Tool = "mlnx-fw-updater"
		if a := NormalizeBDF(fw.Device); fw.PCIAddress == "" && fullBDFRe.MatchString(a) {
			fw.PCIAddress = a
		}
		stamp(&fw, in.Spec, in.Path)
		s.Firmware = append(s.Firmware, fw)
	}
	return err
}
