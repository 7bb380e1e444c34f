package build

import (
	"regexp"

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
		Groups:      []string{"ofed_installer"},
		NotLive:     "an installer's output exists only if whoever ran the installer saved it",
	})
}

// installerSniffRe finds the installer's own lines (MLNX_OFED_SRC install.pl, mlnxofedinstall).
var installerSniffRe = regexp.MustCompile(`(?m)This program will (?:install|create) (?:the )?MLNX_OFED_LINUX|^\s*Failed to build MLNX_OFED_LINUX for |^\s*Error: \S+ installation failed!|is not supported over kernel \S+, will continue installation without it|^\s*Installing mlnx-ofed-kernel`)

func applyMlnxInstaller(s *facts.Snapshot, in Input) error {
	evs, err := parse.MlnxInstaller(in.Data) // parse.Problems: the events returned are still good
	if _, ok := parse.AsProblems(err); err != nil && !ok {
		return err
	}
	if len(evs) > 0 {
		h := facts.Host{Installer: evs}
		stamp(&h, in.Spec, in.Path)
		s.Host.Installer = append(s.Host.Installer, h.Installer...)
	}
	return err
}
