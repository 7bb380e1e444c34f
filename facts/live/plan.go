package live

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/rdmadoctor/rdmadoctor/facts/build"
)

// Command is one thing to run, with alternatives: a spec's build.LiveCommand expanded for one
// object of its scope.
type Command struct {
	// Plugin is the sos plugin folder the output goes to (sos_commands/<plugin>/).
	Plugin string
	// Alts are argvs tried in order: the first whose tool is installed runs.
	Alts [][]string
	// Fallback also tries the next installed alternative when the chosen one exits non-zero
	// (dmesg is refused to unprivileged users; journalctl -k may still work).
	Fallback bool
	// Counters marks output that --sample reads a second time (ethtool -S).
	Counters bool
}

// Plan lists the commands to run for what Discover found, from the specs' Live declarations:
// node-wide commands, then per RDMA device, per ACTIVE InfiniBand port, per Mellanox physical
// function (never VFs) and per netdev with hardware behind it.
func Plan(inv Inventory) []Command {
	specs := build.Specs()
	var cmds []Command
	add := func(per build.Scope, args map[string]string) {
		for _, sp := range specs {
			for _, lc := range sp.Live {
				if lc.Per == per {
					cmds = append(cmds, expand(sp, lc, args))
				}
			}
		}
	}
	add(build.PerNode, nil)
	for _, d := range inv.Devices {
		add(build.PerDevice, map[string]string{build.ArgDev: d.Name})
	}
	for _, d := range inv.Devices {
		for _, p := range d.Ports {
			if p.ActiveIB() {
				add(build.PerActiveIBPort, map[string]string{build.ArgDev: d.Name, build.ArgPort: strconv.Itoa(p.Number)})
			}
		}
	}
	for _, bdf := range inv.PFs() {
		add(build.PerPF, map[string]string{build.ArgPCI: bdf})
	}
	for _, n := range inv.Netdevs {
		if n.HasDevice {
			add(build.PerNetdev, map[string]string{build.ArgNetdev: n.Name})
		}
	}
	return cmds
}

// expand fills the placeholders of lc's argv templates with args.
func expand(sp build.Spec, lc build.LiveCommand, args map[string]string) Command {
	c := Command{Plugin: sp.Plugin, Fallback: lc.Fallback, Counters: lc.Counters}
	for _, tmpl := range lc.Alts {
		argv := make([]string, len(tmpl))
		for i, a := range tmpl {
			if v, ok := args[a]; ok {
				a = v
			}
			argv[i] = a
		}
		c.Alts = append(c.Alts, argv)
	}
	return c
}

// String is the first alternative's command line.
func (c Command) String() string { return strings.Join(c.Alts[0], " ") }

// notInstalled explains that no alternative's tool is installed.
func (c Command) notInstalled() string {
	var parts []string
	for i, a := range c.Alts {
		msg := fmt.Sprintf("%s not installed (package: %s)", a[0], packageOf(a[0]))
		if i > 0 {
			msg = "nor " + msg
		}
		parts = append(parts, msg)
	}
	return strings.Join(parts, ", ")
}
