# METADATA
# title: A switch reports a fan, power supply or temperature fault
# description: >-
#   An unmanaged InfiniBand switch, read in band with ibswinfo, reports a fault of its chassis:
#   the fan trays out of their speed limits (ibswinfo "fan status ERROR", from the switch's FORE
#   register fan_under_limit/fan_over_limit), a power supply absent or failed, without DC power,
#   or with a failed fan, or the ASIC at or above its warning temperature. Unmanaged switches
#   show this only on their LEDs; a failed fan or PSU costs the redundancy that keeps the switch
#   up, and overheating precedes thermal shutdown and port errors on every link of the switch.
#   It is not a fault of this host.
# scope: package
# related_resources:
#   - ref: https://github.com/stanford-rc/ibswinfo
#   - ref: https://github.com/torvalds/linux/blob/master/drivers/net/ethernet/mellanox/mlxsw/reg.h
# custom:
#   id: switch-hardware-fault
#   area: fabric
#   severity: warning
#   confidence: high
#   requires: [switch_health]
#   explains: []
#   needs_reboot: false
#   fix:
#     - command: ibswinfo -d {{target}}
#       note: read the switch again; check the fan modules and their airflow direction against the PSUs', reseat or replace the failed fan or PSU module, check the PSU's power cord
#     - command: ibswitches
#       note: the switch's LID, to address it with ibswinfo -d lid-<LID>
package rdmadoctor.rules.switch_hardware_fault

import data.rdmadoctor.lib.fabric
import data.rdmadoctor.lib.finding

# what each of ibswinfo's status words says when it is ERROR (ibswinfo.sh: FORE register for
# the fans; MSPS register bits for the PSUs).
meaning := {
	"fans": "a fan tray is below or above its speed limit",
	"status": "is absent or failed",
	"dc": "has no DC power (power cord or supply failed)",
	"fan": "has a failed fan",
}

findings contains f if {
	some sw in input.fabric.switches
	some st in sw.statuses
	st.value == "ERROR"
	f := with_target(sw, fabric.node(guid(sw), desc(sw), sprintf("switch %s: ibswinfo %s ERROR: %s", [switch_name(sw), st.name, what(st.name)]), [st.evidence]))
}

findings contains f if {
	some sw in input.fabric.switches
	is_number(sw.temperature_c)
	is_number(sw.warn_low_c)
	sw.temperature_c >= sw.warn_low_c
	base := fabric.node(
		guid(sw), desc(sw),
		sprintf("switch %s is at %d C, at or above its warning threshold of %d C (high %v C)", [switch_name(sw), sw.temperature_c, sw.warn_low_c, sw.warn_high_c]),
		finding.evidence(sw, ["temperature_c", "warn_low_c"]),
	)
	f := with_target(sw, finding.with_fields(base, grade(sw)))
}

what(name) := meaning.fans if {
	name == "fans"
} else := sprintf("PSU%s %s", [trim_prefix(split(name, ".")[0], "psu"), meaning[split(name, ".")[1]]])

switch_name(sw) := fabric.name(guid(sw), desc(sw))

guid(sw) := object.get(sw, "guid", "")

desc(sw) := object.get(sw, "node_description", "")

# at or above the high threshold the switch is about to shut down.
grade(sw) := {"severity": "error"} if {
	is_number(sw.warn_high_c)
	sw.temperature_c >= sw.warn_high_c
} else := {}

with_target(sw, f) := finding.with_fields(f, {"vars": {"target": sw.target}}) if {
	object.get(sw, "target", "") != ""
} else := f
