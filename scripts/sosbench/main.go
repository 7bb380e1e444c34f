// Command sosbench writes the sosreport-shaped archives of `make bench-snapshot` (issue 14): one
// sosreport tar per size, holding the real captures of one corpus case where sos puts them and
// N unrelated members, copies of text files found on this machine (under /usr/share), spread
// over the folders a sosreport holds and rdmadoctor does not read (etc/, usr/, var/lib/, proc/,
// sys/module/, sos_logs/ and the plugin folders of sos_commands/ no input spec names).
//
//	DIR/sos-N.tar   for each N of -members (default 2000,8000,32000,128000)
//
// A case file read by a spec's command name goes to sos_commands/<the spec's plugin>/<name>
// (facts/build's own declaration says where), one under sys/, proc/, etc/ or var/ keeps its
// path, any other goes to the report's top folder. The same members, in the same order, are
// written for every size: the archive of N members is the first N of the largest.
//
// Usage: go run ./scripts/sosbench -out DIR [-members 2000,8000] [-case fixtures/corpus/108-...]
package main

import (
	"archive/tar"
	"bufio"
	"flag"
	"fmt"
	"io/fs"
	"log"
	"math/rand/v2"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/rdmadoctor/rdmadoctor/facts/build"
	"github.com/rdmadoctor/rdmadoctor/facts/source"
)

// caseSkip are the files of a corpus case that are not captures.
var caseSkip = map[string]bool{"CASE.md": true, "expect.json": true, "profile.yaml": true}

// unrelatedDirs are where the unrelated members go, in turn: folders a real sosreport holds
// (sos copies /etc, parts of /usr, /var/lib, /proc and /sys/module, and runs the plugins below).
var unrelatedDirs = []string{
	"etc", "etc", "etc", "etc", "usr/share/doc", "usr/lib", "var/lib", "proc/1",
	"sys/module", "sos_commands/apt", "sos_commands/selinux", "sos_commands/block",
	"sos_commands/filesys", "sos_commands/yum", "sos_commands/logs", "sos_logs",
}

func main() {
	out := flag.String("out", "/tmp/rdmadoctor-bench-snapshot", "folder to write the archives to")
	members := flag.String("members", "2000,8000,32000,128000", "numbers of unrelated members, comma-separated")
	caseDir := flag.String("case", "fixtures/corpus/108-cx4lx-show-gids-96-vlan-subifs-link-local-only-no-ipv4-gids", "corpus case whose captures every archive holds")
	from := flag.String("from", "/usr/share", "folder whose text files are copied as unrelated members")
	flag.Parse()
	var sizes []int
	for _, s := range strings.Split(*members, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || n < 0 {
			log.Fatalf("-members: %q is not a count", s)
		}
		sizes = append(sizes, n)
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		log.Fatal(err)
	}
	captures, err := caseMembers(*caseDir)
	if err != nil {
		log.Fatal(err)
	}
	texts, err := textFiles(*from)
	if err != nil {
		log.Fatal(err)
	}
	for _, n := range sizes {
		name := filepath.Join(*out, fmt.Sprintf("sos-%d.tar", n))
		start := time.Now()
		size, err := writeArchive(name, n, captures, texts)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("%s: %d unrelated members, %d captures, %d bytes (%v)\n", name, n, len(captures), size, time.Since(start).Round(time.Millisecond))
	}
}

// member is one file of the archive: its path below the report's top folder and its content.
type member struct {
	name string
	data []byte
}

// caseMembers returns the captures of a corpus case at the paths a sosreport gives them.
func caseMembers(dir string) ([]member, error) {
	var out []member
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		if caseSkip[rel] {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		out = append(out, member{sosPath(rel), b})
		return nil
	})
	if len(out) == 0 && err == nil {
		err = fmt.Errorf("%s holds no captures", dir)
	}
	return out, err
}

// sosPath is where sos puts a captured file: copied files at their path, a command's output in
// its spec's plugin folder, anything else at the top.
func sosPath(rel string) string {
	top, _, _ := strings.Cut(rel, "/")
	switch top {
	case "sys", "proc", "etc", "var":
		return rel
	}
	name := build.SpecOf(rel)
	for _, sp := range build.Specs() {
		if sp.Name == name && sp.Plugin != "" {
			return "sos_commands/" + sp.Plugin + "/" + path.Base(rel)
		}
	}
	return path.Base(rel)
}

// textFiles returns the paths of the text files below dir (at most 64 KiB each, no compressed
// or binary content), shuffled with a fixed seed: the first N of them are a sample of the whole,
// so that every size of archive has members of the same mean size.
func textFiles(dir string) ([]string, error) {
	var out []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil // unreadable folders of the machine are not ours to report
		}
		if !d.Type().IsRegular() {
			return nil
		}
		info, err := d.Info()
		if err != nil || info.Size() == 0 || info.Size() > 64<<10 {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil || source.IsBinary(b) || source.IsCompressed(b) {
			return nil
		}
		out = append(out, p)
		return nil
	})
	if len(out) == 0 && err == nil {
		err = fmt.Errorf("no text files below %s", dir)
	}
	slices.Sort(out)
	rand.New(rand.NewPCG(14, 14)).Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	return out, err
}

// writeArchive writes the tar of n unrelated members, with the captures after the first half,
// and returns its size.
func writeArchive(name string, n int, captures []member, texts []string) (int64, error) {
	f, err := os.Create(name + ".tmp")
	if err != nil {
		return 0, err
	}
	defer f.Close()
	bw := bufio.NewWriterSize(f, 1<<20)
	w := &tarWriter{tw: tar.NewWriter(bw), dirs: map[string]bool{}, top: fmt.Sprintf("sosreport-bench%d-2026-12-02-abcdefg", n)}
	w.file("version.txt", []byte("sosreport: 4.5.6\n"))
	for i := range n {
		if i == n/2 {
			for _, c := range captures {
				w.file(c.name, c.data)
			}
		}
		src := texts[i%len(texts)]
		b, err := os.ReadFile(src)
		if err != nil {
			return 0, err
		}
		dir := unrelatedDirs[i%len(unrelatedDirs)]
		w.file(fmt.Sprintf("%s/%s/%s.%d", dir, path.Base(path.Dir(src)), path.Base(src), i), b)
	}
	if n == 0 {
		for _, c := range captures {
			w.file(c.name, c.data)
		}
	}
	if w.err == nil {
		w.err = w.tw.Close()
	}
	if w.err == nil {
		w.err = bw.Flush()
	}
	if w.err != nil {
		return 0, w.err
	}
	info, err := f.Stat()
	if err != nil {
		return 0, err
	}
	return info.Size(), os.Rename(name+".tmp", name)
}

// tarWriter writes members below one top folder, each folder once before its first file, as
// sos's own tar does.
type tarWriter struct {
	tw   *tar.Writer
	top  string
	dirs map[string]bool
	err  error
}

func (w *tarWriter) dir(d string) {
	if d == "." || w.dirs[d] || w.err != nil {
		return
	}
	w.dir(path.Dir(d))
	w.dirs[d] = true
	w.err = w.tw.WriteHeader(&tar.Header{Name: w.top + "/" + d + "/", Mode: 0o755, Typeflag: tar.TypeDir, ModTime: time.Unix(1764633600, 0)})
}

func (w *tarWriter) file(name string, data []byte) {
	w.dir(".")
	if w.err == nil && !w.dirs[""] {
		w.dirs[""] = true
		w.err = w.tw.WriteHeader(&tar.Header{Name: w.top + "/", Mode: 0o755, Typeflag: tar.TypeDir, ModTime: time.Unix(1764633600, 0)})
	}
	w.dir(path.Dir(name))
	if w.err != nil {
		return
	}
	if w.err = w.tw.WriteHeader(&tar.Header{Name: w.top + "/" + name, Mode: 0o644, Size: int64(len(data)), Typeflag: tar.TypeReg, ModTime: time.Unix(1764633600, 0)}); w.err == nil {
		_, w.err = w.tw.Write(data)
	}
}
