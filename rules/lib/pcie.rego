# METADATA
# title: PCIe bandwidth
# description: >-
#   Usable PCIe bandwidth per lane in Gb/s after line coding, as the kernel prints it in "available
#   PCIe bandwidth" (drivers/pci/pci.h PCIE_SPEED2MBS_ENC; rule-catalog §3.4).
# scope: package
package rdmadoctor.lib.pcie

lane_gbps := {
	2.5: 2,
	5: 4,
	8: 7.876,
	16: 15.753,
	32: 31.507,
	64: 64,
}

# bandwidth returns the usable bandwidth of a LnkSta/LnkCap record in Gb/s; undefined when the
# speed or width is unknown.
bandwidth(link) := link.bandwidth_gbps if {
	link.bandwidth_gbps > 0
} else := b if {
	link.width > 0
	b := lane_gbps[link.speed_gts] * link.width
}

# gen returns the PCIe generation of an mlxlink speed such as "2.5G-Gen 1" or "16G-Gen 4".
gen(s) := to_number(m[0][1]) if {
	m := regex.find_all_string_submatch_n(`Gen ?([0-9]+)`, s, 1)
	count(m) == 1
}
