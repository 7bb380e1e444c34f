# METADATA
# title: Loaded kernel modules
# description: >-
#   Reads lsmod facts: a module counts as loaded when lsmod lists it or names it among another
#   module's users (a `lsmod | grep x` excerpt shows ib_uverbs only in ib_core's "Used by"
#   column). A module is known to be absent only when lsmod was captured whole, or filtered by a
#   pattern the module's name contains (`lsmod | grep ib_` does not list mlx5_core); an empty
#   filtered capture (`lsmod | grep nvidia_peermem` printing nothing) proves the absence of what
#   its filter covers. Filters of several captures are joined with "|".
# scope: package
package rdmadoctor.lib.modules

loaded(name) if {
	some m in input.host.modules
	m.name == name
}

loaded(name) if {
	some m in input.host.modules
	name in object.get(m, "used_by", [])
}

# absent holds when lsmod was captured and would have listed name, but does not.
absent(name) if {
	is_array(input.host.modules)
	listed_or_filtered
	covers(name)
	not loaded(name)
}

listed_or_filtered if count(input.host.modules) > 0

listed_or_filtered if object.get(input.host, "modules_filter", "") != ""

covers(_) if object.get(input.host, "modules_filter", "") == ""

covers(name) if {
	some part in split(object.get(input.host, "modules_filter", ""), "|")
	part != ""
	contains(name, part)
}

# evidence is the lsmod evidence the host records (the capture as a whole).
evidence := [e | e := input.host.evidence.modules]
