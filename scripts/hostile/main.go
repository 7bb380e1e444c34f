// Command hostile writes the huge inputs of issue 10 ("Hostile and huge input") from real
// captures repeated, for `make bench-hostile`:
//
//	DIR/logs.tar.gz   16 kernel logs of -log-mb MB each (dmesg__01 .. dmesg__16), the lines of
//	                  fixtures/dmesg/*.txt repeated with increasing timestamps
//	DIR/dmesg         one such log
//	DIR/ibstat        -ibstat-mb MB of the CA block of fixtures/ibstat/cx4-back-to-back-active-node01.txt
//	                  repeated, each copy under another CA name (mlx5_0, mlx5_1, ...)
//
// Usage: go run ./scripts/hostile -out DIR [-log-mb 60] [-logs 16] [-ibstat-mb 60]
package main

import (
	"archive/tar"
	"bufio"
	"bytes"
	"compress/gzip"
	"flag"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

var stampRe = regexp.MustCompile(`^\[[^\]]*\]\s*`)

func main() {
	out := flag.String("out", "bin/hostile", "folder to write the inputs to")
	logMB := flag.Int("log-mb", 60, "size of one kernel log, MB (10^6 bytes)")
	logs := flag.Int("logs", 16, "kernel logs in logs.tar.gz")
	ibstatMB := flag.Int("ibstat-mb", 60, "size of the ibstat capture, MB")
	fixtures := flag.String("fixtures", "fixtures", "the repository's fixtures folder")
	flag.Parse()
	if err := os.MkdirAll(*out, 0o755); err != nil {
		log.Fatal(err)
	}
	lines, err := kernelLines(filepath.Join(*fixtures, "dmesg"))
	if err != nil {
		log.Fatal(err)
	}
	dmesg := kernelLog(lines, *logMB*1_000_000)
	write(filepath.Join(*out, "dmesg"), dmesg)
	write(filepath.Join(*out, "logs.tar.gz"), logArchive(dmesg, *logs))
	block, err := os.ReadFile(filepath.Join(*fixtures, "ibstat", "cx4-back-to-back-active-node01.txt"))
	if err != nil {
		log.Fatal(err)
	}
	write(filepath.Join(*out, "ibstat"), ibstat(string(block), *ibstatMB*1_000_000))
}

func write(name string, b []byte) {
	if err := os.WriteFile(name, b, 0o644); err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%s: %d bytes\n", name, len(b))
}

// kernelLines returns the messages of every kernel log fixture, without their timestamps.
func kernelLines(dir string) ([]string, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.txt"))
	if err != nil || len(files) == 0 {
		return nil, fmt.Errorf("no kernel log fixtures in %s: %v", dir, err)
	}
	var out []string
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		sc := bufio.NewScanner(bytes.NewReader(b))
		for sc.Scan() {
			if msg := stampRe.ReplaceAllString(sc.Text(), ""); msg != "" {
				out = append(out, msg)
			}
		}
	}
	return out, nil
}

// kernelLog repeats lines, stamped 1 ms apart, up to size bytes.
func kernelLog(lines []string, size int) []byte {
	var b bytes.Buffer
	b.Grow(size + 256)
	for i := 0; b.Len() < size; i++ {
		fmt.Fprintf(&b, "[%12.6f] %s\n", float64(i)/1000, lines[i%len(lines)])
	}
	return b.Bytes()
}

// logArchive is a .tar.gz of n copies of log, dmesg__01 .. dmesg__NN.
func logArchive(log []byte, n int) []byte {
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	tw := tar.NewWriter(zw)
	for i := 1; i <= n; i++ {
		hdr := &tar.Header{Name: fmt.Sprintf("dmesg__%02d", i), Mode: 0o644, Size: int64(len(log)), Typeflag: tar.TypeReg}
		must(tw.WriteHeader(hdr))
		_, err := tw.Write(log)
		must(err)
	}
	must(tw.Close())
	must(zw.Close())
	return b.Bytes()
}

// ibstat repeats the CA block under the names mlx5_0, mlx5_1, ... up to size bytes.
func ibstat(block string, size int) []byte {
	name := regexp.MustCompile(`^CA '[^']+'`).FindString(block)
	body := strings.TrimPrefix(block, name)
	var b bytes.Buffer
	b.Grow(size + len(block))
	for i := 0; b.Len() < size; i++ {
		fmt.Fprintf(&b, "CA 'mlx5_%d'%s", i, body)
	}
	return b.Bytes()
}

func must(err error) {
	if err != nil {
		log.Fatal(err)
	}
}
