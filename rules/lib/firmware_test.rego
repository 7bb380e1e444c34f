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

test_unknown_version_says_why if {
	blank := {"firmware": "", "evidence": {"firmware": {"source": "ibstat", "path": "ibstat", "line": 4, "text": "\tFirmware version: "}}}
	firmware.unknown_version(blank, "firmware") == "its running firmware version is unknown (empty in the capture)"
	startswith(firmware.unknown_version({"name": "mlx5_0"}, "firmware"), "its running firmware version is unknown (no input gives it")
	firmware.unknown_version({"version": "xx.xx.xxxx"}, "version") == `its running firmware version "xx.xx.xxxx" is no version (masked or damaged)`
}
