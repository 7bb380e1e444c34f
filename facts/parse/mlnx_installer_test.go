package parse_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

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
		{"mlnx_installer/mlnxofed-5.5-cx4lx-oem-psid-fw-update-failed_EXCERPT.txt", []facts.InstallerEvent{{Kind: facts.InstallerFirmwareUpdateFailed,
			Evidence: ev(41, "Failed to update Firmware.")}}},
	} {
		got, err := parse.MlnxInstaller(fixtures.Read(t, tc.fixture))
		if err != nil {
			t.Fatalf("%s: %v", tc.fixture, err)
		}
		if diff := cmp.Diff(tc.want, got.Events); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tc.fixture, diff)
		}
	}
}

// TestMlnxInstallerFirmware: the firmware updater's report inside an installer's output, the
// devices it flashed (pending a restart) and those whose OEM PSID it has no image for.
func TestMlnxInstallerFirmware(t *testing.T) {
	for _, tc := range []struct {
		fixture string
		want    []facts.FirmwareInfo
	}{
		{"mlnx_installer/mlnx-en-cx3-fw-updated-restart-needed.txt", []facts.FirmwareInfo{{Device: "03:00.0",
			DeviceType: "ConnectX3", PartNumber: "MCX311A-XCA_Ax",
			Description: "ConnectX-3 EN network interface card; 10GigE; single-port SFP+; PCIe3.0 x4 8GT/s; RoHS R6",
			PSID:        "MT_1170110023", Version: "2.33.5220", AvailableVersion: "2.42.5000", Status: "Update required",
			PendingVersion: "2.42.5000", BaseMAC: "f4521488d550"}}},
		{"mlnx_installer/mlnx-en-cx6dx-fw-updated-restart-needed.txt", []facts.FirmwareInfo{{Device: "d2:00.0",
			DeviceType: "ConnectX6DX", PartNumber: "MCX623106AN-CDA_Ax",
			Description: "ConnectX-6 Dx EN adapter card; 100GbE; Dual-port QSFP56; PCIe 4.0/3.0 x16;",
			PSID:        "MT_0000000359", Version: "22.31.1014", AvailableVersion: "22.33.1048", Status: "Update required",
			PendingVersion: "22.33.1048", BaseGUID: "08c0eb0300a27bc8", BaseMAC: "08c0eba27bc8"}}},
		{"mlnx_installer/mlnxofed-5.5-cx4lx-oem-psid-fw-update-failed_EXCERPT.txt", []facts.FirmwareInfo{
			{Device: "01:00.0", PSID: "HUA0020040036", Status: "The firmware for this device is not distributed inside Mellanox driver"},
			{Device: "81:00.0", PSID: "HUA0020040036", Status: "The firmware for this device is not distributed inside Mellanox driver"}}},
	} {
		got, err := parse.MlnxInstaller(fixtures.Read(t, tc.fixture))
		if err != nil {
			t.Fatalf("%s: %v", tc.fixture, err)
		}
		if diff := cmp.Diff(tc.want, got.Firmware, cmpopts.IgnoreFields(facts.FirmwareInfo{}, "Evidence")); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tc.fixture, diff)
		}
	}
}
