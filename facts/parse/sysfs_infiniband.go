package parse

import (
	"fmt"
	"path"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/internal/lazyregexp"
)

// SysfsFile is one attribute of /sys/class/infiniband/<dev>, as the caller read it.
type SysfsFile struct {
	// Rel is the path below the device directory: "fw_ver", "ports/1/state",
	// "ports/1/counters/symbol_error", "ports/1/gids/0", "device/numa_node". The "device"
	// symlink itself is passed as Rel "device" with its target as Value.
	Rel string
	// Path is the file in the snapshot; it becomes the evidence path.
	Path string
	// Value is the file content.
	Value string
}

var (
	pciAddrRe = lazyregexp.New(`^[0-9a-fA-F]{4}:[0-9a-fA-F]{2}:[0-9a-fA-F]{2}\.[0-7]$`)
	hcaTypeRe = lazyregexp.New(`^MT\d{4,5}$`)
)

// SysfsDevice builds an RDMA device from its sysfs attribute files (kernel
// Documentation/ABI/stable/sysfs-class-infiniband). Values are parsed as the kernel prints them:
// state "4: ACTIVE", phys_state "5: LinkUp", rate "100 Gb/sec (4X EDR)", lid "0x3", node_guid
// "ec0d:9a03:0044:c34c", counters as decimal numbers. Every fact's evidence is the file (Line 0,
// Text = the value, Path = the file). A value that cannot be understood ("N/A (no PMA)" from a
// driver without a PMA, an unknown rate format) is left out and listed in problems as
// "path: reason"; the rest of the device is still built. All-zero GIDs and P_Keys (unused table
// entries) are skipped.
func SysfsDevice(name string, files []SysfsFile) (dev facts.Device, problems []string) {
	dev = facts.Device{Name: name}
	ports := map[int]*facts.Port{}
	gidAttrs := map[int]map[string]map[int]SysfsFile{} // port -> "types"/"ndevs" -> index -> file
	for _, f := range files {
		val := strings.TrimSpace(f.Value)
		ev := facts.Evidence{Path: f.Path, Text: val}
		if !utf8.ValidString(val) || strings.ContainsRune(val, utf8.RuneError) {
			problems = append(problems, fmt.Sprintf("%s: holds a byte that is not UTF-8: the file was damaged", f.Path))
			continue
		}
		if num, attr, ok := sysfsPortFile(f.Rel); ok {
			n, err := strconv.Atoi(num)
			if err != nil {
				problems = append(problems, fmt.Sprintf("%s: port number: %v", f.Path, err))
				continue
			}
			p := ports[n]
			if p == nil {
				p = &facts.Port{Number: n}
				ports[n] = p
			}
			if dir, idx, ok := gidAttrFile(attr); ok {
				if gidAttrs[n] == nil {
					gidAttrs[n] = map[string]map[int]SysfsFile{}
				}
				if gidAttrs[n][dir] == nil {
					gidAttrs[n][dir] = map[int]SysfsFile{}
				}
				gidAttrs[n][dir][idx] = f
				continue
			}
			if err := sysfsPortAttr(p, attr, val, ev); err != nil {
				problems = append(problems, fmt.Sprintf("%s: %v", f.Path, err))
			}
			continue
		}
		if err := sysfsDeviceAttr(&dev, f.Rel, val, ev); err != nil {
			problems = append(problems, fmt.Sprintf("%s: %v", f.Path, err))
		}
	}
	nums := make([]int, 0, len(ports))
	for n := range ports {
		nums = append(nums, n)
	}
	sort.Ints(nums)
	for _, n := range nums {
		p := ports[n]
		sysfsGIDAttrs(p, gidAttrs[n])
		sort.Slice(p.GIDs, func(i, j int) bool { return p.GIDs[i].Index < p.GIDs[j].Index })
		dev.Ports = append(dev.Ports, *p)
	}
	return dev, problems
}

// sysfsPortFile splits "ports/<num>/<attr>" (num decimal digits, attr not empty and on one line),
// the files read for every port: it runs once per file of the tree, too often for a regexp.
func sysfsPortFile(rel string) (num, attr string, ok bool) {
	rest, ok := strings.CutPrefix(rel, "ports/")
	if !ok {
		return "", "", false
	}
	num, attr, ok = strings.Cut(rest, "/")
	if !ok || num == "" || strings.Trim(num, "0123456789") != "" || attr == "" || strings.Contains(attr, "\n") {
		return "", "", false
	}
	return num, attr, true
}

func sysfsDeviceAttr(d *facts.Device, rel, val string, ev facts.Evidence) error {
	switch rel {
	case "hca_type":
		// mlx4/mlx5 write "MT" and the decimal PCI device id (4 or 5 digits); a shorter or empty
		// value was cut, and a wrong one would make a VF read as a PF or the other way round.
		if (val == "" || strings.HasPrefix(val, "M")) && !hcaTypeRe.MatchString(val) {
			return fmt.Errorf("hca_type %q: not MT and a PCI device id", val)
		}
		d.CAType = val
		d.Evidence.Set("ca_type", ev)
	case "fw_ver":
		if !firmwareVersion(val) {
			return fmt.Errorf("fw_ver %q: not a version", val)
		}
		d.Firmware = val
		d.Evidence.Set("firmware", ev)
	case "board_id":
		d.BoardID = val
		d.Evidence.Set("board_id", ev)
	case "hw_rev":
		d.HardwareVersion = val
		d.Evidence.Set("hw_version", ev)
	case "node_guid", "sys_image_guid":
		g, ok := GUID(val)
		if !ok {
			return fmt.Errorf("%q is not a GUID", val)
		}
		if rel == "node_guid" {
			d.NodeGUID = g
			d.Evidence.Set("node_guid", ev)
		} else {
			d.SystemImageGUID = g
			d.Evidence.Set("sys_image_guid", ev)
		}
	case "device/numa_node":
		n, err := strconv.Atoi(val)
		if err != nil {
			return fmt.Errorf("%q is not a NUMA node", val)
		}
		d.NUMANode = intPtr(n)
		d.Evidence.Set("numa_node", ev)
	case "device/local_cpulist":
		cpus, err := CPUList(val)
		if err != nil {
			return err
		}
		d.LocalCPUList, d.LocalCPUs = val, cpus
		d.Evidence.Set("local_cpulist", ev)
	case "device":
		// The symlink points at the PCI function, e.g. "../../../0000:81:00.0".
		if a := path.Base(val); pciAddrRe.MatchString(a) {
			d.PCIAddress = strings.ToLower(a)
			d.Evidence.Set("pci_address", ev)
		}
	case "device/uevent":
		for _, line := range strings.Split(val, "\n") {
			if a, ok := strings.CutPrefix(strings.TrimSpace(line), "PCI_SLOT_NAME="); ok && pciAddrRe.MatchString(a) && d.PCIAddress == "" {
				d.PCIAddress = strings.ToLower(a)
				d.Evidence.Set("pci_address", facts.Evidence{Path: ev.Path, Text: line})
			}
			// "PCI_ID=15B3:1016": a Mellanox function's CA type is MT and its decimal device id
			// (hca_type, when read, says the same and wins), so a VF is known without lspci.
			if id, ok := strings.CutPrefix(strings.TrimSpace(line), "PCI_ID=15B3:"); ok && d.CAType == "" {
				if n, err := strconv.ParseUint(id, 16, 16); err == nil {
					d.CAType = "MT" + strconv.FormatUint(n, 10)
					d.Evidence.Set("ca_type", facts.Evidence{Path: ev.Path, Text: strings.TrimSpace(line)})
				}
			}
		}
	}
	return nil
}

func sysfsPortAttr(p *facts.Port, attr, val string, ev facts.Evidence) error {
	switch {
	case attr == "state":
		s, ok := PortState(val)
		if !ok {
			return fmt.Errorf("unknown port state %q", val)
		}
		p.State = s
		p.Evidence.Set("state", ev)
	case attr == "phys_state":
		// "0: <unknown>" (paravirtual devices) is a known value meaning "not reported".
		if s, ok := PhysicalState(val); ok {
			p.PhysicalState = s
			p.Evidence.Set("physical_state", ev)
		} else if !strings.HasPrefix(val, "0:") {
			return fmt.Errorf("unknown physical state %q", val)
		}
	case attr == "rate":
		r, err := SysfsRate(val)
		if err != nil {
			return err
		}
		setRate(p, r, ev)
	case attr == "link_layer":
		// The kernel writes "InfiniBand" or "Ethernet" (sysfs.c show_port_link_layer, from
		// rdma_port_get_link_layer); anything else, empty included, is a damaged file.
		if !knownLinkLayer(val) {
			return fmt.Errorf("link_layer %q: not InfiniBand or Ethernet", val)
		}
		p.LinkLayer = val
		p.Evidence.Set("link_layer", ev)
	case attr == "lid" || attr == "sm_lid" || attr == "lmc":
		n, ok := hexOrDecimal(val)
		if !ok {
			return fmt.Errorf("%q is not a number", val)
		}
		switch attr {
		case "lid":
			p.LID = intPtr(n)
			p.Evidence.Set("lid", ev)
		case "sm_lid":
			p.SMLID = intPtr(n)
			p.Evidence.Set("sm_lid", ev)
		default:
			p.LMC = intPtr(n)
			p.Evidence.Set("lmc", ev)
		}
	case attr == "cap_mask":
		if _, ok := SMDisabled(val); !ok {
			return fmt.Errorf("%q is not a capability mask", val)
		}
		setCapMask(p, val, ev)
	case strings.HasPrefix(attr, "gids/"):
		idx, err := strconv.Atoi(strings.TrimPrefix(attr, "gids/"))
		if err != nil {
			return fmt.Errorf("GID index: %v", err)
		}
		if strings.Count(val, ":") != 7 {
			return fmt.Errorf("%q is not a GID", val)
		}
		if gidIsZero(val) {
			return nil
		}
		p.GIDs = append(p.GIDs, facts.GID{Index: idx, GID: val, IPv4: gidIPv4(val), Evidence: ev})
		if idx == 0 {
			p.SubnetPrefix = subnetPrefix(val)
			p.Evidence.Set("subnet_prefix", ev)
		}
	case strings.HasPrefix(attr, "pkeys/"):
		if v, err := strconv.ParseUint(strings.TrimPrefix(val, "0x"), 16, 16); err != nil {
			return fmt.Errorf("%q is not a P_Key", val)
		} else if v != 0 {
			p.PKeys = append(p.PKeys, val)
			p.Evidence.Set("pkeys", ev)
		}
	case strings.HasPrefix(attr, "counters/") || strings.HasPrefix(attr, "hw_counters/"):
		dir, name, _ := strings.Cut(attr, "/")
		v, err := strconv.ParseUint(val, 10, 64)
		if err != nil {
			return fmt.Errorf("counter value %q", val)
		}
		n := int64(min(v, 1<<63-1))
		if dir == "counters" {
			if p.Counters == nil {
				p.Counters = map[string]int64{}
			}
			p.Counters[name] = n
		} else {
			if p.HWCounters == nil {
				p.HWCounters = map[string]int64{}
			}
			p.HWCounters[name] = n
		}
		p.Evidence.Set(dir+"."+name, ev)
	}
	return nil
}

// gidAttrFile recognises "gid_attrs/types/N" and "gid_attrs/ndevs/N".
func gidAttrFile(attr string) (dir string, idx int, ok bool) {
	rest, ok := strings.CutPrefix(attr, "gid_attrs/")
	if !ok {
		return "", 0, false
	}
	dir, num, ok := strings.Cut(rest, "/")
	if !ok || (dir != "types" && dir != "ndevs") {
		return "", 0, false
	}
	idx, err := strconv.Atoi(num)
	if err != nil {
		return "", 0, false
	}
	return dir, idx, true
}

// sysfsGIDAttrs adds type and netdev to the port's GIDs. The kernel's "IB/RoCE v1" means IB on
// an InfiniBand port and RoCE v1 on an Ethernet one. GID 0's netdev is the port's netdev.
func sysfsGIDAttrs(p *facts.Port, attrs map[string]map[int]SysfsFile) {
	for i := range p.GIDs {
		g := &p.GIDs[i]
		if f, ok := attrs["types"][g.Index]; ok {
			switch t := strings.TrimSpace(f.Value); {
			case t == "RoCE v2":
				g.Type = "RoCE v2"
			case t == "IB/RoCE v1" && p.LinkLayer == "InfiniBand":
				g.Type = "IB"
			case t == "IB/RoCE v1" && p.LinkLayer == "Ethernet":
				g.Type = "RoCE v1"
			}
		}
		if f, ok := attrs["ndevs"][g.Index]; ok {
			g.Netdev = strings.TrimSpace(f.Value)
			if g.Index == 0 && g.Netdev != "" {
				p.Netdev = g.Netdev
				p.Evidence.Set("netdev", facts.Evidence{Path: f.Path, Text: g.Netdev})
			}
		}
	}
}

func gidIsZero(gid string) bool {
	return strings.Trim(gid, "0:") == ""
}
