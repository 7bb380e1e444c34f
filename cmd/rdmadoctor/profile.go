package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"regexp"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/facts/schema"
)

// profileValues are the allowed values of the profile's enumerated keys, by key path
// ("*" matches any device name or port number); docs/profile.schema.json has the same enums.
var profileValues = schema.ProfileEnums()

// readProfile reads the site profile (docs/profiles.md). Unknown keys and values outside
// the allowed ones are errors that name the file and line.
func readProfile(path string) (*facts.Profile, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("profile: %w", err)
	}
	var p facts.Profile
	dec := yaml.NewDecoder(bytes.NewReader(b))
	dec.KnownFields(true)
	if err := dec.Decode(&p); err != nil && !errors.Is(err, io.EOF) {
		return nil, yamlFileError(path, err)
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(b, &doc); err != nil {
		return nil, yamlFileError(path, err)
	}
	if len(doc.Content) > 0 {
		if err := checkValues(path, doc.Content[0], ""); err != nil {
			return nil, err
		}
		if err := checkPositive(path, doc.Content[0]); err != nil {
			return nil, err
		}
	}
	return &p, nil
}

func checkValues(file string, n *yaml.Node, prefix string) error {
	if n.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		key, val := n.Content[i], n.Content[i+1]
		p := key.Value
		if prefix != "" {
			p = prefix + "." + key.Value
		}
		if allowed, ok := profileValues[p]; ok && val.Kind == yaml.ScalarNode && !contains(allowed, val.Value) {
			return fmt.Errorf("%s:%d: %s: %q is not one of %s", file, val.Line, key.Value, val.Value, strings.Join(allowed, ", "))
		}
		child := p
		if prefix == "devices" || strings.HasSuffix(prefix, ".ports") {
			child = prefix + ".*"
		}
		if strings.HasSuffix(prefix, ".ports") {
			// Ports are keyed by number, as ibstat and sysfs number them; "one" would match no
			// port and the intent would be ignored.
			if n, err := strconv.Atoi(key.Value); err != nil || n < 1 {
				return fmt.Errorf("%s:%d: ports: %q is not a port number (1, 2, ...)", file, key.Line, key.Value)
			}
		}
		if err := checkValues(file, val, child); err != nil {
			return err
		}
	}
	return nil
}

// checkPositive refuses counts and rates that are not positive numbers (yaml.v3 would turn
// 2.5 ports into 2).
func checkPositive(file string, root *yaml.Node) error {
	for i := 0; i+1 < len(root.Content); i += 2 {
		key, val := root.Content[i], root.Content[i+1]
		switch key.Value {
		case "expected_rate_gbps", "expected_active_ports":
			f, err := strconv.ParseFloat(val.Value, 64)
			whole := key.Value != "expected_active_ports" || f == float64(int(f))
			if err != nil || f <= 0 || !whole {
				return fmt.Errorf("%s:%d: %s: %q is not a positive %s", file, val.Line, key.Value, val.Value,
					map[bool]string{true: "number", false: "whole number"}[key.Value == "expected_rate_gbps"])
			}
		}
	}
	return nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

var yamlLine = regexp.MustCompile(`^(?:yaml: )?line (\d+): `)

// yamlWording rewords yaml.v3's Go-flavoured messages for people who write YAML, not Go.
var yamlWording = []struct {
	re   *regexp.Regexp
	with string
}{
	{regexp.MustCompile(`field (\S+) not found in type \S+`), `unknown key "$1"`},
	{regexp.MustCompile("cannot unmarshal !!\\w+ `([^`]*)` into (?:float64|int|int64|\\*float64|\\*int)"), `"$1" is not a number`},
	{regexp.MustCompile("cannot unmarshal !!\\w+ `([^`]*)` into bool"), `"$1" is not true or false`},
	{regexp.MustCompile("cannot unmarshal !!(seq|map|str) (?:`[^`]*` )?into (?:map|\\[\\]|struct|facts\\.)\\S*"), `a $1 is not allowed here`},
}

// yamlFileError turns yaml.v3's "line 3: msg" messages into "file:3: msg".
func yamlFileError(file string, err error) error {
	msgs := []string{err.Error()}
	var te *yaml.TypeError
	if errors.As(err, &te) {
		msgs = te.Errors
	}
	for i, m := range msgs {
		m = strings.TrimSpace(m)
		for _, w := range yamlWording {
			m = w.re.ReplaceAllString(m, w.with)
		}
		if sm := yamlLine.FindStringSubmatch(m); sm != nil {
			msgs[i] = file + ":" + sm[1] + ": " + m[len(sm[0]):]
		} else {
			msgs[i] = file + ": " + strings.TrimPrefix(m, "yaml: ")
		}
	}
	return errors.New(strings.Join(msgs, "\n"))
}
