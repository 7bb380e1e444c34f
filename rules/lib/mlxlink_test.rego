package rdmadoctor.lib.mlxlink_test

import data.rdmadoctor.lib.mlxlink

# fixtures/mlxlink/cx5-ib-sdr-cable-speed-not-enabled.txt as the facts hold it.
sdr := {
	"device": "mlx5_0", "port": 1, "port_type": "NETWORK", "state": "Active", "physical_state": "LinkUp",
	"speed": "IB-SDR", "width_lanes": 4, "enabled_link_speed": "SDR", "supported_cable_speed": "SDR",
	"status_opcode": 25, "group_opcode": "PHY FW", "recommendation": "Cable speed not enabled",
	"firmware_version": "16.35.4506",
}

test_recommendation_before_opcode if {
	mlxlink.cause(sdr).rule == "module-speed-below-port-capability"
	mlxlink.cause(object.union(sdr, {"recommendation": "something else"})).rule == "module-fault-or-unsupported"
}

test_healthy_names_nothing if {
	c := mlxlink.cause({"status_opcode": 0, "recommendation": "No issue was observed"})
	c.rule == "none"
	not mlxlink.names({"status_opcode": 0, "state": "Down"}, "port-physical-link-down")
}

test_down_reason_only_while_down if {
	mlxlink.names({"status_opcode": 57, "state": "Down"}, "port-physical-link-down")
	not mlxlink.names({"status_opcode": 57, "state": "Active"}, "port-physical-link-down")
	not mlxlink.names({"status_opcode": 57}, "port-physical-link-down")
}

test_ca_type_from_firmware_major if {
	mlxlink.ca_type(sdr) == "MT4119" with input as {"devices": []}
	mlxlink.ca_type({"device": "/dev/mst/mt4115_pciconf1"}) == "MT4115" with input as {"devices": []}
}

test_device_only_on_positive_evidence if {
	mlxlink.device(sdr).name == "mlx5_0" with input as {"devices": [{"name": "mlx5_0", "ports": []}]}
	not mlxlink.device({"device": "/dev/mst/mt4115_pciconf1"}) with input as {"devices": [{"name": "ibp4s0", "ca_type": "MT4115", "ports": []}]}
}

test_lane_of_speed if {
	mlxlink.lane_of_speed(sdr) == "SDR"
	not mlxlink.lane_of_speed({"speed": "100G"})
}
