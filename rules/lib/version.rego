# METADATA
# title: Firmware versions
# description: Compares dotted firmware versions ("12.28.2040", "2.3.000") numerically.
# scope: package
package rdmadoctor.lib.version

# parts returns the numeric parts of a version; undefined when a part is not a number.
parts(v) := [to_number(x) | some x in split(trim_space(v), ".")] if {
	regex.match(`^[0-9]+(\.[0-9]+)*$`, trim_space(v))
}

# less holds when version a is older than version b (same number of parts compared in order).
less(a, b) if parts(a) < parts(b)

major(v) := parts(v)[0]
