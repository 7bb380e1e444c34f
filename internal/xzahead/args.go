package xzahead

import "strconv"

// commandFlags are the flags of the commands whose --snapshot is read (cmd/rdmadoctor's
// diagnose and facts), each with whether it takes a value (every flag but a boolean one). A flag
// missing here makes SnapshotArg give up: cmd/rdmadoctor's TestEarlyDecoderFlags holds this
// table to the commands' flags.
var commandFlags = map[string]map[string]bool{
	"diagnose": {
		"snapshot": true, "input": true, "root": true, "sample": true,
		"format": true, "output": true, "o": true, "fail-on": true, "fail-on-incomplete": false,
		"min-severity": true, "rules": true, "config": true, "no-color": false,
		"profile": true, "verbose": false, "v": false, "timeout": true, "command-timeout": true,
	},
	"facts": {
		"snapshot": true, "input": true, "root": true, "sample": true,
		"format": true,
	},
}

// SnapshotArg returns the PATH of `PROGRAM diagnose|facts [FLAG...] --snapshot PATH [FLAG...]`
// (or --snapshot=PATH, -snapshot PATH) in args (os.Args: the program first), read as urfave/cli
// and Go's flag package read them: flags after the command, a value flag takes the next
// argument whatever it is, `--` ends the flags. It gives up (ok false) wherever the run will
// not read that PATH or it cannot be sure: another command, an unknown flag, --help, a
// repeated --snapshot, a flag without its value, a bad boolean, an argument that is not a flag
// (after `--` too), `--snapshot -` or an empty PATH.
func SnapshotArg(args []string) (path string, ok bool) {
	if len(args) < 2 {
		return "", false
	}
	flags, known := commandFlags[args[1]]
	if !known {
		return "", false
	}
	for rest := args[2:]; len(rest) > 0; {
		arg := rest[0]
		rest = rest[1:]
		if arg == "--" {
			if len(rest) > 0 {
				return "", false // arguments: a usage error
			}
			break
		}
		if len(arg) < 2 || arg[0] != '-' {
			return "", false // an argument ("-" is one)
		}
		name := arg[1:]
		if name[0] == '-' {
			name = name[1:]
		}
		if name == "" || name[0] == '-' || name[0] == '=' {
			return "", false // bad flag syntax
		}
		name, value, hasValue := cut(name, '=')
		takesValue, known := flags[name]
		switch {
		case !known:
			return "", false // --help, -h and anything unknown
		case !takesValue:
			if _, err := strconv.ParseBool(value); hasValue && err != nil {
				return "", false
			}
			continue
		case !hasValue:
			if len(rest) == 0 {
				return "", false
			}
			value, rest = rest[0], rest[1:]
		}
		if name == "snapshot" {
			if path != "" || value == "" {
				return "", false
			}
			path = value
		}
	}
	return path, path != "" && path != "-"
}

// cut is strings.Cut for a byte: package strings is initialised late (xzutils' package doc).
func cut(s string, sep byte) (before, after string, found bool) {
	for i := 0; i < len(s); i++ {
		if s[i] == sep {
			return s[:i], s[i+1:], true
		}
	}
	return s, "", false
}
