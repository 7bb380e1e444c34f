package facts

// PerftestRun is one run of a perftest benchmark (ib_write_bw, ib_read_bw, ib_send_bw,
// ib_write_lat, ib_read_lat, ib_send_lat; github.com/linux-rdma/perftest) as its output shows
// it: the header block perftest prints before the test (src/perftest_parameters.c
// ctx_print_test_info), the local and remote QP addresses, the results table and its own error
// lines. Values perftest did not print are absent or null, never zero.
type PerftestRun struct {
	// Program is the benchmark the capture's file name names ("ib_write_bw"); empty for a
	// capture recognised by its content alone.
	Program string `json:"program,omitempty"`
	// Title is perftest's title line, e.g. "RDMA_Write BW Test", "RDMA_Read Latency Test",
	// "Send Bidirectional BW Test".
	Title string `json:"title,omitempty"`
	// Kind is "bandwidth" or "latency": what the results table measures (its column header),
	// else what the title or the program name says.
	Kind string `json:"kind,omitempty"`
	// Bidirectional is true when the title says "Bidirectional" (-b): perftest then reports both
	// directions together, so the figures are not one direction's. Null when no title was seen.
	Bidirectional *bool `json:"bidirectional"`
	// Device is the header's "Device : mlx5_0", else the -d/--ib-dev argument of the command line
	// in the file name.
	Device string `json:"device,omitempty"`
	// Port is the -i/--ib-port argument of the command line in the file name, or perftest's
	// default port 1 (DEF_IB_PORT) when the file name holds a command line without one; null when
	// the capture carries no command line (the header does not print the port).
	Port *int `json:"port"`
	// LinkType is the header's "Link type": "IB" or "Ethernet" (RoCE).
	LinkType string `json:"link_type,omitempty"`
	// Transport is the header's "Transport type" (IB for verbs over InfiniBand and RoCE).
	Transport string `json:"transport,omitempty"`
	// ConnectionType is the header's "Connection type": RC, UC, UD, XRC, DC, SRD.
	ConnectionType string `json:"connection_type,omitempty"`
	// MTUBytes is the header's "Mtu : 4096[B]", the path MTU the QPs use.
	MTUBytes *int `json:"mtu_bytes"`
	// QPs is the header's "Number of qps".
	QPs *int `json:"qps"`
	// TXDepth and CQModeration are the header's "TX depth" and "CQ Moderation".
	TXDepth      *int `json:"tx_depth"`
	CQModeration *int `json:"cq_moderation"`
	// UsingSRQ is the header's "Using SRQ" (ON/OFF).
	UsingSRQ *bool `json:"using_srq"`
	// RDMACM is the header's "rdma_cm QPs" (ON with -R: the QPs were connected by rdma_cm).
	RDMACM *bool `json:"rdma_cm"`
	// GIDIndex is the header's "GID index" (RoCE and -x runs).
	GIDIndex *int `json:"gid_index"`
	// Local and Remote are the "local address:" and "remote address:" lines (the first pair when
	// several QPs print theirs), with the "GID:" line that follows each.
	Local  *PerftestAddress `json:"local"`
	Remote *PerftestAddress `json:"remote"`
	// Unit is the unit the bandwidth table was printed in: "Gb/sec" (--report_gbits),
	// "MB/sec" (up to perftest 24.04) or "MiB/sec" (from 24.07); both of the latter are 2^20 bytes
	// per second (perftest_parameters.c format_factor 0x100000). "usec" for latency tables.
	Unit string `json:"unit,omitempty"`
	// Bandwidth holds the rows of a bandwidth table, in Gb/s whatever the unit printed.
	Bandwidth []PerftestBandwidth `json:"bandwidth,omitempty"`
	// Latency holds the rows of a latency table, in microseconds.
	Latency []PerftestLatency `json:"latency,omitempty"`
	// Errors are perftest's own error lines: a completion with error, a failed connection, a
	// "Couldn't ..." step.
	Errors []PerftestError `json:"errors,omitempty"`
	// CPUFrequencyWarnings are perftest's "Conflicting CPU frequency values detected: A != B.
	// CPU Frequency is not max." lines: the cores ran below their maximum frequency during the
	// run (frequency scaling, a power-saving governor).
	CPUFrequencyWarnings []Evidence `json:"cpu_frequency_warnings,omitempty"`
	// PeakNotMeasured is true when perftest said "BW peak won't be measured in this run" (the
	// peak column then reads 0.00).
	PeakNotMeasured bool `json:"peak_not_measured,omitempty"`
	// Evidence maps field names (device, link_type, mtu_bytes, title, ...) to their lines.
	Evidence EvidenceMap `json:"evidence"`
}

// PerftestAddress is one "local address:" or "remote address:" line of a perftest run:
// "local address: LID 0x02 QPN 0x0032 PSN 0x5f2841 RKey 0x002440 VAddr 0x007f2e5f64b000".
type PerftestAddress struct {
	// LID is the port's LID (0 on RoCE, where "LID 0000" is printed).
	LID *int `json:"lid"`
	// QPN and PSN are as printed (hex).
	QPN string `json:"qpn,omitempty"`
	PSN string `json:"psn,omitempty"`
	// GID is the "GID:" line that follows, as printed (16 decimal bytes joined by ':').
	GID      string   `json:"gid,omitempty"`
	Evidence Evidence `json:"evidence"`
}

// PerftestBandwidth is one row of a bandwidth table:
// " 65536      5000             51.05              51.04              0.097356".
type PerftestBandwidth struct {
	// Bytes is the message size, Iterations the number of messages.
	Bytes      int64 `json:"bytes"`
	Iterations int64 `json:"iterations"`
	// PeakGbps is the "BW peak" column in Gb/s; null when perftest said it would not measure it.
	PeakGbps *float64 `json:"peak_gbps"`
	// AverageGbps is the "BW average" column in Gb/s (converted from MB/sec or MiB/sec).
	AverageGbps float64 `json:"average_gbps"`
	// MsgRateMpps is the "MsgRate" column, millions of messages per second.
	MsgRateMpps *float64 `json:"msg_rate_mpps"`
	Evidence    Evidence `json:"evidence"`
}

// PerftestLatency is one row of a latency table, all times in microseconds:
// " 2       1000          1.76           6.12         1.79                1.80             0.06            1.88                    6.12".
// Older perftest versions print only some of the columns; the others are null.
type PerftestLatency struct {
	Bytes       int64    `json:"bytes"`
	Iterations  int64    `json:"iterations"`
	MinUsec     *float64 `json:"min_usec"`
	MaxUsec     *float64 `json:"max_usec"`
	TypicalUsec *float64 `json:"typical_usec"`
	AvgUsec     *float64 `json:"avg_usec"`
	StdevUsec   *float64 `json:"stdev_usec"`
	P99Usec     *float64 `json:"p99_usec"`
	P999Usec    *float64 `json:"p999_usec"`
	Evidence    Evidence `json:"evidence"`
}

// PerftestError is one of perftest's error reports.
type PerftestError struct {
	// Kind is "completion_error" ("Completion with error at client/server" with its "Failed
	// status N: wr_id N syndrom 0xNN" line), "connect_failed" ("Couldn't connect to HOST:PORT",
	// "Unable to init the socket connection"), "port_not_active" ("Port number 1 state is Down":
	// perftest refuses a port that is not Active, perftest_parameters.c), or "failed" (any other
	// "Couldn't ..." / "Failed to ..." / "Unable to ..." line).
	Kind string `json:"kind"`
	// Port and PortState are the port and its state for a port_not_active error.
	Port      *int   `json:"port"`
	PortState string `json:"port_state,omitempty"`
	// Side is "client" or "server" for a completion error.
	Side string `json:"side,omitempty"`
	// Status is the work completion status (enum ibv_wc_status: 12 = IBV_WC_RETRY_EXC_ERR,
	// "transport retry counter exceeded"), Syndrome the vendor syndrome as printed ("0x81").
	Status   *int   `json:"status"`
	Syndrome string `json:"syndrome,omitempty"`
	// Text is the error line as printed, trimmed.
	Text     string   `json:"text"`
	Evidence Evidence `json:"evidence"`
}
