package parse

import (
	"regexp"
	"slices"
	"strings"
	"testing"
)

// The hot paths of the ip and sysfs parsers split lines with strings functions instead of the
// regexps they replaced; these fuzz tests hold them to the regexps' answers.

func FuzzIPHeader(f *testing.F) {
	re := regexp.MustCompile(`^\s*(\d+):\s+([^:\s]+(?:@[^:\s]+)?):?\s+(.*)$`)
	for _, s := range []string{
		"9: ib0: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 65520 qdisc pfifo_fast state UP qlen 1024",
		"5: enp1s0f0.1005@enp1s0f0: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 1500",
		"2: eth0    inet 10.0.0.1/24 brd 10.0.0.255 scope global eth0\\       valid_lft forever",
		"  12:\tib1 \t", "1: lo:", "1:lo: x", "1: a:b: c", "1: a::  c", "1: a\n b", "x: a: b", "1: :a b",
		"1: a@: b", "1: \xff\xfe: b", "\v1: a: b", "1: a: \n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		name, rest, ok := ipHeader(s)
		m := re.FindStringSubmatch(s)
		if ok != (m != nil) || ok && (name != m[2] || rest != m[3]) {
			t.Errorf("ipHeader(%q) = %q, %q, %v; regexp: %q", s, name, rest, ok, m)
		}
	})
}

func FuzzIPFlags(f *testing.F) {
	re := regexp.MustCompile(`<([^>]*)>`)
	for _, s := range []string{"<BROADCAST,UP> mtu 1500", "<>", "a < b", "x > <y", "<<a>>", "<a\nb>", "\xff<\xfe>"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		flags, ok := ipFlags(s)
		m := re.FindStringSubmatch(s)
		if ok != (m != nil) || ok && flags != m[1] {
			t.Errorf("ipFlags(%q) = %q, %v; regexp: %q", s, flags, ok, m)
		}
	})
}

func FuzzSysfsPortFile(f *testing.F) {
	re := regexp.MustCompile(`^ports/(\d+)/(.+)$`)
	for _, s := range []string{"ports/1/state", "ports/12/counters/symbol_error", "ports//state", "ports/1/",
		"ports/a/state", "ports/1a/state", "ports/1/a\nb", "ports/1/\xff", "xports/1/state", "ports/1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		num, attr, ok := sysfsPortFile(s)
		m := re.FindStringSubmatch(s)
		if ok != (m != nil) || ok && (num != m[1] || attr != m[2]) {
			t.Errorf("sysfsPortFile(%q) = %q, %q, %v; regexp: %q", s, num, attr, ok, m)
		}
	})
}

func FuzzLines(f *testing.F) {
	// Lines as it was written first, with strings.Split.
	split := func(b []byte) []Line {
		s := strings.TrimSuffix(string(b), "\n")
		if s == "" {
			return nil
		}
		parts := strings.Split(s, "\n")
		out := make([]Line, len(parts))
		for i, p := range parts {
			out[i] = Line{N: i + 1, Text: strings.TrimSuffix(p, "\r")}
		}
		return out
	}
	for _, s := range []string{"", "\n", "\n\n", "a", "a\n", "a\r\nb\r\n", "a\n\nb", "\r", "\r\n\r\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if got, want := Lines(b), split(b); !slices.Equal(got, want) {
			t.Errorf("Lines(%q) = %+v, want %+v", b, got, want)
		}
	})
}
