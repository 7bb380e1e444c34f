package parse_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/facts/parse"
	"github.com/rdmadoctor/rdmadoctor/fixtures"
)

func TestMlnxInstaller(t *testing.T) {
	for _, tc := range []struct {
		fixture string
		want    []facts.InstallerEvent
	}{
		{"mlnx_installer/add-kernel-support-build-failed-5.14.txt", []facts.InstallerEvent{{Kind: facts.InstallerKernelBuildFailed,
			Kernel: "5.14.0-rc5", Package: "MLNX_OFED_LINUX", Evidence: ev(10, "Failed to build MLNX_OFED_LINUX for 5.14.0-rc5")}}},
		{"mlnx_installer/kernel-modules-install-failed-4.5-ubuntu16.04_EXCERPT.txt", []facts.InstallerEvent{{Kind: facts.InstallerPackageFailed,
			Package: "mlnx-ofed-kernel-modules", Evidence: ev(12, "Error: mlnx-ofed-kernel-modules installation failed!")}}},
		{"mlnx_installer/pve-nfsordma-not-supported_EXCERPT.txt", []facts.InstallerEvent{{Kind: facts.InstallerFeatureUnsupported,
			Kernel: "6.5.11-7-pve", Package: "NFSoRDMA",
			Evidence: ev(1, "WARNING: NFSoRDMA is not supported over kernel 6.5.11-7-pve, will continue installation without it.")}}},
	} {
		got, err := parse.MlnxInstaller(fixtures.Read(t, tc.fixture))
		if err != nil {
			t.Fatalf("%s: %v", tc.fixture, err)
		}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tc.fixture, diff)
		}
	}
}
