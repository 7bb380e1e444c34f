# METADATA
# title: opensm on this host is not working
# description: >-
#   This host runs (or is set up to run) the InfiniBand subnet manager, but opensm failed, is
#   enabled and not running, or its log shows it could not take its port: "bind failed" (another
#   opensm owns the port, or -g names a GUID that is not a local port), "SM port ... is unknown"
#   or "SM port is down", then "Exiting SM". Without a working SM no port of the fabric gets a LID
#   and everything stays Initializing. An LSB wrapper reporting "active (exited)" does not prove
#   opensm runs. Not reported when sminfo shows the fabric's master SM on another node.
# scope: package
# related_resources:
#   - ref: https://github.com/linux-rdma/opensm/blob/master/man/opensm.8.in
#   - ref: https://github.com/linux-rdma/opensm
#   - ref: https://docs.redhat.com/en/documentation/red_hat_enterprise_linux/9/html/configuring_infiniband_and_rdma_networks/configuring-the-subnet-manager_configuring-infiniband-and-rdma-networks
# custom:
#   id: opensm-service-problem
#   area: sm
#   severity: error
#   confidence: high
#   requires: []
#   explains: [ib-port-no-subnet-manager, sriov-vf-ib-port-not-active]
#   needs_reboot: false
#   fix:
#     - command: journalctl -u opensm -u opensmd -b --no-pager | grep -E 'SUBNET UP|MASTER|STANDBY|ERR|Exiting'
#       note: read why it stopped
#     - command: ibstat -p
#       note: list the local port GUIDs; opensm binds to one port only - give it the GUID of an Active InfiniBand port (not an Ethernet/RoCE port)
#     - command: "opensm -g 0x<PortGUID> -B -f /var/log/opensm.0x<PortGUID>.log"
#       note: one instance per fabric; with the distribution unit set GUIDS/PORTS in /etc/sysconfig/opensm (or opensm.conf guid)
#     - command: systemctl enable --now opensm
#       note: opensmd with MLNX_OFED/DOCA; then check sminfo and that ports turn Active
package rdmadoctor.rules.opensm_service_problem

import data.rdmadoctor.lib.finding
import data.rdmadoctor.lib.sm

# A master SM elsewhere runs the fabric: a failing local opensm is multiple-sm-priority-conflict's.
elsewhere if sm.remote_master

# The unit failed, or is enabled and not running.
findings contains f if {
	not elsewhere
	some name, svc in sm.failed_services
	f := finding.node(sprintf("%s.service is %s%s: this host's subnet manager is not running", [name, svc.active, enabled_note(svc)]), array.concat([svc.evidence], [e.evidence | some e in array.slice(sm.problems, 0, 2)]))
}

# The log shows opensm failing and never working.
findings contains f if {
	not elsewhere
	count(sm.failed_services) == 0
	count(sm.problems) > 0
	count(sm.healthy) == 0
	p := sm.problems[0]
	f := finding.node(
		sprintf("opensm never reached SUBNET UP, MASTER or STANDBY: %q%s%s%s", [trim_space(p.evidence.text), sm.foreign_guid_note(p.evidence.text), sm.sm_disabled_note, wrapper_note]),
		array.concat([e.evidence | some e in array.slice(sm.problems, 0, 3)], sm.sm_disabled_evidence),
	)
}

# One instance fails while another works (one opensm per port GUID; one of them cannot run).
findings contains f if {
	not elsewhere
	count(sm.failed_services) == 0
	count(sm.problems) > 0
	count(sm.healthy) > 0
	not transient
	p := sm.problems[0]
	h := sm.healthy[count(sm.healthy) - 1]
	f := finding.with_fields(
		finding.node(sprintf("an opensm instance fails (%q) while another reports %q: limit opensm to the port GUIDs of Active InfiniBand ports%s", [trim_space(p.evidence.text), trim_space(h.evidence.text), sm.foreign_guid_note(p.evidence.text)]), [p.evidence, h.evidence]),
		{"severity": "warning", "confidence": "medium"},
	)
}

# "SM port is down" at boot, then the SM came up in the same log: transient.
transient if {
	every p in sm.problems {
		p.kind == "sm_port_down"
		some h in sm.healthy
		h.evidence.path == p.evidence.path
		h.evidence.line > p.evidence.line
	}
}

enabled_note(svc) := sprintf(" although %s", [svc.enabled]) if svc.active == "inactive"

else := ""

# An LSB wrapper unit stays "active (exited)" after opensm died.
wrapper_note := sprintf("; %s.service says active (exited), which only means its start script ran", [name]) if {
	some name, svc in sm.services
	svc.active == "active"
	svc.sub == "exited"
} else := ""
