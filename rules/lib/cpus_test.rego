package rdmadoctor.lib.cpus_test

import data.rdmadoctor.lib.cpus

test_expand_ranges_and_singles if {
	cpus.expand("0-3,8,10-11") == {0, 1, 2, 3, 8, 10, 11}
}

test_affinity_prefers_effective if {
	cpus.affinity({"smp_affinity": [0, 1], "effective_affinity": [1]}) == {1}
	cpus.affinity({"smp_affinity_list": "4-5"}) == {4, 5}
}

test_affinity_undefined_when_unknown if {
	not cpus.affinity({"number": 99})
}
