# METADATA
# title: Firmware reference versions
# description: >-
#   Oldest firmware per CA type that rdmadoctor accepts without comment. For current ConnectX
#   generations it is the reference bundle of DOCA 2.9.2 / MLNX_OFED 24.10 LTS minus four minor
#   releases (about one year), rule-catalog §4.32: CX-7 28.43.2566, CX-6 20.43.2566, CX-6 Dx
#   22.43.2566, CX-6 Lx 26.43.2566, CX-5 16.35.4030, CX-4 Lx 14.32.1900, CX-4 12.28.2302
#   (https://docs.nvidia.com/doca/archive/2-9-2/General+Support). ConnectX-3/-3 Pro are end of life
#   at 2.42.5000, their last release (MLNX_OFED release notes). The first-generation ConnectX IB
#   (MT25418) needs at least 2.6.000 (Mellanox engineer on the Open MPI list,
#   https://www.open-mpi.org/community/lists/users/2009/03/8341.php).
# scope: package
package rdmadoctor.lib.firmware

minimum := {
	"MT25418": "2.6.000",
	"MT4099": "2.42.5000",
	"MT4103": "2.42.5000",
	"MT4115": "12.24.0000",
	"MT4117": "14.28.0000",
	"MT4119": "16.31.0000",
	"MT4121": "16.31.0000",
	"MT4123": "20.39.0000",
	"MT4125": "22.39.0000",
	"MT4127": "26.39.0000",
	"MT4129": "28.39.0000",
}

# reference is the bundle version the minimum is derived from, for messages.
reference := {
	"MT25418": "2.6.000",
	"MT4099": "2.42.5000",
	"MT4103": "2.42.5000",
	"MT4115": "12.28.2302",
	"MT4117": "14.32.1900",
	"MT4119": "16.35.4030",
	"MT4121": "16.35.4030",
	"MT4123": "20.43.2566",
	"MT4125": "22.43.2566",
	"MT4127": "26.43.2566",
	"MT4129": "28.43.2566",
}

# unknown_version says why the running firmware version in obj's field (a device's
# "firmware", a firmware query's "version") is no version: left empty by the input that has
# the line (an empty sysfs fw_ver, a blank "Firmware version:"), given by no input at all, or
# masked or damaged ("xx.xx.xxxx"). For finding.not_judged.
unknown_version(obj, field) := "its running firmware version is unknown (empty in the capture)" if {
	trim_space(object.get(obj, field, "")) == ""
	object.get(object.get(obj, "evidence", {}), field, null) != null
} else := "its running firmware version is unknown (no input gives it: ibstat, ibv_devinfo -v or /sys/class/infiniband/<dev>/fw_ver)" if {
	trim_space(object.get(obj, field, "")) == ""
} else := sprintf("its running firmware version %q is no version (masked or damaged)", [obj[field]])
