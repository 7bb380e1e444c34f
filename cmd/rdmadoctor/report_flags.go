package main

import "github.com/urfave/cli/v2"

// reportFlags are the flags diagnose and fleet share word for word: what the report hides,
// which rules and ignore list it is made with, and its colours. Each call makes new flags (a
// flag holds the value it parsed).
func reportFlags() (minSeverity, rules, config, noColor cli.Flag) {
	return &cli.StringFlag{Name: "min-severity", Value: "info", Usage: "hide diagnoses below `SEVERITY`"},
		&cli.StringSliceFlag{Name: "rules", Usage: "also load the rules in `DIR` (same layout as the built-in ones); repeatable"},
		&cli.StringFlag{Name: "config", Usage: "site config `FILE` with the ignore list (default: " + configFile + " in the current directory, if present)"},
		&cli.BoolFlag{Name: "no-color", Usage: "no colours in the table (NO_COLOR is respected too)"}
}
