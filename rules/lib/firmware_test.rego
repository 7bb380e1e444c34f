package rdmadoctor.lib.firmware_test

import data.rdmadoctor.lib.firmware
import data.rdmadoctor.lib.hca
import data.rdmadoctor.lib.version

test_minimum_never_above_reference if {
	every t, min in firmware.minimum {
		not version.less(firmware.reference[t], min)
	}
}

test_every_type_is_known if {
	every t, _ in firmware.minimum {
		hca.ca_types[t]
	}
}
