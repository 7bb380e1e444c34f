package parse_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/rdmadoctor/rdmadoctor/facts/parse"
	"github.com/rdmadoctor/rdmadoctor/fixtures"
)

// seed adds every fixture of the given folders to the fuzz corpus.
func seed(f *testing.F, dirs ...string) {
	for _, d := range dirs {
		files, _ := filepath.Glob(filepath.Join(fixtures.Dir(), d, "*"))
		for _, p := range files {
			if b, err := os.ReadFile(p); err == nil {
				f.Add(b)
			}
		}
	}
}

func FuzzLSPCI(f *testing.F) {
	seed(f, "lspci")
	f.Fuzz(func(t *testing.T, b []byte) { _, _ = parse.LSPCI(b) })
}

func FuzzEthtool(f *testing.F) {
	seed(f, "ethtool")
	f.Fuzz(func(t *testing.T, b []byte) { _, _ = parse.Ethtool(b) })
}

func FuzzEthtoolDriver(f *testing.F) {
	seed(f, "ethtool_driver")
	f.Fuzz(func(t *testing.T, b []byte) { _, _, _ = parse.EthtoolDriver(b) })
}

func FuzzEthtoolModule(f *testing.F) {
	seed(f, "ethtool_module")
	f.Fuzz(func(t *testing.T, b []byte) { _, _, _ = parse.EthtoolModule(b) })
}

func FuzzEthtoolStats(f *testing.F) {
	seed(f, "ethtool_stats")
	f.Fuzz(func(t *testing.T, b []byte) { _, _, _, _ = parse.EthtoolStats(b) })
}

func FuzzEthtoolPause(f *testing.F) {
	seed(f, "ethtool_pause")
	f.Fuzz(func(t *testing.T, b []byte) { _, _, _, _ = parse.EthtoolPause(b) })
}

func FuzzEthtoolFEC(f *testing.F) {
	seed(f, "ethtool_fec")
	f.Fuzz(func(t *testing.T, b []byte) { _, _, _, _ = parse.EthtoolFEC(b) })
}

func FuzzIPAddr(f *testing.F) {
	seed(f, "ip_addr")
	f.Fuzz(func(t *testing.T, b []byte) { _, _ = parse.IPAddr(b) })
}

func FuzzIPLink(f *testing.F) {
	seed(f, "ip_link")
	f.Fuzz(func(t *testing.T, b []byte) { _, _ = parse.IPLink(b) })
}

func FuzzIfconfig(f *testing.F) {
	seed(f, "ifconfig")
	f.Fuzz(func(t *testing.T, b []byte) { _, _ = parse.Ifconfig(b) })
}

func FuzzInterrupts(f *testing.F) {
	seed(f, "proc_interrupts")
	f.Fuzz(func(t *testing.T, b []byte) { _, _ = parse.Interrupts(b) })
}

func FuzzMlnxQoS(f *testing.F) {
	seed(f, "mlnx_qos")
	f.Fuzz(func(t *testing.T, b []byte) { _, _, _ = parse.MlnxQoS(b) })
}

func FuzzIRQAffinityList(f *testing.F) {
	for _, s := range []string{"7\n", "0-7,16\n", "0-3\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) { _, _, _ = parse.IRQAffinityList(b) })
}

func FuzzSysfsNet(f *testing.F) {
	f.Add("ib0", []byte("4092\n"), []byte("32\n"), []byte("0-3\n"), []byte("1\n"))
	f.Fuzz(func(t *testing.T, name string, mtu, typ, cpus, ecn []byte) {
		_, _ = parse.SysfsNet(name, map[string][]byte{"mtu": mtu, "type": typ, "device/local_cpulist": cpus,
			"ecn/roce_np/enable/3": ecn, "carrier": ecn, "flags": typ, "device/numa_node": mtu})
	})
}

func FuzzIBVDeviceStatistics(f *testing.F) {
	seed(f, "ibv_device_statistics")
	f.Fuzz(func(t *testing.T, b []byte) { _, _ = parse.IBVDeviceStatistics(b) })
}
