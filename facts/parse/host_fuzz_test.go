package parse_test

import (
	"testing"

	"github.com/rdmadoctor/rdmadoctor/facts/parse"
)

func FuzzMstConfig(f *testing.F) {
	seed(f, "mstconfig")
	f.Fuzz(func(t *testing.T, b []byte) { _, _ = parse.MstConfig(b) })
}

func FuzzFlint(f *testing.F) {
	seed(f, "flint")
	f.Fuzz(func(t *testing.T, b []byte) { _, _ = parse.Flint(b); _ = parse.FlintBurn(b) })
}

func FuzzMlxFWManager(f *testing.F) {
	seed(f, "mlxfwmanager")
	f.Fuzz(func(t *testing.T, b []byte) { _, _ = parse.MlxFWManager(b) })
}

func FuzzMSTStatus(f *testing.F) {
	seed(f, "mst_status")
	f.Fuzz(func(t *testing.T, b []byte) { _, _ = parse.MSTStatus(b) })
}

func FuzzMlxLink(f *testing.F) {
	seed(f, "mlxlink")
	f.Fuzz(func(t *testing.T, b []byte) { _, _ = parse.MlxLink(b) })
}

func FuzzLsmod(f *testing.F) {
	seed(f, "lsmod")
	f.Fuzz(func(t *testing.T, b []byte) { _, _ = parse.Lsmod(b) })
}

func FuzzDmesg(f *testing.F) {
	seed(f, "dmesg")
	f.Fuzz(func(t *testing.T, b []byte) { _, _ = parse.Dmesg(b) })
}

func FuzzSysctl(f *testing.F) {
	seed(f, "sysctl")
	f.Fuzz(func(t *testing.T, b []byte) {
		entries, _ := parse.Sysctl(b)
		for _, e := range entries {
			_, _, _ = parse.SysctlIPv6Disabled(e.Name, e.Value)
		}
	})
}

func FuzzUlimit(f *testing.F) {
	seed(f, "ulimit")
	f.Fuzz(func(t *testing.T, b []byte) { _, _ = parse.Ulimit(b) })
}

func FuzzLimits(f *testing.F) {
	seed(f, "limits")
	f.Fuzz(func(t *testing.T, b []byte) { _, _ = parse.Limits(b) })
}

func FuzzSystemctl(f *testing.F) {
	seed(f, "systemctl")
	f.Fuzz(func(t *testing.T, b []byte) {
		_, _ = parse.SystemctlStatus(b)
		_, _ = parse.SystemctlListUnits(b)
		_, _, _ = parse.SystemctlIsActive(b)
		_, _ = parse.OpenIBD(b)
	})
}

func FuzzOpenSM(f *testing.F) {
	seed(f, "opensm")
	f.Fuzz(func(t *testing.T, b []byte) {
		_, _, _ = parse.OpenSMConf(b)
		_, _ = parse.OpenSMLog(b)
	})
}

func FuzzHostFiles(f *testing.F) {
	seed(f, "meminfo", "uname", "thp")
	f.Fuzz(func(t *testing.T, b []byte) {
		_, _ = parse.Meminfo(b)
		_, _ = parse.Uname(b)
		_, _ = parse.THP(b)
		_, _ = parse.ScalingGovernor(b)
	})
}
