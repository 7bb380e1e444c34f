package engine

import (
	"sort"
	"strings"

	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/internal/lazyregexp"
	"github.com/rdmadoctor/rdmadoctor/report"
)

// A fix step's `when: {vendor: Mellanox}` says the step runs a tool of that vendor's adapters
// (mlxlink, mstconfig, mstflint, mlnx_qos: NVIDIA/Mellanox's). The vendor of a finding's
// subject is known only from positive evidence in the snapshot, each kind of it below; when
// two pieces of evidence disagree, or there is none, the vendor is unknown and every step is
// kept (absence is not evidence).

// vendors are the values a fix step's `when: {vendor: ...}` may name: the adapter vendors the
// evidence below can tell apart.
var vendors = []string{"Amazon", "Broadcom", "Intel", "Mellanox", "QLogic"}

// pciVendorIDs are PCI vendor ids (lspci -nn, sysfs device/vendor without 0x), by vendor.
var pciVendorIDs = map[string]string{
	"15b3": "Mellanox", "8086": "Intel", "14e4": "Broadcom", "1077": "QLogic", "1d0f": "Amazon",
}

// pciVendorNames are how lspci names those vendors at the start of a function's description
// (pci.ids), for captures without -nn.
var pciVendorNames = map[string]string{
	"Mellanox Technologies": "Mellanox", "Intel Corporation": "Intel", "Broadcom Inc. and subsidiaries": "Broadcom",
	"Broadcom Limited": "Broadcom", "QLogic Corp.": "QLogic", "Amazon.com, Inc.": "Amazon",
}

// verbsVendorIDs are the vendor_id values drivers report to verbs (ibv_devinfo vendor_id):
// Mellanox's IEEE OUI for mlx4/mlx5, the PCI vendor id for irdma, bnxt_re, qedr and efa.
var verbsVendorIDs = map[string]string{
	facts.MellanoxVerbsVendorID: "Mellanox", "0x8086": "Intel", "0x14e4": "Broadcom", "0x1077": "QLogic", "0x1d0f": "Amazon",
}

// drivers are kernel modules (lspci "Kernel driver in use", ethtool -i driver) of one vendor's
// adapters.
var drivers = map[string]string{
	"mlx4_core": "Mellanox", "mlx4_en": "Mellanox", "mlx5_core": "Mellanox", "ib_mthca": "Mellanox",
	"ice": "Intel", "i40e": "Intel", "irdma": "Intel", "hfi1": "Intel",
	"bnxt_en": "Broadcom", "bnxt_re": "Broadcom",
	"qede": "QLogic", "qed": "QLogic", "qedr": "QLogic",
	"ena": "Amazon", "efa": "Amazon",
}

// deviceNames are the RDMA device names the drivers give (before any udev rename to
// rocep1s0f0 / ibp1s0, which say nothing of the vendor): mlx5_0, mthca0, irdma0, bnxt_re0,
// qedr0, hfi1_0, efa_0.
var deviceNames = []struct {
	re             *lazyregexp.Regexp
	vendor, driver string
}{
	{lazyregexp.New(`^mlx[45]_\d+$`), "Mellanox", "mlx4/mlx5"},
	{lazyregexp.New(`^mthca\d+$`), "Mellanox", "ib_mthca"},
	{lazyregexp.New(`^irdma\d+$`), "Intel", "irdma"},
	{lazyregexp.New(`^i40iw\d+$`), "Intel", "i40iw"},
	{lazyregexp.New(`^hfi1_\d+$`), "Intel", "hfi1"},
	{lazyregexp.New(`^bnxt_re\d+$`), "Broadcom", "bnxt_re"},
	{lazyregexp.New(`^qedr\d+$`), "QLogic", "qedr"},
	{lazyregexp.New(`^efa_\d+$`), "Amazon", "efa"},
}

// vendorClaims collects what the snapshot says of a subject's vendor: vendor -> the first
// piece of evidence for it, in words ("ibv_devinfo vendor_id 0x8086 of irdma1", "the name
// irdma0 is given by the irdma driver").
type vendorClaims map[string]string

func (c vendorClaims) add(vendor, because string) {
	if vendor != "" && c[vendor] == "" {
		c[vendor] = because
	}
}

// subjectVendor returns the vendor of the adapter a finding's subject names and the evidence,
// or "" when the snapshot has none or two vendors' (a subject that names a fabric node, or a
// device name two captures have with different evidence).
func subjectVendor(s *facts.Snapshot, sub report.Subject) (vendor, because string) {
	if s == nil || sub.NodeGUID != "" {
		return "", ""
	}
	c := vendorClaims{}
	pci := map[string]bool{}
	netdevs := map[string]bool{}
	if sub.PCI != "" {
		pci[sub.PCI] = true
	}
	if sub.Netdev != "" {
		netdevs[sub.Netdev] = true
	}
	for i := range s.Devices {
		d := &s.Devices[i]
		if (sub.Device == "" || d.Name != sub.Device) && (sub.PCI == "" || d.PCIAddress != sub.PCI) {
			continue
		}
		for _, n := range deviceNames {
			if n.re.MatchString(d.Name) {
				c.add(n.vendor, "the name "+d.Name+" is given by the "+n.driver+" driver")
			}
		}
		if v := verbsVendorIDs[d.VendorID]; v != "" {
			c.add(v, "ibv_devinfo vendor_id "+d.VendorID+" of "+d.Name)
		}
		if strings.HasPrefix(d.BoardID, "MT_") {
			c.add("Mellanox", "PSID "+d.BoardID+" of "+d.Name)
		}
		if d.PCIAddress != "" {
			pci[d.PCIAddress] = true
		}
		for _, p := range d.Ports {
			if p.Netdev != "" && (sub.Port == nil || *sub.Port == p.Number) {
				netdevs[p.Netdev] = true
			}
		}
	}
	for _, f := range s.PCI {
		if !pci[f.Address] {
			continue
		}
		if v := pciVendorIDs[f.VendorID]; v != "" {
			c.add(v, "PCI vendor id "+f.VendorID+" of "+f.Address)
		}
		for name, v := range pciVendorNames {
			if strings.HasPrefix(f.Name, name) {
				c.add(v, "lspci: "+f.Address+" "+name)
			}
		}
		if v := drivers[f.KernelDriver]; v != "" {
			c.add(v, "kernel driver "+f.KernelDriver+" of "+f.Address)
		}
	}
	for _, n := range s.Netdevs {
		if (netdevs[n.Name] || (n.BusInfo != "" && pci[n.BusInfo])) && drivers[n.Driver] != "" {
			c.add(drivers[n.Driver], "ethtool -i "+n.Name+": driver "+n.Driver)
		}
	}
	if len(c) != 1 {
		return "", ""
	}
	for v, why := range c {
		return v, why
	}
	return "", ""
}

// fleetSubjectVendor is subjectVendor for a fleet finding: the vendor of the devices its subject
// (or its hca_device var, a fabric link's host end) names on the nodes it names, from their
// summaries (the driver's device name, a MT_ PSID, a device type the Mellanox firmware tools
// printed); "" unless every piece of evidence agrees.
func fleetSubjectVendor(doc *facts.Fleet, nodes []string, sub report.Subject, vars map[string]any) (vendor, because string) {
	if doc == nil {
		return "", ""
	}
	name := sub.Device
	if dev, ok := vars["hca_device"].(string); ok && name == "" {
		name = dev
	}
	if name == "" && sub.PCI == "" {
		return "", ""
	}
	on := map[string]bool{}
	for _, n := range nodes {
		on[n] = true
	}
	c := vendorClaims{}
	for _, n := range doc.Nodes {
		if !on[n.Host] {
			continue
		}
		for _, d := range n.Devices {
			if (name == "" || d.Name != name) && (sub.PCI == "" || d.PCIAddress != sub.PCI) {
				continue
			}
			for _, dn := range deviceNames {
				if dn.re.MatchString(d.Name) {
					c.add(dn.vendor, n.Host+": the name "+d.Name+" is given by the "+dn.driver+" driver")
				}
			}
			if strings.HasPrefix(d.PSID, "MT_") {
				c.add("Mellanox", n.Host+": PSID "+d.PSID+" of "+d.Name)
			}
			if d.DeviceType != "" {
				c.add("Mellanox", n.Host+": the Mellanox firmware tools show device type "+d.DeviceType)
			}
		}
	}
	if len(c) != 1 {
		return "", ""
	}
	for v, why := range c {
		return v, why
	}
	return "", ""
}

// vendorNote is the fix step that says which steps were left out for the subject's vendor and
// that its own tools are needed for them. Its command is a shell comment made of the vendor
// names alone (vendors: nothing of the input), short enough that no table wraps it (a wrapped
// comment's continuation line would run as a command when pasted); the note names the
// evidence, which quotes the input:
//
//	$ # Mellanox steps left out: an Intel adapter
//	    # the same needs Intel's own tools; the name irdma0 is given by the irdma driver
//
// omitted are the vendors of the steps left out.
func vendorNote(vendor, because string, omitted []string) report.Fix {
	sort.Strings(omitted)
	return report.Fix{
		Command: "# " + strings.Join(omitted, " or ") + " steps left out: " + article(vendor) + " " + vendor + " adapter",
		Note:    "the same needs " + vendor + "'s own tools; " + because,
	}
}

func article(word string) string {
	if word != "" && strings.ContainsRune("AEIOU", rune(word[0])) {
		return "an"
	}
	return "a"
}
