package parse

import (
	"strings"

	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/internal/regexplit"
)

// OpenSMConf parses opensm.conf (opensm/osm_subnet.c, `opensm -c` writes the full file):
//
//	# Virtualization support
//	# 0: Ignore Virtualization - No virtualization support
//	virt_enabled 2
//
// Options are "name value" lines; the value is the rest of the line. Comments and blank lines are
// skipped. Evidence is keyed "config.<name>".
func OpenSMConf(b []byte) (map[string]string, facts.EvidenceMap, error) {
	var cfg map[string]string
	var ev facts.EvidenceMap
	for _, l := range Lines(b) {
		t := strings.TrimSpace(l.Text)
		if t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		name, val, _ := strings.Cut(t, " ")
		if cfg == nil {
			cfg = map[string]string{}
		}
		cfg[name] = strings.TrimSpace(val)
		ev.Set("config."+name, l.Evidence())
	}
	return cfg, ev, nil
}

// openSMKinds classify opensm log lines, most specific first. Each is asked of every line of a log
// that may hold thousands: regexplit first looks for the literal text a match needs.
var openSMKinds = []struct {
	kind string
	re   *regexplit.Regexp
}{
	{"subnet_up", regexplit.New(`SUBNET UP`)},
	{"master", regexplit.New(`Entering MASTER state`)},
	{"standby", regexplit.New(`Entering STANDBY state`)},
	{"bind_failed", regexplit.New(`(?i)bind failed|Error from osm_opensm_bind|ERR 5426`)},
	{"sm_port_down", regexplit.New(`SM port is down|is_sm_port_down|Couldn't find SM port`)},
	{"exiting", regexplit.New(`Exiting SM`)},
	{"error", regexplit.New(`\bERR [0-9A-F]{4}\b|(?i)\berror\b`)},
}

// OpenSMLog classifies the lines of an opensm log (/var/log/opensm.log, opensm's stdout, or the
// OpenSM journal lines of `systemctl status opensm`):
//
//	Aug 24 04:32:59 236829 [95BD9740] 0x01 -> osm_sm_bind: ERR 2E10: SM MAD Controller bind failed (IB_ERROR) for port guid 0x8c0eb0300f6fc26, port index 0
//	Error from osm_opensm_bind (0x2A)
//	Dec 30 00:07:32 node01 OpenSM[3110]: Entering STANDBY state
//	Exiting SM
//
// Kinds: "subnet_up", "master", "standby", "bind_failed", "sm_port_down", "exiting", "error".
// Lines of no kind are skipped. A file cut mid-line gives the events read and a parse.Problems.
func OpenSMLog(b []byte) ([]facts.OpenSMEvent, error) {
	var out []facts.OpenSMEvent
	lines := Lines(b)
	for _, l := range lines {
		for _, k := range openSMKinds {
			if k.re.MatchString(l.Text) {
				out = append(out, facts.OpenSMEvent{Kind: k.kind, Evidence: l.Evidence()})
				break
			}
		}
	}
	// A log line is complete only with its newline: a file that ends mid-line was cut there
	// (what opensm printed next, its error or its exit, is lost). The events read are kept.
	var probs problems
	probs.cut(b, lines, true)
	return out, probs.err()
}
