package parse

import (
	"strings"

	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/internal/lazyregexp"
)

var (
	// unitHeaderRe is the first line of a unit in `systemctl status`: "● opensm.service - LSB: ...";
	// the bullet is "●", "○", "×", or "*" without UTF-8.
	unitHeaderRe = lazyregexp.New(`^(?:●|○|×|\*)\s+(\S+\.(?:service|socket|target|timer|mount|path|slice|scope|device|swap|automount))(?:\s+-\s+.*)?$`)
	// activeRe is "Active: active (running) since ..." or "Active: failed (Result: exit-code) since ...".
	activeRe = lazyregexp.New(`^Active:\s+(\S+)(?:\s+\(([^)]*)\))?`)
	// loadedRe is "Loaded: loaded (/etc/init.d/opensm; generated)" or "Loaded: not-found (Reason: ...)".
	loadedRe = lazyregexp.New(`^Loaded:\s+(\S+)(?:\s+\(([^)]*)\))?`)
)

// unitFileStates are the enablement words systemd prints inside "Loaded: loaded (path; STATE; ...)".
var unitFileStates = map[string]bool{
	"enabled": true, "enabled-runtime": true, "disabled": true, "static": true, "generated": true,
	"masked": true, "masked-runtime": true, "indirect": true, "linked": true, "linked-runtime": true,
	"alias": true, "transient": true, "bad": true,
}

// SystemctlStatus parses `systemctl status [unit...]` (systemd src/systemctl/systemctl-show.c):
//
//	● opensm.service - LSB: Start opensm subnet manager.
//	   Loaded: loaded (/etc/init.d/opensm; generated)
//	   Active: active (running) since Mon 2019-12-30 00:07:32 PST; 1 day 10h ago
//	...journal lines...
//
// Units are keyed by name without ".service" (other unit types keep their suffix). Loaded is the
// load state, Enabled the unit-file state inside its parentheses, Active and Sub the active state
// and, when it is a plain word, the sub-state ("failed (Result: exit-code)" has no sub-state).
// The Active line is the evidence. The machine header of `systemctl status` without a unit
// ("● node01" / "State: running"), CGroup trees and journal lines are ignored.
func SystemctlStatus(b []byte) (map[string]facts.Service, error) {
	var out map[string]facts.Service
	unit := ""
	for _, l := range Lines(b) {
		t := strings.TrimSpace(l.Text)
		if m := unitHeaderRe.FindStringSubmatch(t); m != nil {
			unit = unitName(m[1])
			if out == nil {
				out = map[string]facts.Service{}
			}
			if _, ok := out[unit]; !ok {
				out[unit] = facts.Service{}
			}
			continue
		}
		if strings.HasPrefix(t, "●") || strings.HasPrefix(t, "* ") {
			unit = "" // the machine header of `systemctl status`
			continue
		}
		if unit == "" {
			continue
		}
		s := out[unit]
		if m := loadedRe.FindStringSubmatch(t); m != nil && s.Loaded == "" {
			s.Loaded = m[1]
			for _, part := range strings.Split(m[2], ";") {
				if p := strings.TrimSpace(part); unitFileStates[p] {
					s.Enabled = p
					break
				}
			}
		} else if m := activeRe.FindStringSubmatch(t); m != nil && s.Active == "" {
			s.Active = m[1]
			if !strings.ContainsAny(m[2], ": ") {
				s.Sub = m[2]
			}
			s.Evidence = l.Evidence()
		}
		out[unit] = s
	}
	return out, nil
}

// SystemctlListUnits parses `systemctl list-units [--all]`:
//
//	  UNIT                     LOAD   ACTIVE SUB     DESCRIPTION
//	  uuidd.service            loaded active running Daemon for generating UUIDs
//	● opensm.service           loaded failed failed  OpenSM
//
// Only .service units are returned, keyed without the suffix. The legend and the header are ignored.
func SystemctlListUnits(b []byte) (map[string]facts.Service, error) {
	var out map[string]facts.Service
	for _, l := range Lines(b) {
		f := strings.Fields(l.Text)
		if len(f) > 0 && (f[0] == "●" || f[0] == "*" || f[0] == "×") {
			f = f[1:]
		}
		if len(f) < 4 || !strings.HasSuffix(f[0], ".service") || !loadStates[f[1]] {
			continue
		}
		if out == nil {
			out = map[string]facts.Service{}
		}
		out[unitName(f[0])] = facts.Service{Loaded: f[1], Active: f[2], Sub: f[3], Evidence: l.Evidence()}
	}
	return out, nil
}

// SystemctlIsActive parses `systemctl is-active <unit>`: one state word ("active", "inactive",
// "failed", "activating", "unknown"). It returns the state and its line; ok is false for anything else.
func SystemctlIsActive(b []byte) (state string, ev facts.Evidence, ok bool) {
	for _, l := range Lines(b) {
		t := strings.TrimSpace(l.Text)
		if t == "" {
			continue
		}
		switch t {
		case "active", "inactive", "failed", "activating", "deactivating", "reloading", "unknown", "maintenance", "refreshing":
			return t, l.Evidence(), true
		}
		return "", facts.Evidence{}, false
	}
	return "", facts.Evidence{}, false
}

// loadStates are systemd's LoadState values, the LOAD column of list-units.
var loadStates = map[string]bool{
	"loaded": true, "not-found": true, "bad-setting": true, "error": true, "masked": true, "stub": true, "merged": true,
}

// unitName drops the ".service" suffix.
func unitName(u string) string { return strings.TrimSuffix(u, ".service") }

// OpenIBD reads the output of MLNX_OFED's `/etc/init.d/openibd restart|start|status`. It reports
// the steps the script marked as failed, e.g.
//
//	Failed loading kernel module mlx5_core:                    [FAILED]
//	Loading Mellanox MLX5 HCA driver:                          [FAILED]
//
// as tool refusals (Tool "openibd", Message without the status column). `openibd status` output
// (driver loaded, module lists) has no failure lines and gives none.
func OpenIBD(b []byte) ([]facts.ToolRefusal, error) {
	var out []facts.ToolRefusal
	for _, l := range Lines(b) {
		t := strings.TrimSpace(l.Text)
		msg, ok := strings.CutSuffix(t, "[FAILED]")
		if !ok {
			continue
		}
		msg = strings.TrimSuffix(strings.TrimSpace(msg), ":")
		out = append(out, facts.ToolRefusal{Tool: "openibd", Message: msg, Evidence: l.Evidence()})
	}
	return out, nil
}
