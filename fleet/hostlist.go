package fleet

import (
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// HostList compresses host names the way Slurm writes a host list (`scontrol show
// hostlistsorted`): the names that differ only in a trailing number share one bracket of
// ranges, "node[001-037,040],gpu07". A range keeps the numbers' zero padding (node[001-003]
// is node001, node002, node003; node[9-10] is node9, node10), and a name without a trailing
// number is written as it is. The result is sorted by prefix and, within a bracket, by number;
// duplicates are written once. It does not check that the names are valid host names: a label
// such as "node01#2" (the second snapshot of node01) is a prefix "node01#" and a number.
//
// A name that holds what a host list means something by (`[`, `]`, `,`, a blank or a control
// character, a double quote or a backslash: Slurm's hostlist splits on commas and blanks and
// reads brackets as ranges, and has no quoting of its own) is never put in a range and is
// written double-quoted with Go's escapes (strconv.Quote): a hostname "node[1-3]" read from a
// snapshot is `"node[1-3]"`, one host, never node1, node2 and node3; "a,b" is `"a,b"`, never
// a and b. A list without such names is exactly scontrol's.
//
// No Go host list library is served by this project's module proxy (the hostlist packages of
// SlinkyProject/slurm-client and daos-stack/daos were looked for), hence this one;
// TestHostListMatchesScontrol compares it with Slurm's own scontrol.
func HostList(hosts []string) string {
	type item struct{ key, text string }
	var items []item
	byPrefix := map[string][]hostNumber{}
	var literals []string
	seen := map[string]bool{}
	for _, h := range hosts {
		if seen[h] {
			continue
		}
		seen[h] = true
		if needsQuoting(h) {
			items = append(items, item{h, strconv.Quote(h)})
			continue
		}
		prefix, digits := splitNumber(h)
		if digits == "" {
			literals = append(literals, h)
			continue
		}
		v, err := strconv.ParseUint(digits, 10, 64)
		if err != nil { // more digits than a uint64: not worth a range
			literals = append(literals, h)
			continue
		}
		byPrefix[prefix] = append(byPrefix[prefix], hostNumber{value: v, digits: digits})
	}
	for _, l := range literals {
		items = append(items, item{l, l})
	}
	for prefix, nums := range byPrefix {
		rs := ranges(nums)
		if len(rs) == 1 && rs[0].lo == rs[0].hi {
			items = append(items, item{prefix, prefix + rs[0].format(rs[0].lo)})
			continue
		}
		parts := make([]string, len(rs))
		for i, r := range rs {
			parts[i] = r.String()
		}
		items = append(items, item{prefix, prefix + "[" + strings.Join(parts, ",") + "]"})
	}
	sort.Slice(items, func(i, j int) bool {
		if items[i].key != items[j].key {
			return items[i].key < items[j].key
		}
		return items[i].text < items[j].text
	})
	out := make([]string, len(items))
	for i, it := range items {
		out[i] = it.text
	}
	return strings.Join(out, ",")
}

// needsQuoting reports whether host holds a character a host list gives a meaning to, or is
// empty (HostList).
func needsQuoting(host string) bool {
	return host == "" || strings.ContainsFunc(host, func(r rune) bool {
		return r == '[' || r == ']' || r == ',' || r == '"' || r == '\\' || unicode.IsSpace(r) || unicode.IsControl(r)
	}) || !utf8.ValidString(host)
}

// hostNumber is the trailing number of a host name, with its digits as written.
type hostNumber struct {
	value  uint64
	digits string
}

// hostRange is lo..hi written zero-padded to width (0: not padded).
type hostRange struct {
	lo, hi uint64
	width  int
}

func (r hostRange) format(v uint64) string {
	s := strconv.FormatUint(v, 10)
	if len(s) < r.width {
		s = strings.Repeat("0", r.width-len(s)) + s
	}
	return s
}

func (r hostRange) String() string {
	if r.lo == r.hi {
		return r.format(r.lo)
	}
	return r.format(r.lo) + "-" + r.format(r.hi)
}

// ranges joins numbers into ranges: a number extends a range that ends just below it when the
// range's padding writes it with the same digits (099 then 100 is 099-100; 9 then 010 is not).
func ranges(nums []hostNumber) []hostRange {
	sort.Slice(nums, func(i, j int) bool {
		if nums[i].value != nums[j].value {
			return nums[i].value < nums[j].value
		}
		return len(nums[i].digits) > len(nums[j].digits)
	})
	var rs []hostRange
	open := map[uint64][]int{} // hi+1 -> indexes of the ranges it would extend
	for _, n := range nums {
		extended := false
		for k, i := range open[n.value] {
			if rs[i].format(n.value) == n.digits {
				rs[i].hi = n.value
				open[n.value] = append(open[n.value][:k:k], open[n.value][k+1:]...)
				open[n.value+1] = append(open[n.value+1], i)
				extended = true
				break
			}
		}
		if extended {
			continue
		}
		width := 0
		if len(n.digits) > 1 && n.digits[0] == '0' {
			width = len(n.digits)
		}
		rs = append(rs, hostRange{lo: n.value, hi: n.value, width: width})
		open[n.value+1] = append(open[n.value+1], len(rs)-1)
	}
	sort.SliceStable(rs, func(i, j int) bool {
		if rs[i].lo != rs[j].lo {
			return rs[i].lo < rs[j].lo
		}
		return rs[i].width < rs[j].width
	})
	return rs
}

// splitNumber splits a trailing run of ASCII digits off name.
func splitNumber(name string) (prefix, digits string) {
	i := len(name)
	for i > 0 && name[i-1] >= '0' && name[i-1] <= '9' {
		i--
	}
	return name[:i], name[i:]
}

// hostLess orders host labels the way people number nodes: by prefix, then by the trailing
// number's value (node9 before node10), then as strings (node01 before node01#2).
func hostLess(a, b string) bool {
	pa, da := splitNumber(a)
	pb, db := splitNumber(b)
	if pa != pb || da == "" || db == "" {
		return a < b
	}
	va, ea := strconv.ParseUint(da, 10, 64)
	vb, eb := strconv.ParseUint(db, 10, 64)
	if ea != nil || eb != nil || va == vb {
		return a < b
	}
	return va < vb
}
