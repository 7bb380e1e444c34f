package build

// Packages that provide the tools of several specs, for "not installed (package: ...)" hints.
// Debian names first; the RHEL/SUSE name where it differs.
const (
	infinibandDiags = "infiniband-diags"
	ibverbsUtils    = "ibverbs-utils or libibverbs-utils"
	mlnxTools       = "mlnx-tools (MLNX_OFED/DOCA)"
	mstflint        = "mstflint"
	nvidiaMFT       = "NVIDIA MFT"
)
