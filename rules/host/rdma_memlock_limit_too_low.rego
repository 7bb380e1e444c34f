# METADATA
# title: Locked-memory limit too low for RDMA
# description: >-
#   RDMA pins every registered buffer, queue and completion queue in memory, and the kernel counts
#   that against RLIMIT_MEMLOCK. With the distribution default (64 KiB, or 32 KiB on old systems)
#   a non-root job fails in ibv_reg_mr / ibv_create_cq with "Cannot allocate memory" and MPI, UCX
#   and NCCL fall back to TCP or abort. The limit that counts is the one of the job's launcher
#   (sshd session, slurmd, sge_execd, dockerd), which may differ from an interactive shell.
# scope: package
# related_resources:
#   - ref: https://github.com/linux-rdma/rdma-core/blob/master/libibverbs/init.c
#   - ref: https://docs.nvidia.com/deeplearning/nccl/user-guide/docs/troubleshooting.html
#   - ref: https://github.com/openucx/ucx/issues/8229
# custom:
#   id: rdma-memlock-limit-too-low
#   area: host
#   severity: error
#   confidence: high
#   requires: [memlock]
#   explains: [vm-max-map-count-low]
#   needs_reboot: false
#   fix:
#     - command: "printf '* soft memlock unlimited\\n* hard memlock unlimited\\n' > /etc/security/limits.d/99-rdma-memlock.conf"
#       note: applies to new PAM sessions (ssh, login); log in again
#     - command: systemctl edit slurmd
#       note: "add [Service] LimitMEMLOCK=infinity for every daemon that starts jobs (slurmd, sge_execd, dockerd, containerd), then restart it - they ignore limits.conf"
#     - command: docker run --ulimit memlock=-1:-1 ...
#       note: containers inherit the runtime's limit unless given their own
#     - command: ulimit -l
#       note: check inside a batch job, not in an interactive shell; expect unlimited
package rdmadoctor.rules.rdma_memlock_limit_too_low

import data.rdmadoctor.lib.finding

# 64 MiB: below it registrations of ordinary MPI/NCCL buffers fail (rule-catalog §4.3).
error_kib := 65536

# The measured limit of the captured context (ulimit, or the limit a libibverbs/UCX message quotes).
findings contains f if {
	lim := input.host.memlock
	lim.unlimited != true
	is_number(lim.soft_kib)
	lim.soft_kib < error_kib
	f := finding.with_fields(
		finding.node(
			sprintf("the locked-memory limit is %d KiB (%s)%s: RDMA memory registration and queue creation fail for non-root jobs", [lim.soft_kib, context(lim), limits_conf_note]),
			array.concat(array.concat([lim.evidence], limits_conf_evidence), symptom_evidence),
		),
		{"severity": severity(lim.soft_kib)},
	)
}

# A finite limit of 64 MiB or more is enough for small jobs but caps large registrations.
findings contains f if {
	lim := input.host.memlock
	lim.unlimited != true
	lim.soft_kib >= error_kib
	f := finding.with_fields(
		finding.node(sprintf("the locked-memory limit is %d KiB, not unlimited: large RDMA registrations (GPU buffers, UCX/NCCL caches) can fail", [lim.soft_kib]), [lim.evidence]),
		{"severity": "warning", "confidence": "low"},
	)
}

# No measured limit, but pam_limits configures a small one.
findings contains f if {
	not measured
	some r in input.host.memlock_rules
	r.unlimited != true
	is_number(r.value_kib)
	r.value_kib < error_kib
	r.domain in {"*", "@*"}
	f := finding.with_fields(
		finding.node(sprintf("limits.conf sets memlock %s %d KiB for all users: RDMA memory registration fails for non-root jobs started through PAM", [r.type, r.value_kib]), [r.evidence]),
		{"confidence": "medium", "severity": severity(r.value_kib)},
	)
}

measured if is_number(input.host.memlock.soft_kib)

measured if input.host.memlock.unlimited == true

# <= 64 KiB is the distribution default: nothing beyond a few queues can be pinned.
severity(kib) := "critical" if kib <= 64

else := "error"

context(lim) := "quoted by the RDMA library in the job's output" if {
	lim.evidence.source == "rdma_app_log"
} else := "in the captured shell or job"

# limits.conf saying unlimited while the job sees a small limit: the launcher bypassed PAM.
unlimited_rules := [r | some r in input.host.memlock_rules; r.unlimited == true]

limits_conf_note := " although limits.conf sets unlimited - the job's launcher did not go through pam_limits (restart the daemon with LimitMEMLOCK=infinity)" if {
	count(unlimited_rules) > 0
} else := ""

limits_conf_evidence := [r.evidence | some r in unlimited_rules]

# The kernel's side of a failed registration: "infiniband mlx5_0: create_qp:3047:(pid 29714):
# Create QP type 2 failed" (corpus 126), a symptom of the limit, not of the hardware.
symptom_evidence := array.slice(
	[ev.evidence |
		some ev in input.host.kernel_events
		regex.match(`(?i)create (qp|cq)\b.*failed|create_(qp|cq).*failed`, ev.evidence.text)
	],
	0, 2,
)
