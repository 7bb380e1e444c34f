# METADATA
# title: CPU lists
# description: >-
#   Expands kernel CPU list strings ("0-7,16-23", the format of local_cpulist and
#   smp_affinity_list, Documentation/admin-guide/cputopology.rst) into sets of CPU numbers.
# scope: package
package rdmadoctor.lib.cpus

expand(list) := {c |
	some part in split(trim_space(list), ",")
	part != ""
	some c in range_of(part)
}

range_of(part) := numbers.range(to_number(b[0]), to_number(b[1])) if {
	b := split(part, "-")
	count(b) == 2
} else := [to_number(part)]

# affinity returns the CPUs an IRQ may run on: the effective affinity when recorded, else the
# configured one; undefined when neither is known.
affinity(irq) := {c | some c in irq.effective_affinity} if {
	count(object.get(irq, "effective_affinity", [])) > 0
} else := {c | some c in irq.smp_affinity} if {
	count(object.get(irq, "smp_affinity", [])) > 0
} else := expand(irq.smp_affinity_list) if {
	object.get(irq, "smp_affinity_list", "") != ""
}
