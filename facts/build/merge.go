package build

import (
	"path"
	"reflect"
	"strings"

	"github.com/rdmadoctor/rdmadoctor/facts"
)

var portsType = reflect.TypeOf([]facts.Port(nil))

// fill copies into dst every fact that dst lacks and src has: nil pointers, empty strings, empty
// slices and missing map keys. Facts already in dst win, so specs applied first (lower Priority)
// take precedence. Ports are merged by number.
func fill(dst, src reflect.Value) {
	switch dst.Kind() {
	case reflect.Pointer:
		if src.IsNil() {
			return
		}
		if dst.IsNil() {
			dst.Set(src)
			return
		}
		if dst.Elem().Kind() == reflect.Struct {
			fill(dst.Elem(), src.Elem())
		}
	case reflect.Struct:
		for i := 0; i < dst.NumField(); i++ {
			if dst.Type().Field(i).IsExported() {
				fill(dst.Field(i), src.Field(i))
			}
		}
	case reflect.Slice:
		if dst.Type() == portsType {
			dst.Set(reflect.ValueOf(mergePorts(dst.Interface().([]facts.Port), src.Interface().([]facts.Port))))
			return
		}
		if dst.Len() == 0 && src.Len() > 0 {
			dst.Set(src)
		}
	case reflect.Map:
		if src.Len() == 0 {
			return
		}
		if dst.IsNil() {
			dst.Set(reflect.MakeMapWithSize(dst.Type(), src.Len()))
		}
		for _, k := range src.MapKeys() {
			if !dst.MapIndex(k).IsValid() {
				dst.SetMapIndex(k, src.MapIndex(k))
			}
		}
	default:
		if dst.IsZero() && !src.IsZero() {
			dst.Set(src)
		}
	}
}

func mergePorts(dst, src []facts.Port) []facts.Port {
	for _, p := range src {
		found := false
		for i := range dst {
			if dst[i].Number == p.Number {
				fill(reflect.ValueOf(&dst[i]).Elem(), reflect.ValueOf(p))
				found = true
				break
			}
		}
		if !found {
			dst = append(dst, p)
		}
	}
	return dst
}

// captureLabel names a second capture of the same command: its "__label", else its arguments,
// else its capture folder ("after" for after/ibstat), else the file name.
func captureLabel(in Input) string {
	if in.Label != "" {
		return in.Label
	}
	if in.Args != "" {
		return in.Args
	}
	if f := hostFolder(in); f != "." {
		return f
	}
	return path.Base(in.Path)
}

// addDevice merges d into s by device name. When the same spec already gave a device of that name
// from another file (two nodes, or before and after), d is kept apart with Capture set.
func addDevice(s *facts.Snapshot, in Input, d facts.Device) {
	stamp(&d, in.Spec, in.Path)
	for i := range s.Devices {
		e := &s.Devices[i]
		if e.Name != d.Name {
			continue
		}
		if otherCapture(e, in) {
			continue
		}
		fill(reflect.ValueOf(e).Elem(), reflect.ValueOf(d))
		return
	}
	if n := countDevices(s, d.Name); n > 0 {
		d.Capture = captureLabel(in)
	}
	s.Devices = append(s.Devices, d)
}

// otherCapture reports whether e already holds facts from another capture than in: in's spec
// read from another file (a second capture of the same command: another node, or before and
// after), or any spec a file in another capture folder (before/ibstat vs after/ibstatus; folders
// of different hosts are refused before, by oneHost). Such captures stay apart. "__label"s in one
// folder do not: ibdev2netdev__after_vfs completes ibstat__active_later (corpus 112). Looking at every fact's
// evidence, not only the name's, keeps captures apart even when another spec (sysfs, applied
// first) created the device.
func otherCapture(e *facts.Device, in Input) bool {
	folder := hostFolder(in)
	from := func(m facts.EvidenceMap) bool {
		for _, ev := range m {
			if ev.Path == "" || ev.Path == in.Path {
				continue
			}
			if ev.Source == in.Spec || folderOf(ev.Path) != folder {
				return true
			}
		}
		return false
	}
	if from(e.Evidence) {
		return true
	}
	for _, p := range e.Ports {
		if from(p.Evidence) {
			return true
		}
	}
	return false
}

// addDevices merges devs from one file; a device name in the file name (the argument of
// "ibstat mlx5_7") is dropped from in first so it does not label the capture. It returns in as
// adjusted, for messages about the same file. What a parser returned before a bad line is kept.
func addDevices(s *facts.Snapshot, in Input, devs []facts.Device) Input {
	in = deviceArgs(in, devs)
	for _, d := range devs {
		addDevice(s, in, d)
	}
	return in
}

func countDevices(s *facts.Snapshot, name string) int {
	n := 0
	for _, d := range s.Devices {
		if d.Name == name {
			n++
		}
	}
	return n
}

// addNetdev merges n into s by interface name.
func addNetdev(s *facts.Snapshot, in Input, n facts.Netdev) {
	// n is stamped where it ends up: stamp(&n) would move every n, merged or not, to the heap.
	for i := range s.Netdevs {
		if s.Netdevs[i].Name == n.Name {
			src := new(facts.Netdev)
			*src = n
			stamp(src, in.Spec, in.Path)
			fill(reflect.ValueOf(&s.Netdevs[i]).Elem(), reflect.ValueOf(src).Elem())
			return
		}
	}
	s.Netdevs = append(s.Netdevs, n)
	stamp(&s.Netdevs[len(s.Netdevs)-1], in.Spec, in.Path)
}

// addPCI merges f into s by PCI address (with domain).
func addPCI(s *facts.Snapshot, in Input, f facts.PCIFunction) {
	stamp(&f, in.Spec, in.Path)
	f.Address = NormalizeBDF(f.Address)
	for i := range s.PCI {
		if s.PCI[i].Address == f.Address {
			filter := mergeFilters(s.PCI[i].Filter, f.Filter)
			fill(reflect.ValueOf(&s.PCI[i]).Elem(), reflect.ValueOf(f))
			s.PCI[i].Filter = filter
			return
		}
	}
	s.PCI = append(s.PCI, f)
}

// mergeFilters is the Filter of a record read from two captures with filters a and b: whole
// ("") when either is, else the lines either could show.
func mergeFilters(a, b string) string {
	switch {
	case a == "" || b == "":
		return ""
	case a == b:
		return a
	}
	return a + "|" + b
}

// addIRQ merges q into s by IRQ number.
func addIRQ(s *facts.Snapshot, in Input, q facts.IRQ) {
	stamp(&q, in.Spec, in.Path)
	for i := range s.IRQs {
		if s.IRQs[i].Number == q.Number {
			fill(reflect.ValueOf(&s.IRQs[i]).Elem(), reflect.ValueOf(q))
			return
		}
	}
	s.IRQs = append(s.IRQs, q)
}

// mergeHost fills s.Host from h; kernel events and modules are appended.
func mergeHost(s *facts.Snapshot, in Input, h facts.Host) {
	stamp(&h, in.Spec, in.Path)
	s.Host.KernelEvents = append(s.Host.KernelEvents, h.KernelEvents...)
	s.Host.Userspace = append(s.Host.Userspace, h.Userspace...)
	s.Host.NCCLNetdevs = append(s.Host.NCCLNetdevs, h.NCCLNetdevs...)
	h.KernelEvents, h.Userspace, h.NCCLNetdevs = nil, nil, nil
	fill(reflect.ValueOf(&s.Host).Elem(), reflect.ValueOf(h))
}

// NormalizeBDF returns a PCI address with its domain: "81:00.0" -> "0000:81:00.0". Sos-mangled
// forms ("0000_81_00.0", "81_00.0") are accepted. Anything else is returned unchanged.
func NormalizeBDF(a string) string {
	a = strings.TrimSpace(strings.ToLower(a))
	a = strings.TrimPrefix(a, "pci/")
	if strings.Count(a, "_") >= 1 && !strings.Contains(a, ":") {
		a = strings.ReplaceAll(a, "_", ":")
	}
	if bdfRe.MatchString(a) {
		return "0000:" + a
	}
	return a
}
