package build

import (
	"testing"

	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/fixtures"
)

// TestBuildMlnxInstaller: installer outputs found by name (mlnxofedinstall) and by content (a
// saved mlnx-en install log) give their events and the firmware updater's records, joined to
// PCI addresses; corpus 111's warning is read, no longer unrecognized.
func TestBuildMlnxInstaller(t *testing.T) {
	s, err := Snapshot(fixtures.Files(t, map[string]string{
		"mlnxofedinstall_--add-kernel-support": "mlnx_installer/add-kernel-support-build-failed-5.14.txt",
		"mlnxofedinstall":                      "mlnx_installer/mlnxofed-5.5-cx4lx-oem-psid-fw-update-failed_EXCERPT.txt",
		"install_log.txt":                      "mlnx_installer/mlnx-en-cx3-fw-updated-restart-needed.txt",
	}), facts.SourceInfo{})
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range []string{"mlnxofedinstall_--add-kernel-support", "mlnxofedinstall", "install_log.txt"} {
		if src := sourceOf(t, s, o); src.Name != "mlnx_installer" || src.Status != facts.StatusOK {
			t.Errorf("%s: %+v", o, src)
		}
	}
	var kinds []string
	for _, e := range s.Host.Installer {
		kinds = append(kinds, e.Kind+" "+e.Kernel+" "+e.Evidence.Path)
	}
	want := []string{"firmware_update_failed  mlnxofedinstall", "kernel_build_failed 5.14.0-rc5 mlnxofedinstall_--add-kernel-support"}
	if len(kinds) != 2 || kinds[0] != want[0] || kinds[1] != want[1] {
		t.Errorf("events %q, want %q", kinds, want)
	}
	var fws []string
	for _, fw := range s.Firmware {
		fws = append(fws, fw.Tool+" "+fw.PCIAddress+" "+fw.PSID+" "+fw.Status)
	}
	wantFW := []string{
		"mlnx-fw-updater 0000:03:00.0 MT_1170110023 Update required",
		"mlnx-fw-updater 0000:01:00.0 HUA0020040036 The firmware for this device is not distributed inside Mellanox driver",
		"mlnx-fw-updater 0000:81:00.0 HUA0020040036 The firmware for this device is not distributed inside Mellanox driver",
	}
	if len(fws) != len(wantFW) {
		t.Fatalf("firmware %q, want %q", fws, wantFW)
	}
	for i := range wantFW {
		if fws[i] != wantFW[i] {
			t.Errorf("firmware %d: %q, want %q", i, fws[i], wantFW[i])
		}
	}
	if src := sourceOf(t, buildCorpus(t, "111"), "mlnxofedinstall_warning_EXCERPT"); src.Name != "mlnx_installer" || src.Status != facts.StatusOK {
		t.Errorf("111: %+v", src)
	}
}
