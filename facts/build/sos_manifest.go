package build

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"sort"
	"strings"

	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/facts/source"
)

// SosManifest is the file in which sos (4.0 and later) records every command it ran, per plugin:
// components.report.plugins.<plugin>.commands[] = {exec, filepath, return_code, run_time}, and
// the plugin's timeout_hit (sos/report/__init__.py, sos/report/plugins/__init__.py
// _collect_cmd_output). It is the only place where a sosreport says that a command was cut at its
// timeout: the output up to then is written to the command's file like any other.
const SosManifest = "sos_reports/manifest.json"

// sosTimeoutCode is the return code sos records for a command killed at its timeout (it runs
// commands under timeout(1), which exits 124; sos logs "command '...' timed out after Ns").
const sosTimeoutCode = 124

// sosManifestSource names the manifest's own source when it cannot be read.
const sosManifestSource = "sos_manifest"

// sosManifest is what rdmadoctor reads of SosManifest; the other fields are ignored.
type sosManifest struct {
	Components struct {
		Report struct {
			Plugins map[string]sosPlugin `json:"plugins"`
		} `json:"report"`
	} `json:"components"`
}

// sosPlugin is one plugin of the manifest: TimeoutHit is set when the plugin as a whole hit its
// timeout (sos then runs none of its remaining commands; the one running is killed and neither
// its file nor its command is recorded).
type sosPlugin struct {
	TimeoutHit bool         `json:"timeout_hit"`
	Commands   []sosCommand `json:"commands"`
}

// sosCommand is one command of a plugin. Filepath is relative to the report's top folder
// (sos_commands/infiniband/ibstat), null for a command that was not found; RunTime is seconds.
type sosCommand struct {
	Exec       string  `json:"exec"`
	Filepath   *string `json:"filepath"`
	ReturnCode *int    `json:"return_code"`
	RunTime    float64 `json:"run_time"`
}

// applySosManifest reads SosManifest of the sosreport fsys, when it has one (sos before 4.0
// wrote none: nothing is then known, and nothing is said), and marks in s.Sources what sos
// recorded as timed out:
//   - a command whose return_code is 124 and whose file a spec read: that file's sources (all
//     parts of a split file) are partial when they were read (its facts are kept: what the
//     command printed before it was killed), timeout when nothing was read of it (empty,
//     unrecognised content); any other status keeps its own, the note says it timed out;
//   - a plugin that hit its timeout and whose files a spec reads or lists: a timeout source
//     naming the plugin, for the commands sos never ran;
//
// A timeout on a file no spec reads changes nothing. A manifest that cannot be read or parsed
// (over MaxFileBytes, not JSON, a field of the wrong type: jsonError; no plugins at all: null,
// {}) is a partial source of its own,
// sos_manifest, saying why: what sos may have cut is then unknown.
func applySosManifest(s *facts.Snapshot, fsys fs.FS) {
	b, err := readFile(fsys, SosManifest)
	if err != nil {
		if _, statErr := fs.Lstat(fsys, SosManifest); statErr != nil {
			return // no manifest: an older sos
		}
		s.Sources = append(s.Sources, manifestUnread(unreadable(err)))
		return
	}
	var m sosManifest
	if err := json.Unmarshal(b, &m); err != nil {
		s.Sources = append(s.Sources, manifestUnread(jsonError(err, len(b))))
		return
	}
	if m.Components.Report.Plugins == nil {
		// null, {} or a manifest without components.report.plugins: sos's records of what it
		// ran are not there, so what it may have cut is unknown.
		s.Sources = append(s.Sources, manifestUnread("not sos's layout: no components.report.plugins"))
		return
	}
	bySource := map[string][]int{} // origin -> positions in s.Sources of the specs' sources
	for i, src := range s.Sources {
		if src.Name != "unrecognized" && src.Name != "unreadable" && src.Name != "walk" {
			bySource[src.Origin] = append(bySource[src.Origin], i)
		}
	}
	plugins := make([]string, 0, len(m.Components.Report.Plugins))
	for name := range m.Components.Report.Plugins {
		plugins = append(plugins, name)
	}
	sort.Strings(plugins)
	for _, name := range plugins {
		pl := m.Components.Report.Plugins[name]
		relevant := Select("sos_commands/"+name, true) != source.Skip // its folder is read or listed
		for _, c := range pl.Commands {
			if c.Filepath == nil {
				continue
			}
			if _, ok := bySource[*c.Filepath]; ok {
				relevant = true
			}
			if c.ReturnCode == nil || *c.ReturnCode != sosTimeoutCode {
				continue
			}
			why := sosTimeoutWhy(c.Exec, c.RunTime)
			for _, i := range bySource[*c.Filepath] {
				s.Sources[i] = timedOut(s.Sources[i], why)
			}
			if len(bySource[*c.Filepath]) == 0 {
				noFile(s, *c.Filepath, why)
			}
		}
		if pl.TimeoutHit && relevant {
			s.Sources = append(s.Sources, facts.Source{Name: sosManifestSource, Origin: SosManifest, Status: facts.StatusTimeout,
				Error: fmt.Sprintf("sos plugin %s hit its timeout: the commands it had not run by then are not in the report", name)})
		}
	}
}

// sosTimeoutPrefix opens the error of every source sos's manifest says timed out (SosTimedOut).
const sosTimeoutPrefix = "timed out (sos: "

// sosTimeoutWhy words the timeout of command exec (its manifest "exec", "" when missing) that ran
// runTime seconds (0 when missing): "timed out (sos: return code 124 after its timeout; ibstat
// ran 300 s)".
func sosTimeoutWhy(exec string, runTime float64) string {
	why := fmt.Sprintf("%sreturn code %d after its timeout", sosTimeoutPrefix, sosTimeoutCode)
	switch {
	case exec != "" && runTime > 0:
		why += fmt.Sprintf("; %s ran %.0f s", exec, runTime)
	case exec != "":
		why += "; " + exec
	}
	return why + ")"
}

// SosTimedOut reports whether src is a source that sos's manifest says timed out: a command sos
// killed at its timeout (partial or timeout), or a plugin that hit its own (source sos_manifest):
// what rdmadoctor's --timeout cannot help, and sos's timeouts can.
func SosTimedOut(src facts.Source) bool {
	return src.Name == sosManifestSource && src.Status == facts.StatusTimeout || strings.HasPrefix(src.Error, sosTimeoutPrefix)
}

// noFile records that sos killed the command of filepath at its timeout without leaving its
// file: the spec that reads it, said missing ("not in snapshot: install ..."), is a timeout
// instead, why saying so.
func noFile(s *facts.Snapshot, filepath, why string) {
	spec := SpecOf(filepath)
	for i, src := range s.Sources {
		if spec != "" && src.Name == spec && src.Status == facts.StatusMissing {
			s.Sources[i].Status, s.Sources[i].Origin = facts.StatusTimeout, filepath
			s.Sources[i].Error = facts.Clip(why+": sos left no file of its output", facts.MaxMessageBytes)
		}
	}
}

// timedOut records in src, the source of a file sos wrote for a command it killed at its
// timeout, that only the command's output until then was read.
func timedOut(src facts.Source, why string) facts.Source {
	if src.ReadInPart(why + ": only what it printed until then was read") {
		return src
	}
	switch src.Status {
	case facts.StatusEmpty, facts.StatusUnrecognized:
		src.Note = facts.Clip(strings.TrimSpace(src.Note+" "+src.Error), facts.MaxMessageBytes)
		src.Status, src.Error = facts.StatusTimeout, facts.Clip(why, facts.MaxMessageBytes)
	default:
		src.Note = facts.Clip(strings.TrimSpace(src.Note+" "+why), facts.MaxMessageBytes)
	}
	return src
}

// jsonError words err, json.Unmarshal's error on a manifest of n bytes, with the byte offset it
// is at: "not JSON: byte 12000 of 12000: unexpected end of JSON input" (a copy cut short),
// "not sos's layout: byte 2761: components.report.plugins.commands.return_code is a JSON string".
func jsonError(err error, n int) string {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		return fmt.Sprintf("not JSON: byte %d of %d: %v", syn.Offset, n, err)
	case errors.As(err, &typ):
		field := typ.Field
		if field == "" {
			field = "the top level"
		}
		return fmt.Sprintf("not sos's layout: byte %d: %s is a JSON %s", typ.Offset, field, typ.Value)
	}
	return "not read: " + err.Error()
}

// manifestUnread is the partial source of a manifest that could not be used.
func manifestUnread(why string) facts.Source {
	return facts.Source{Name: sosManifestSource, Origin: SosManifest, Status: facts.StatusPartial,
		Error: facts.Clip(why+": the commands sos may have cut at their timeout are not known", facts.MaxMessageBytes)}
}
