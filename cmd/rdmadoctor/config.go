package main

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/rdmadoctor/rdmadoctor/engine"
	"github.com/rdmadoctor/rdmadoctor/report"
)

// configFile is the site configuration diagnose reads from the current directory when --config
// does not name one.
const configFile = ".rdmadoctor.yaml"

// siteConfig is .rdmadoctor.yaml (docs/configuration.md):
//
//	ignore:
//	  - id: ib-port-no-subnet-manager      # a rule id (built-in or from --rules)
//	    subject: {device: mlx5_1, port: 1}  # optional: device, port, pci, netdev
//	    reason: spare port, cabled in Q3     # mandatory
type siteConfig struct {
	path   string
	ignore []ignoreEntry
}

type ignoreEntry struct {
	report.Ignore
	line int // of the entry's first key, for "unknown rule id" errors
}

// findConfig returns the config diagnose should read: --config if given, else .rdmadoctor.yaml
// in the current directory if it exists, else "".
func findConfig(flag string) (string, error) {
	if flag != "" {
		return flag, nil
	}
	_, err := os.Stat(configFile)
	switch {
	case err == nil:
		return configFile, nil
	case errors.Is(err, os.ErrNotExist):
		return "", nil
	}
	return "", fmt.Errorf("config: %w", err)
}

// readConfig reads and checks a site config. It is strict: unknown keys, a missing reason or a
// malformed subject are errors naming the file and line.
func readConfig(path string) (*siteConfig, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("config: %w", err)
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(b, &doc); err != nil {
		return nil, yamlFileError(path, err)
	}
	c := &siteConfig{path: path}
	if len(doc.Content) == 0 {
		return c, nil // empty file
	}
	p := &configParser{file: path}
	root := doc.Content[0]
	p.mapping(root, "top level", func(key string, k, v *yaml.Node) {
		switch key {
		case "ignore":
			c.ignore = p.ignoreList(v)
		default:
			p.errorf(k, "unknown key %q (want ignore)", key)
		}
	})
	if len(p.errs) > 0 {
		return nil, errors.Join(p.errs...)
	}
	return c, nil
}

// checkIDs reports ignore entries whose rule id is not in the loaded rule set.
func (c *siteConfig) checkIDs(set *engine.Set) error {
	var errs []error
	for _, e := range c.ignore {
		if set.Rule(e.ID) == nil {
			errs = append(errs, fmt.Errorf("%s:%d: ignore: unknown rule id %q (see rdmadoctor rules list)", c.path, e.line, e.ID))
		}
	}
	return errors.Join(errs...)
}

// ignores returns the entries for report.Report.Ignore.
func (c *siteConfig) ignores() []report.Ignore {
	if c == nil {
		return nil
	}
	out := make([]report.Ignore, len(c.ignore))
	for i, e := range c.ignore {
		out[i] = e.Ignore
	}
	return out
}

// configParser walks the YAML nodes and collects errors with their lines.
type configParser struct {
	file string
	errs []error
}

func (p *configParser) errorf(n *yaml.Node, format string, args ...any) {
	p.errs = append(p.errs, fmt.Errorf("%s:%d: %s", p.file, n.Line, fmt.Sprintf(format, args...)))
}

// mapping calls f for each key of n, or records an error when n is not a mapping.
func (p *configParser) mapping(n *yaml.Node, what string, f func(key string, k, v *yaml.Node)) bool {
	if n.Kind != yaml.MappingNode {
		p.errorf(n, "%s must be a mapping", what)
		return false
	}
	seen := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if seen[k.Value] {
			p.errorf(k, "%s: key %q repeated", what, k.Value)
			continue
		}
		seen[k.Value] = true
		f(k.Value, k, v)
	}
	return true
}

func (p *configParser) ignoreList(n *yaml.Node) []ignoreEntry {
	if n.Kind == yaml.ScalarNode && n.Tag == "!!null" {
		return nil
	}
	if n.Kind != yaml.SequenceNode {
		p.errorf(n, "ignore must be a list of {id, subject, reason}")
		return nil
	}
	var out []ignoreEntry
	for _, item := range n.Content {
		e := ignoreEntry{line: item.Line}
		ok := p.mapping(item, "ignore entry", func(key string, k, v *yaml.Node) {
			switch key {
			case "id":
				e.ID = p.str(k, v)
				e.line = k.Line
			case "reason":
				e.Reason = strings.TrimSpace(p.str(k, v))
			case "subject":
				e.Subject = p.subject(v)
			default:
				p.errorf(k, "ignore entry: unknown key %q (want id, subject, reason)", key)
			}
		})
		if !ok {
			continue
		}
		if e.ID == "" {
			p.errorf(item, "ignore entry without id")
		}
		if e.Reason == "" {
			p.errorf(item, "ignore entry for %q has no reason (say why the site accepts it)", e.ID)
		}
		out = append(out, e)
	}
	return out
}

func (p *configParser) subject(n *yaml.Node) report.Subject {
	var s report.Subject
	p.mapping(n, "subject", func(key string, k, v *yaml.Node) {
		switch key {
		case "device":
			s.Device = p.str(k, v)
		case "pci":
			s.PCI = p.str(k, v)
		case "netdev":
			s.Netdev = p.str(k, v)
		case "node_guid":
			s.NodeGUID = p.str(k, v)
		case "port":
			port, err := strconv.Atoi(v.Value)
			if v.Kind != yaml.ScalarNode || err != nil || port < 1 {
				p.errorf(v, "subject: port must be a port number (1, 2, ...), not %q", v.Value)
				return
			}
			s.Port = &port
		default:
			p.errorf(k, "subject: unknown key %q (want device, port, pci, netdev, node_guid)", key)
		}
	})
	return s
}

func (p *configParser) str(k, v *yaml.Node) string {
	if v.Kind != yaml.ScalarNode || v.Tag == "!!null" || v.Value == "" {
		p.errorf(v, "%s must be a non-empty string", k.Value)
		return ""
	}
	return v.Value
}
