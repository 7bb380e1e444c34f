package build

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/facts/parse"
)

const sysfsIBRoot = "sys/class/infiniband"

func init() {
	register(Spec{
		Name:        "sysfs_infiniband",
		Tree:        readSysfsInfiniband,
		Root:        sysfsIBRoot,
		Priority:    10,
		MissingHint: "sos does not copy /sys/class/infiniband; rdmadoctor gather does",
		Groups:      []string{"rdma_devices", "ib_ports", "gids", "port_counters", "hw_counters"},
	})
}

// sysfsDeviceFiles are the attributes read from the device directory itself and from its
// PCI function (device/); other files there are not ours.
var sysfsDeviceFiles = map[string]bool{
	"hca_type": true, "fw_ver": true, "board_id": true, "hw_rev": true, "node_guid": true,
	"sys_image_guid": true, "device/numa_node": true, "device/local_cpulist": true, "device/uevent": true,
}

// sysfsPortFiles are the single-value attributes of ports/N/.
var sysfsPortFiles = map[string]bool{
	"state": true, "phys_state": true, "rate": true, "link_layer": true, "lid": true,
	"sm_lid": true, "lmc": true, "cap_mask": true,
}

// sysfsPortDirs are the ports/N/ directories whose every file is an attribute.
var sysfsPortDirs = map[string]bool{"gids": true, "pkeys": true, "counters": true, "hw_counters": true}

// readSysfsInfiniband reads /sys/class/infiniband/<dev>/ for every device and returns one source
// per device. A file that cannot be read or understood (EINVAL on a counter, permission denied,
// "N/A (no PMA)") is listed in that source's error; the rest of the device is kept.
func readSysfsInfiniband(s *facts.Snapshot, fsys fs.FS) []facts.Source {
	entries, err := fs.ReadDir(fsys, sysfsIBRoot)
	if err != nil {
		return []facts.Source{{Name: "sysfs_infiniband", Origin: sysfsIBRoot, Status: facts.StatusError, Error: err.Error()}}
	}
	var out []facts.Source
	for _, e := range entries {
		dir := path.Join(sysfsIBRoot, e.Name())
		files, problems := readSysfsDevice(fsys, dir)
		d, bad := parse.SysfsDevice(e.Name(), files)
		problems = append(problems, bad...)
		d.Evidence.Set("name", facts.Evidence{Path: dir, Text: e.Name()})
		setEvidenceSource(&d, "sysfs_infiniband")
		addDevice(s, Input{Spec: "sysfs_infiniband", Path: dir}, d)
		src := facts.Source{Name: "sysfs_infiniband", Origin: dir, Status: facts.StatusOK, RecognisedBy: "path"}
		switch {
		case len(problems) > 0 && len(files) > len(bad):
			// Read in part: one attribute that cannot be read or parsed (an empty file that
			// `cp -r` of sysfs leaves for a read that failed) takes that value, not the device.
			src.Status, src.Error = facts.StatusPartial, facts.Clip(fmt.Sprintf("%d attribute file(s) not read, the rest of the device is: %s", len(problems), strings.Join(problems, "; ")), facts.MaxMessageBytes)
		case len(problems) > 0:
			src.Status, src.Error = facts.StatusError, facts.Clip("unreadable: "+strings.Join(problems, "; "), facts.MaxMessageBytes)
		}
		out = append(out, src)
	}
	return out
}

// readSysfsDevice reads the attribute files of one device directory. Files that do not exist are
// skipped; other read errors are returned as problems.
func readSysfsDevice(fsys fs.FS, dir string) (files []parse.SysfsFile, problems []string) {
	var rels []string
	err := fs.WalkDir(fsys, dir, func(p string, d fs.DirEntry, err error) error {
		rel := strings.TrimPrefix(strings.TrimPrefix(p, dir), "/")
		if err != nil {
			problems = append(problems, err.Error())
			if d != nil && d.IsDir() && p != dir {
				return fs.SkipDir
			}
			return nil
		}
		if d.IsDir() {
			if sysfsDirWanted(rel) {
				return nil
			}
			return fs.SkipDir
		}
		if rel == "device" && d.Type()&fs.ModeSymlink != 0 {
			if target, err := fs.ReadLink(fsys, p); err == nil {
				files = append(files, parse.SysfsFile{Rel: "device", Path: p, Value: target})
			}
			// Through the link, device/* is the PCI function's directory.
			for f := range sysfsDeviceFiles {
				if strings.HasPrefix(f, "device/") {
					rels = append(rels, f)
				}
			}
			return nil
		}
		if sysfsWanted(rel) {
			rels = append(rels, rel)
		}
		return nil
	})
	if err != nil {
		problems = append(problems, err.Error())
	}
	sort.Strings(rels)
	// GID attributes exist for every table entry but only non-zero GIDs have them (reading the
	// others fails with EINVAL), so they are read after the GIDs.
	nonZero := map[string]bool{}
	var attrs []string
	files = slices.Grow(files, len(rels))
	for _, rel := range rels {
		if strings.Contains(rel, "/gid_attrs/") {
			attrs = append(attrs, rel)
			continue
		}
		f, ok, problem := readSysfsFile(fsys, dir, rel)
		if problem != "" {
			problems = append(problems, problem)
		}
		if !ok {
			continue
		}
		files = append(files, f)
		if strings.Contains(rel, "/gids/") && strings.Trim(strings.TrimSpace(f.Value), "0:") != "" {
			nonZero[rel] = true
		}
	}
	for _, rel := range attrs {
		// ports/1/gid_attrs/types/3 belongs to ports/1/gids/3.
		port, rest, _ := strings.Cut(rel, "/gid_attrs/")
		_, idx, _ := strings.Cut(rest, "/")
		if !nonZero[port+"/gids/"+idx] {
			continue
		}
		f, ok, problem := readSysfsFile(fsys, dir, rel)
		if problem != "" {
			problems = append(problems, problem)
		}
		if ok {
			files = append(files, f)
		}
	}
	return files, problems
}

func readSysfsFile(fsys fs.FS, dir, rel string) (f parse.SysfsFile, ok bool, problem string) {
	p := dir + "/" + rel // both clean, as path.Join would make them
	b, err := fs.ReadFile(fsys, p)
	if errors.Is(err, fs.ErrNotExist) {
		return f, false, ""
	}
	if err != nil {
		return f, false, p + ": " + err.Error()
	}
	// tar pads a file that shrank while it was archived (a sysfs attribute is 4096 bytes to
	// stat) with NUL bytes, which no sysfs value holds.
	return parse.SysfsFile{Rel: rel, Path: p, Value: string(bytes.TrimRight(b, "\x00"))}, true, ""
}

// sysfsWanted reports whether rel (below the device directory) is an attribute we read.
func sysfsWanted(rel string) bool {
	if sysfsDeviceFiles[rel] {
		return true
	}
	parts := strings.Split(rel, "/")
	if len(parts) < 3 || parts[0] != "ports" {
		return false
	}
	switch {
	case len(parts) == 3:
		return sysfsPortFiles[parts[2]]
	case len(parts) == 4:
		return sysfsPortDirs[parts[2]]
	case len(parts) == 5:
		return parts[2] == "gid_attrs" && (parts[3] == "types" || parts[3] == "ndevs")
	}
	return false
}

// sysfsDirWanted reports whether the directory rel may hold attributes we read.
func sysfsDirWanted(rel string) bool {
	if rel == "" || rel == "device" || rel == "ports" {
		return true
	}
	parts := strings.Split(rel, "/")
	switch {
	case parts[0] != "ports":
		return false
	case len(parts) == 2:
		return true
	case len(parts) == 3:
		return sysfsPortDirs[parts[2]] || parts[2] == "gid_attrs"
	case len(parts) == 4:
		return parts[2] == "gid_attrs" && (parts[3] == "types" || parts[3] == "ndevs")
	}
	return false
}

// setEvidenceSource names the spec on evidence that already carries its own file path (the
// builder's stamp only fills evidence without one).
func setEvidenceSource(d *facts.Device, src string) {
	set := func(m facts.EvidenceMap) {
		for k, ev := range m {
			if ev.Source == "" {
				ev.Source = src
				m[k] = ev
			}
		}
	}
	set(d.Evidence)
	for i := range d.Ports {
		set(d.Ports[i].Evidence)
		for j := range d.Ports[i].GIDs {
			if d.Ports[i].GIDs[j].Evidence.Source == "" {
				d.Ports[i].GIDs[j].Evidence.Source = src
			}
		}
	}
}
