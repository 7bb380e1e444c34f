package rdmadoctor.lib.version_test

import data.rdmadoctor.lib.version

test_numeric_comparison if {
	version.less("2.9.1000", "2.10.0")
	version.less("28.40.1000", "28.43.1014")
	not version.less("20.43.2566", "20.39.0000")
}

test_unparsable_is_never_less if {
	not version.less("n/a", "1.0")
}
