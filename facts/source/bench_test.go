package source_test

import (
	"archive/tar"
	"bufio"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rdmadoctor/rdmadoctor/facts/source"
	"github.com/ulikunitz/xz"
)

// benchArchive is a ~100 MB (uncompressed) sosreport-shaped .tar.xz, generated once and kept in
// os.TempDir() so repeated benchmark runs reuse it. Bump the version when the content changes.
var benchArchive = filepath.Join(os.TempDir(), "rdmadoctor-bench-sosreport-v1.tar.xz")

// benchFile returns the archive's path and its uncompressed size, generating it if needed.
func benchFile(b *testing.B) (string, int64) {
	b.Helper()
	sizeFile := benchArchive + ".size"
	if raw, err := os.ReadFile(sizeFile); err == nil {
		if n, err := strconv.ParseInt(strings.TrimSpace(string(raw)), 10, 64); err == nil {
			if _, err := os.Stat(benchArchive); err == nil {
				return benchArchive, n
			}
		}
	}
	start := time.Now()
	tmp := benchArchive + ".tmp"
	n, err := writeBenchArchive(tmp)
	if err != nil {
		b.Fatal(err)
	}
	if err := os.Rename(tmp, benchArchive); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(sizeFile, []byte(strconv.FormatInt(n, 10)), 0o644); err != nil {
		b.Fatal(err)
	}
	b.Logf("generated %s (%d bytes uncompressed) in %v", benchArchive, n, time.Since(start))
	return benchArchive, n
}

// writeBenchArchive writes a sosreport-like tar: 24,000 small text files (command outputs, sysfs
// and proc values) in kept and dropped plugin folders, and three 20 MB logs. It compresses with
// xz-utils (-6, one thread, one block, as sos's python lzma does) when installed.
func writeBenchArchive(path string) (int64, error) {
	f, err := os.Create(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	var compress io.WriteCloser
	var wait func() error = func() error { return nil }
	if xzPath, err := exec.LookPath("xz"); err == nil {
		cmd := exec.Command(xzPath, "-6", "-T1", "-c")
		cmd.Stdout = f
		if compress, err = cmd.StdinPipe(); err != nil {
			return 0, err
		}
		if err := cmd.Start(); err != nil {
			return 0, err
		}
		wait = cmd.Wait
	} else if compress, err = xz.NewWriter(f); err != nil {
		return 0, err
	}
	bw := bufio.NewWriterSize(compress, 1<<20)
	tw := tar.NewWriter(bw)
	rng := rand.New(rand.NewPCG(7, 11))
	words := strings.Fields("mlx5_core mlx5_0 port state ACTIVE LinkUp rate 100 Gb/sec link_layer InfiniBand " +
		"Ethernet enp1s0f0 ib0 mtu 4096 lid sm_lid guid 0x98039b0300a1b2c3 fw_ver 20.31.1014 irq cpu numa node " +
		"speed 25000 duplex full driver version bus-info 0000:81:00.0 LnkSta Width x16 Speed 16GT/s")
	line := func(sb *strings.Builder) {
		for i, n := 0, 4+rng.IntN(8); i < n; i++ {
			if i > 0 {
				sb.WriteByte(' ')
			}
			if rng.IntN(4) == 0 {
				fmt.Fprintf(sb, "%#x", rng.Uint32())
			} else {
				sb.WriteString(words[rng.IntN(len(words))])
			}
		}
		sb.WriteByte('\n')
	}
	var total int64
	add := func(name string, size int) error {
		var sb strings.Builder
		for sb.Len() < size {
			line(&sb)
		}
		body := sb.String()
		total += int64(len(body))
		if err := tw.WriteHeader(&tar.Header{Name: name, Mode: 0o644, Size: int64(len(body)), Typeflag: tar.TypeReg}); err != nil {
			return err
		}
		_, err := io.WriteString(tw, body)
		return err
	}
	const top = "sosreport-bench-2024-05-01-abcdefg/"
	plugins := []string{"infiniband", "networking", "pci", "kernel", "hardware", "selinux", "yum", "systemd", "processor", "block"}
	for i := range 24_000 {
		var name string
		switch i % 4 {
		case 0, 1:
			name = fmt.Sprintf("%ssos_commands/%s/cmd_%05d", top, plugins[i%len(plugins)], i)
		case 2:
			name = fmt.Sprintf("%ssys/devices/pci0000:80/0000:80:01.0/attr_%05d", top, i)
		default:
			name = fmt.Sprintf("%sproc/irq/%d/smp_affinity_list", top, i)
		}
		if err := add(name, 200+rng.IntN(3200)); err != nil {
			return 0, err
		}
	}
	for _, name := range []string{"var/log/messages", "sos_commands/logs/journalctl_--no-pager", "sos_commands/yum/yum_history"} {
		if err := add(top+name, 20<<20); err != nil {
			return 0, err
		}
	}
	if err := tw.Close(); err != nil {
		return 0, err
	}
	if err := bw.Flush(); err != nil {
		return 0, err
	}
	if err := compress.Close(); err != nil {
		return 0, err
	}
	return total, wait()
}

// BenchmarkOpenTarXZ measures Open on a ~100 MB sosreport .tar.xz (decoded by xz-utils when
// installed); compare its MB/s with BenchmarkXZUtils: the goal is at most 1.2x the time of
// `xz -dc`.
func BenchmarkOpenTarXZ(b *testing.B) { benchOpen(b, source.Options{}) }

// BenchmarkOpenTarXZPureGo is BenchmarkOpenTarXZ with the in-process decoder.
func BenchmarkOpenTarXZPureGo(b *testing.B) { benchOpen(b, source.Options{PureGoXZ: true}) }

func benchOpen(b *testing.B, opt source.Options) {
	p, n := benchFile(b)
	b.SetBytes(n)
	b.ReportAllocs()
	for b.Loop() {
		fsys, _, err := source.OpenWith(p, opt)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := fs.Stat(fsys, "var/log/messages"); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkXZDecode measures the pure-Go xz decoder alone (no tar, nothing kept).
func BenchmarkXZDecode(b *testing.B) {
	p, n := benchFile(b)
	b.SetBytes(n)
	for b.Loop() {
		f, err := os.Open(p)
		if err != nil {
			b.Fatal(err)
		}
		xr, err := xz.NewReader(bufio.NewReader(f))
		if err != nil {
			b.Fatal(err)
		}
		if _, err := io.Copy(io.Discard, xr); err != nil {
			b.Fatal(err)
		}
		f.Close()
	}
}

// BenchmarkXZUtils times `xz -dc FILE > /dev/null` on the same archive, the reference for
// BenchmarkOpenTarXZ.
func BenchmarkXZUtils(b *testing.B) {
	xzPath, err := exec.LookPath("xz")
	if err != nil {
		b.Skip("xz not installed")
	}
	p, n := benchFile(b)
	b.SetBytes(n)
	for b.Loop() {
		cmd := exec.Command(xzPath, "-dc", p)
		if err := cmd.Run(); err != nil { // Stdout nil: /dev/null
			b.Fatal(err)
		}
	}
}
