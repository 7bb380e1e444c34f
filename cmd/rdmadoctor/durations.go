package main

import (
	"fmt"
	"strings"
	"time"

	"github.com/urfave/cli/v2"
)

// durationLimits bound the duration flags. A live gather takes seconds (its commands mostly
// wait on the adapter's firmware), the rules' evaluation under a second: an hour is far past
// any real need, and a larger value (--timeout 100h, a typo of 100s) would leave a health check
// hanging instead of failing.
var durationLimits = map[string]time.Duration{
	"timeout":         time.Hour,
	"command-timeout": time.Hour,
	"sample":          time.Hour,
}

// durationHints say, in the message that refuses a value, what a sensible one is.
var durationHints = map[string]string{
	"timeout":         "a live gather takes seconds; the default is %v",
	"command-timeout": "a command takes seconds; the default is %v",
	"sample":          "counter rates need seconds, e.g. 10s",
}

// checkDurations refuses a duration flag of c that is out of its bounds: not positive
// (--sample may be 0, for no sampling), or above durationLimits.
func checkDurations(c *cli.Context) error {
	for _, name := range []string{"timeout", "command-timeout", "sample"} {
		if !hasFlag(c, name) {
			continue
		}
		d := c.Duration(name)
		switch {
		case name == "sample" && d < 0:
			return withCode(exitUsage, fmt.Errorf("--sample %v: must not be negative", d))
		case name != "sample" && d <= 0:
			return withCode(exitUsage, fmt.Errorf("--%s %v: must be positive", name, d))
		case d > durationLimits[name]:
			hint := durationHints[name]
			if strings.Contains(hint, "%v") {
				hint = fmt.Sprintf(hint, defaultDuration(c, name))
			}
			return withCode(exitUsage, fmt.Errorf("--%s %v: at most %v (%s)", name, d, durationLimits[name], hint))
		}
	}
	return nil
}

// hasFlag reports whether the command of c defines the flag name.
func hasFlag(c *cli.Context, name string) bool {
	for _, f := range c.Command.Flags {
		for _, n := range f.Names() {
			if n == name {
				return true
			}
		}
	}
	return false
}

// defaultDuration is the default value of the duration flag name of c's command.
func defaultDuration(c *cli.Context, name string) time.Duration {
	for _, f := range c.Command.Flags {
		if df, ok := f.(*cli.DurationFlag); ok && df.Name == name {
			return df.Value
		}
	}
	return 0
}
