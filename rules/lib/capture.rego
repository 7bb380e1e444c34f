# METADATA
# title: What a filtered capture could show
# description: >-
#   Reads the `filter` of lspci functions and mstconfig/mlxconfig queries (facts/pci.go,
#   facts/mellanox.go): a record read from a filtered capture (`lspci -vvv | grep LnkSta`,
#   `mlxconfig -d X q | grep SRIOV`, a headerless excerpt) holds only the lines its filter let
#   through, so a line it lacks is known to be absent only when the filter would have shown it.
#   The filter is a regular expression over lspci's line text, or over the parameter's name.
# scope: package
package rdmadoctor.lib.capture

# shows(obj, text): the capture obj was read from would have shown a line (lspci) or a
# parameter name (mstconfig) like text: it was whole, or its filter matches text.
shows(obj, _) if object.get(obj, "filter", "") == ""

shows(obj, text) if {
	f := object.get(obj, "filter", "")
	f != ""
	regex.match(f, text)
}
