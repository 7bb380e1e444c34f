# METADATA
# title: Loaded kernel modules
# description: >-
#   Reads lsmod facts: a module counts as loaded when lsmod lists it or names it among another
#   module's users (a `lsmod | grep x` excerpt shows ib_uverbs only in ib_core's "Used by"
#   column). A module is known to be absent only when lsmod was captured whole, or filtered by a
#   pattern the module's name contains (`lsmod | grep ib_` does not list mlx5_core).
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
	count(input.host.modules) > 0
	covers(name)
	not loaded(name)
}

covers(_) if object.get(input.host, "modules_filter", "") == ""

covers(name) if {
	f := object.get(input.host, "modules_filter", "")
	f != ""
	contains(name, f)
}

# evidence is the lsmod evidence the host records (the capture as a whole).
evidence := [e | e := input.host.evidence.modules]
