# METADATA
# title: PCIe bandwidth
# description: >-
#   Usable PCIe bandwidth per lane in Gb/s after line coding, as the kernel prints it in "available
#   PCIe bandwidth" (drivers/pci/pci.h PCIE_SPEED2MBS_ENC; rule-catalog §3.4), and what is left of
#   it for data once every 256-byte write TLP carries 24 bytes of framing, sequence number, 4DW
#   header and LCRC (payload / (payload + overhead): Intel AN 855 "Throughput for Posted Writes",
#   https://intel.com/content/www/us/en/docs/programmable/683504/current/throughput-for-posted-writes.html,
#   which gives 256/(256+20) for a 3DW header; DMA to 64-bit host addresses uses 4DW).
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

# tlp_efficiency is the share of a link's coded bandwidth that carries payload when DMA writes
# go as 256-byte MaxPayload TLPs with 24 bytes of overhead each (Gen1/2: STP 1 + sequence 2 +
# 4DW header 16 + LCRC 4 + END 1; Gen3-5: STP token 4 + header 16 + LCRC 4): 256/280 = 0.914.
# A MaxPayload of 128 bytes leaves less (0.84); DLLP acks and flow control take a little more.
tlp_efficiency := 256 / (256 + 24)

# usable_gbps is what a LnkSta/LnkCap record leaves for data: coded bandwidth x TLP efficiency,
# e.g. 8 GT/s x8 = 63.0 Gb/s coded, about 57.6 Gb/s of payload.
usable_gbps(link) := bandwidth(link) * tlp_efficiency

# gen returns the PCIe generation of an mlxlink speed such as "2.5G-Gen 1" or "16G-Gen 4".
gen(s) := to_number(m[0][1]) if {
	m := regex.find_all_string_submatch_n(`Gen ?([0-9]+)`, s, 1)
	count(m) == 1
}
