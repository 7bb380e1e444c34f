package parse

import (
	"strconv"
	"strings"

	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/internal/lazyregexp"
)

// PerftestOutput is what one capture of a perftest benchmark holds: its runs, several when a
// capture holds a server's and a client's output or several tests one after the other.
type PerftestOutput struct {
	Runs []facts.PerftestRun
}

var (
	perftestTitleRe   = lazyregexp.New(`^((?:RDMA[_ ]\S+|Send|Atomic\S*)\b.*\b(BW|Latency)\b.*\bTest)$`)
	perftestAddrRe    = lazyregexp.New(`^(local|remote) address: LID (\S+) QPN (\S+) PSN (\S+)`)
	perftestGIDRe     = lazyregexp.New(`^GID: (\S+)$`)
	perftestHeaderRe  = lazyregexp.New(`^#?bytes\s+(?:#sl\s+)?#?iterations\s+`)
	perftestColumnRe  = lazyregexp.New(`(BW peak|BW average|MsgRate Port1|MsgRate Port2|MsgRate|BW Port1|BW Port2|t_min|t_max|t_typical|t_avg|t_stdev|99% percentile|99\.9% percentile)\[([^\]]+)\]|tps average`)
	perftestPairRe    = lazyregexp.New(`([A-Za-z][A-Za-z0-9_ .*()/-]*?)\s*:\s*(\S+)`)
	perftestCompErrRe = lazyregexp.New(`Completion with error at (client|server)`)
	perftestStatusRe  = lazyregexp.New(`Failed status (\d+): wr_id (\d+) syndrom (0x[0-9a-fA-F]+)`)
	perftestConnectRe = lazyregexp.New(`Couldn't connect to \S+|Unable to init the socket connection`)
	perftestPortRe    = lazyregexp.New(`^Port number (\d+) state is (\S+)$`)
	perftestFailRe    = lazyregexp.New(`\b(?:Couldn't|Failed to|Unable to) `)
)

// perftestMiB converts perftest's MB/sec and MiB/sec (2^20 bytes per second,
// perftest_parameters.c: format_factor = 0x100000 unless --report_gbits) to Gb/s.
const perftestMiB = 1048576 * 8 / 1e9

// Perftest parses the output of perftest's benchmarks (ib_write_bw, ib_read_bw, ib_send_bw,
// ib_write_lat, ib_read_lat, ib_send_lat; github.com/linux-rdma/perftest, formats in
// src/perftest_parameters.h RESULT_FMT* / REPORT_FMT* and ctx_print_test_info):
//
//	                   RDMA_Write BW Test
//	Dual-port       : OFF		Device         : mlx5_0
//	Mtu             : 4096[B]
//	Link type       : IB
//	local address: LID 0x02 QPN 0x0032 PSN 0x5f2841 RKey 0x002440 VAddr 0x007f2e5f64b000
//	#bytes     #iterations    BW peak[Gb/sec]    BW average[Gb/sec]   MsgRate[Mpps]
//	65536      5000             51.05              51.04              0.097356
//
// or a latency table (#bytes #iterations t_min[usec] t_max[usec] t_typical[usec] t_avg[usec]
// t_stdev[usec] 99% percentile[usec] 99.9% percentile[usec]), and its error lines:
//
//	 Completion with error at client
//	 Failed status 12: wr_id 0 syndrom 0x81
//	Couldn't connect to 192.168.125.211:18515
//	 Port number 1 state is Down
//
// Bandwidth in MB/sec or MiB/sec is converted to Gb/s. The columns are taken from the table's
// own header, so older versions' shorter latency tables read too. A row with fewer values than
// its header has columns (a paste cut short) is a problem naming the line; lines perftest
// prints besides (banners, "Conflicting CPU frequency values detected" inside the table, which
// is kept as a warning) are not rows.
func Perftest(b []byte) (PerftestOutput, error) {
	var p perftestParser
	lines := Lines(b)
	for _, l := range lines {
		p.line(l)
	}
	p.flush()
	p.probs.replaced(lines)
	p.probs.cut(b, lines, p.inTable)
	return PerftestOutput{Runs: p.runs}, p.probs.err()
}

type perftestParser struct {
	runs    []facts.PerftestRun
	cur     *facts.PerftestRun
	columns []string // the current table's columns after #bytes and #iterations
	inTable bool
	last    *facts.PerftestAddress // the address line a "GID:" line belongs to
	badRow  bool                   // a row of the current run could not be read
	probs   problems
}

// run returns the run being read, starting one when there is none.
func (p *perftestParser) run() *facts.PerftestRun {
	if p.cur == nil {
		p.cur = &facts.PerftestRun{}
	}
	return p.cur
}

// flush ends the run being read. A run whose header or table perftest printed but that holds
// no row and no error was cut before its results: that is a problem naming the line, so a
// damaged capture is never read as a run that merely said nothing.
func (p *perftestParser) flush() {
	if r := p.cur; r != nil {
		if len(r.Bandwidth)+len(r.Latency)+len(r.Errors) == 0 && !p.badRow {
			switch {
			case r.Unit != "":
				p.probs.add(evidenceLine(r.Evidence["unit"]), "a results table without rows: the capture stops before them")
			case r.Title != "":
				p.probs.add(evidenceLine(r.Evidence["title"]), "a test's header without results or an error: the capture stops before them")
			}
		}
		p.runs = append(p.runs, *r)
	}
	p.cur, p.columns, p.inTable, p.last, p.badRow = nil, nil, false, nil, false
}

func evidenceLine(ev facts.Evidence) Line { return Line{N: ev.Line, Text: ev.Text} }

// started reports whether the run being read already holds a title, addresses, rows or errors,
// so that a new title begins another run.
func (p *perftestParser) started() bool {
	r := p.cur
	return r != nil && (r.Title != "" || r.Local != nil || len(r.Bandwidth) > 0 || len(r.Latency) > 0 || len(r.Errors) > 0)
}

func (p *perftestParser) line(l Line) {
	t := strings.TrimSpace(l.Text)
	switch {
	case t == "" || strings.Trim(t, "-*") == "" || strings.HasPrefix(t, "* "):
		if strings.HasPrefix(t, "---") && p.inTable && p.rows() > 0 {
			p.inTable = false // the closing rule of a table
		}
	case perftestTitleRe.MatchString(t):
		if p.started() {
			p.flush()
		}
		r := p.run()
		m := perftestTitleRe.FindStringSubmatch(t)
		r.Title = m[1]
		r.Evidence.Set("title", l.Evidence())
		r.Kind = map[string]string{"BW": "bandwidth", "Latency": "latency"}[m[2]]
		r.Bidirectional = boolPtr(strings.Contains(t, "Bidirectional"))
	case strings.Contains(t, "Conflicting CPU frequency values detected"):
		r := p.run()
		r.CPUFrequencyWarnings = append(r.CPUFrequencyWarnings, l.Evidence())
	case strings.Contains(t, "BW peak won't be measured"):
		p.run().PeakNotMeasured = true
	case perftestHeaderRe.MatchString(t):
		p.header(l, t)
	case p.inTable && perftestRowStart(t):
		p.row(l, t)
	case perftestAddrRe.MatchString(t):
		p.address(l, t)
	case perftestGIDRe.MatchString(t):
		if p.last != nil && p.last.GID == "" {
			p.last.GID = perftestGIDRe.FindStringSubmatch(t)[1]
		}
	case perftestCompErrRe.MatchString(t) || perftestStatusRe.MatchString(t):
		p.completionError(l, t)
	case perftestPortRe.MatchString(t):
		m := perftestPortRe.FindStringSubmatch(t)
		p.addError(facts.PerftestError{Kind: "port_not_active", Port: atoiPtr(m[1]), PortState: m[2], Text: t, Evidence: l.Evidence()})
	case strings.HasPrefix(t, "Port number "):
		p.probs.add(l, "not a perftest port line (Port number N state is STATE)")
	case perftestConnectRe.MatchString(t):
		p.addError(facts.PerftestError{Kind: "connect_failed", Text: t, Evidence: l.Evidence()})
	case perftestFailRe.MatchString(t):
		p.addError(facts.PerftestError{Kind: "failed", Text: t, Evidence: l.Evidence()})
	default:
		p.pairs(l, t)
	}
}

func (p *perftestParser) rows() int {
	if p.cur == nil {
		return 0
	}
	return len(p.cur.Bandwidth) + len(p.cur.Latency)
}

// perftestRowStart reports whether t starts like a results row: a message size.
func perftestRowStart(t string) bool {
	f := strings.Fields(t)
	_, err := strconv.ParseInt(f[0], 10, 64)
	return err == nil
}

// header reads a results table's column header.
func (p *perftestParser) header(l Line, t string) {
	if p.rows() > 0 {
		prev := *p.cur
		p.flush()
		// a second table of the same run (a paste of two outputs): the header facts carry over
		r := p.run()
		*r = facts.PerftestRun{Program: prev.Program, Title: prev.Title, Kind: prev.Kind, Bidirectional: prev.Bidirectional,
			Device: prev.Device, LinkType: prev.LinkType, Transport: prev.Transport, ConnectionType: prev.ConnectionType,
			MTUBytes: prev.MTUBytes, QPs: prev.QPs, RDMACM: prev.RDMACM, GIDIndex: prev.GIDIndex, Evidence: facts.EvidenceMap{}}
		for k, v := range prev.Evidence {
			r.Evidence[k] = v
		}
	}
	r := p.run()
	if strings.Contains(t, "#sl") {
		p.probs.add(l, "a per-SL (QoS) table: not read")
		return
	}
	p.columns = nil
	for _, m := range perftestColumnRe.FindAllStringSubmatch(t, -1) {
		name := m[1]
		if name == "" {
			name = "tps average"
		}
		p.columns = append(p.columns, name)
		switch {
		case name == "BW average":
			r.Unit = m[2]
			r.Kind = "bandwidth"
		case strings.HasPrefix(name, "t_") && r.Unit == "":
			r.Unit = m[2]
			r.Kind = "latency"
		}
	}
	if len(p.columns) == 0 || (r.Kind == "bandwidth" && !perftestKnownUnit(r.Unit)) {
		p.probs.add(l, "not a perftest results header (#bytes #iterations BW peak[Gb/sec] BW average[Gb/sec] ... or t_min[usec] ...)")
		p.columns = nil
		return
	}
	r.Evidence.Set("unit", l.Evidence())
	p.inTable = true
}

func perftestKnownUnit(u string) bool { return u == "Gb/sec" || u == "MB/sec" || u == "MiB/sec" }

// row reads one results row against the current header's columns.
func (p *perftestParser) row(l Line, t string) {
	f := strings.Fields(t)
	if len(f) != 2+len(p.columns) {
		p.badRow = true
		p.probs.add(l, "a results row with %d values where the header has %d columns (a paste cut short?)", len(f), 2+len(p.columns))
		return
	}
	bytes, err1 := strconv.ParseInt(f[0], 10, 64)
	iters, err2 := strconv.ParseInt(f[1], 10, 64)
	vals := map[string]float64{}
	for i, c := range p.columns {
		v, err := strconv.ParseFloat(f[2+i], 64)
		if err != nil {
			p.badRow = true
			p.probs.add(l, "%s %q is not a number", c, f[2+i])
			return
		}
		vals[c] = v
	}
	if err1 != nil || err2 != nil {
		p.badRow = true
		p.probs.add(l, "message size or iterations is not a whole number")
		return
	}
	r := p.run()
	if r.Kind == "bandwidth" {
		factor := 1.0
		if r.Unit != "Gb/sec" {
			factor = perftestMiB
		}
		row := facts.PerftestBandwidth{Bytes: bytes, Iterations: iters, AverageGbps: vals["BW average"] * factor, Evidence: l.Evidence()}
		if v, ok := vals["BW peak"]; ok && !r.PeakNotMeasured {
			row.PeakGbps = float64Ptr(v * factor)
		}
		if v, ok := vals["MsgRate"]; ok {
			row.MsgRateMpps = float64Ptr(v)
		}
		r.Bandwidth = append(r.Bandwidth, row)
		return
	}
	row := facts.PerftestLatency{Bytes: bytes, Iterations: iters, Evidence: l.Evidence()}
	for c, dst := range map[string]**float64{"t_min": &row.MinUsec, "t_max": &row.MaxUsec, "t_typical": &row.TypicalUsec,
		"t_avg": &row.AvgUsec, "t_stdev": &row.StdevUsec, "99% percentile": &row.P99Usec, "99.9% percentile": &row.P999Usec} {
		if v, ok := vals[c]; ok {
			*dst = float64Ptr(v)
		}
	}
	r.Latency = append(r.Latency, row)
}

// address reads a "local address:" or "remote address:" line; the first of each is kept.
func (p *perftestParser) address(l Line, t string) {
	m := perftestAddrRe.FindStringSubmatch(t)
	a := &facts.PerftestAddress{QPN: m[3], PSN: m[4], Evidence: l.Evidence()}
	if lid, err := strconv.ParseInt(strings.TrimPrefix(strings.ToLower(m[2]), "0x"), 16, 32); err == nil {
		a.LID = intPtr(int(lid))
	} else {
		p.probs.add(l, "LID %q is not a hexadecimal number", m[2])
	}
	r := p.run()
	p.last = nil
	switch {
	case m[1] == "local" && r.Local == nil:
		r.Local, p.last = a, a
	case m[1] == "remote" && r.Remote == nil:
		r.Remote, p.last = a, a
	}
}

// completionError reads "Completion with error at client" and its "Failed status N: wr_id N
// syndrom 0xNN" line, which may follow on the same line (a paste that lost its newlines).
func (p *perftestParser) completionError(l Line, t string) {
	r := p.run()
	if m := perftestCompErrRe.FindStringSubmatch(t); m != nil {
		r.Errors = append(r.Errors, facts.PerftestError{Kind: "completion_error", Side: m[1], Text: t, Evidence: l.Evidence()})
	}
	m := perftestStatusRe.FindStringSubmatch(t)
	if m == nil {
		return
	}
	n := len(r.Errors)
	if n == 0 || r.Errors[n-1].Kind != "completion_error" || r.Errors[n-1].Status != nil {
		r.Errors = append(r.Errors, facts.PerftestError{Kind: "completion_error", Text: t, Evidence: l.Evidence()})
		n++
	}
	e := &r.Errors[n-1]
	e.Status = atoiPtr(m[1])
	e.Syndrome = m[3]
	if e.Evidence.Line != l.N {
		e.Text, e.Evidence = e.Text+" / "+t, l.Evidence() // the status line is the proof
	}
}

func (p *perftestParser) addError(e facts.PerftestError) {
	r := p.run()
	r.Errors = append(r.Errors, e)
}

// pairs reads the header block's "Key : value" pairs, two to a line at most; keys perftest
// prints besides the ones kept here (PCIe relax order, Max inline data, ...) are ignored.
func (p *perftestParser) pairs(l Line, t string) {
	for _, m := range perftestPairRe.FindAllStringSubmatch(t, 2) {
		key, val := strings.TrimSpace(m[1]), m[2]
		r := p.cur
		set := func(field string) {
			if r == nil {
				r = p.run()
			}
			r.Evidence.Set(field, l.Evidence())
		}
		switch key {
		case "Device":
			if p.cur == nil || p.cur.Device == "" {
				set("device")
				r.Device = val
			}
		case "Link type":
			set("link_type")
			r.LinkType = val
		case "Transport type":
			set("transport")
			r.Transport = val
		case "Connection type":
			set("connection_type")
			r.ConnectionType = val
		case "Mtu":
			if n := atoiPtr(strings.TrimSuffix(val, "[B]")); n != nil {
				set("mtu_bytes")
				r.MTUBytes = n
			} else {
				p.probs.add(l, "Mtu %q is not a number of bytes", val)
			}
		case "Number of qps":
			p.intPair(l, set, &r, "qps", val, func(r *facts.PerftestRun) **int { return &r.QPs })
		case "TX depth":
			p.intPair(l, set, &r, "tx_depth", val, func(r *facts.PerftestRun) **int { return &r.TXDepth })
		case "CQ Moderation":
			p.intPair(l, set, &r, "cq_moderation", val, func(r *facts.PerftestRun) **int { return &r.CQModeration })
		case "GID index":
			p.intPair(l, set, &r, "gid_index", val, func(r *facts.PerftestRun) **int { return &r.GIDIndex })
		case "Using SRQ", "rdma_cm QPs":
			field, dst := "using_srq", func(r *facts.PerftestRun) **bool { return &r.UsingSRQ }
			if key == "rdma_cm QPs" {
				field, dst = "rdma_cm", func(r *facts.PerftestRun) **bool { return &r.RDMACM }
			}
			if v, ok := onOff(val); ok {
				set(field)
				*dst(r) = boolPtr(v)
			}
		}
	}
}

// intPair sets the integer field that at picks from val, or records why val is not one.
func (p *perftestParser) intPair(l Line, set func(string), r **facts.PerftestRun, field, val string, at func(*facts.PerftestRun) **int) {
	n := atoiPtr(val)
	if n == nil {
		p.probs.add(l, "%s %q is not a number", field, val)
		return
	}
	set(field)
	*at(*r) = n
}
