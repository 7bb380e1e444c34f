# METADATA
# title: Locked-memory limit too low
# description: Memory registration fails when RLIMIT_MEMLOCK is small.
# scope: package
# custom:
#   id: memlock-low
#   area: host
#   severity: error
#   confidence: high
#   requires: [memlock]
#   fix:
#     - command: ulimit -l unlimited
#       note: and set memlock unlimited in /etc/security/limits.conf
package rdmadoctor.rules.memlock_low

findings contains f if {
	not input.host.memlock.unlimited
	input.host.memlock.soft_kib < 1048576
	f := {
		"subject": {},
		"message": sprintf("max locked memory is %d KiB", [input.host.memlock.soft_kib]),
		"evidence": [input.host.memlock.evidence],
	}
}
