package html

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
)

// chart is one plot of the page, as inline SVG geometry (computed here, written by the
// template, so every label is escaped like the rest of the page). Empty says, in a sentence,
// why there is nothing to draw.
type chart struct {
	ID, Title, Caption, Empty string
	Width, Height             int
	Bars                      []barRow
	Strips                    []stripRow
	Ticks                     []tick
	// AxisY is where the tick labels of a strip plot stand.
	AxisY int
	// Notes name the odd ones out in words, under the plot.
	Notes []string
	Cut   string
}

// Chart layout, in SVG pixels.
const (
	chartWidth  = 760
	labelWidth  = 190
	plotLeft    = labelWidth + 10
	plotWidth   = 480
	rowHeight   = 28
	barHeight   = 18
	chartTop    = 8
	maxRows     = 30
	maxMembers  = 6
	stripLabels = 3
)

// palette colours a row's values by how common they are: the most common steel blue, the odd
// ones out warm.
var palette = []string{"#4f7fb8", "#e8833a", "#c0392b", "#8e44ad", "#16a085", "#b8860b", "#7f8c8d"}

type barRow struct {
	Label string
	Y     int
	Total string
	Segs  []barSeg
}

type barSeg struct {
	X, W, TextX float64
	Fill        string
	Text, Title string
}

type stripRow struct {
	Label string
	Y     int
	Dots  []dot
	Marks []mark
}

type dot struct {
	X     float64
	R     float64
	Title string
}

type mark struct {
	X     float64
	Y     int
	Text  string
	Title string
}

type tick struct {
	X    float64
	Text string
}

// tally counts members (a host, or "host device/port") by category (a CA type, a PSID) and value
// (a rate, a firmware version).
type tally map[string]map[string][]string

func (t tally) add(category, value, member string) {
	if category == "" || value == "" {
		return
	}
	if t[category] == nil {
		t[category] = map[string][]string{}
	}
	t[category][value] = append(t[category][value], member)
}

// bars draws one stacked bar per category, its values most common first; unit names what a
// member is ("ports", "nodes").
func bars(id, title, caption, empty, unit string, t tally) chart {
	c := chart{ID: id, Title: title, Caption: caption, Width: chartWidth}
	if len(t) == 0 {
		c.Empty = empty
		c.Height = 0
		return c
	}
	type value struct {
		name    string
		members []string
	}
	type category struct {
		name   string
		total  int
		values []value
	}
	var cats []category
	for name, vals := range t {
		cat := category{name: name}
		for v, m := range vals {
			sort.Strings(m)
			cat.values = append(cat.values, value{v, m})
			cat.total += len(m)
		}
		sort.Slice(cat.values, func(a, b int) bool {
			if len(cat.values[a].members) != len(cat.values[b].members) {
				return len(cat.values[a].members) > len(cat.values[b].members)
			}
			return naturalLess(cat.values[a].name, cat.values[b].name)
		})
		cats = append(cats, cat)
	}
	sort.Slice(cats, func(a, b int) bool {
		// the categories with several values first: they are what the plot is for
		if ma, mb := len(cats[a].values) > 1, len(cats[b].values) > 1; ma != mb {
			return ma
		}
		if cats[a].total != cats[b].total {
			return cats[a].total > cats[b].total
		}
		return cats[a].name < cats[b].name
	})
	if len(cats) > maxRows {
		c.Cut = fmt.Sprintf("%d more %s with fewer %s are not drawn.", len(cats)-maxRows, plural(len(cats)-maxRows, "category", "categories"), unit)
		cats = cats[:maxRows]
	}
	for i, cat := range cats {
		row := barRow{Label: cat.name, Y: chartTop + i*rowHeight, Total: strconv.Itoa(cat.total) + " " + unit}
		x := float64(plotLeft)
		for j, v := range cat.values {
			w := float64(plotWidth) * float64(len(v.members)) / float64(cat.total)
			s := barSeg{X: x, W: w, Fill: palette[min(j, len(palette)-1)],
				Title: fmt.Sprintf("%s: %s, %d %s: %s", cat.name, v.name, len(v.members), unit, members(v.members, 40))}
			text := fmt.Sprintf("%s ×%d", v.name, len(v.members))
			if w >= float64(len([]rune(text)))*6.6+8 {
				s.Text, s.TextX = text, x+w/2
			} else if w >= float64(len([]rune(v.name)))*6.6+8 {
				s.Text, s.TextX = v.name, x+w/2
			}
			row.Segs = append(row.Segs, s)
			x += w
		}
		c.Bars = append(c.Bars, row)
		if len(cat.values) > 1 {
			parts := []string{fmt.Sprintf("%d at %s", len(cat.values[0].members), cat.values[0].name)}
			for _, v := range cat.values[1:] {
				parts = append(parts, fmt.Sprintf("%d at %s (%s)", len(v.members), v.name, members(v.members, maxMembers)))
			}
			c.Notes = append(c.Notes, fmt.Sprintf("%s: %s", cat.name, strings.Join(parts, "; ")))
		}
	}
	c.Height = chartTop*2 + len(c.Bars)*rowHeight
	return c
}

// point is one counter value of one member.
type point struct {
	member string
	value  int64
}

// strips draws one row per counter: each member's value as a dot on a log scale, the members at
// one pixel merged into one dot (so a 10,000-node fleet draws at most plotWidth dots a row), the
// highest values named.
func strips(id, title, caption, empty string, series map[string][]point) chart {
	c := chart{ID: id, Title: title, Caption: caption, Width: chartWidth}
	type row struct {
		name   string
		points []point
		max    int64
	}
	var rows []row
	var top int64
	for name, pts := range series {
		r := row{name: name, points: pts}
		for _, p := range pts {
			r.max = max(r.max, p.value)
		}
		if r.max > 0 {
			rows = append(rows, r)
			top = max(top, r.max)
		}
	}
	if len(rows) == 0 {
		c.Empty = empty
		return c
	}
	sort.Slice(rows, func(a, b int) bool {
		if rows[a].max != rows[b].max {
			return rows[a].max > rows[b].max
		}
		return rows[a].name < rows[b].name
	})
	const maxStrips = 12
	if len(rows) > maxStrips {
		c.Cut = fmt.Sprintf("%d more counters with lower values are not drawn.", len(rows)-maxStrips)
		rows = rows[:maxStrips]
	}
	decades := math.Ceil(math.Log10(float64(top) + 1))
	xOf := func(v int64) float64 {
		return float64(plotLeft) + float64(plotWidth)*math.Log10(float64(v)+1)/decades
	}
	for d := 0; d <= int(decades); d++ {
		c.Ticks = append(c.Ticks, tick{X: float64(plotLeft) + float64(plotWidth)*float64(d)/decades, Text: decade(d)})
	}
	for i, r := range rows {
		sr := stripRow{Label: r.name, Y: chartTop + 14 + i*rowHeight}
		byPixel := map[int][]point{}
		var pixels []int
		for _, p := range r.points {
			px := int(math.Round(xOf(p.value)))
			if byPixel[px] == nil {
				pixels = append(pixels, px)
			}
			byPixel[px] = append(byPixel[px], p)
		}
		sort.Ints(pixels)
		for _, px := range pixels {
			pts := byPixel[px]
			names := make([]string, len(pts))
			for j, p := range pts {
				names[j] = fmt.Sprintf("%s %d", p.member, p.value)
			}
			sort.Strings(names)
			sr.Dots = append(sr.Dots, dot{X: float64(px), R: 3 + math.Min(5, math.Log2(float64(len(pts)))),
				Title: fmt.Sprintf("%s: %s", r.name, members(names, 20))})
		}
		sorted := append([]point(nil), r.points...)
		sort.SliceStable(sorted, func(a, b int) bool {
			if sorted[a].value != sorted[b].value {
				return sorted[a].value > sorted[b].value
			}
			return sorted[a].member < sorted[b].member
		})
		var named []string
		for j := 0; j < len(sorted) && j < stripLabels && sorted[j].value > 0; j++ {
			named = append(named, fmt.Sprintf("%s %d", sorted[j].member, sorted[j].value))
		}
		if len(sorted) > 0 && sorted[0].value > 0 {
			sr.Marks = append(sr.Marks, mark{X: xOf(sorted[0].value), Y: sr.Y - 7, Text: sorted[0].member,
				Title: fmt.Sprintf("%s: highest %s", r.name, strings.Join(named, ", "))})
		}
		c.Strips = append(c.Strips, sr)
		c.Notes = append(c.Notes, fmt.Sprintf("%s: highest %s (of %d)", r.name, strings.Join(named, ", "), len(r.points)))
	}
	c.AxisY = chartTop + 14 + len(c.Strips)*rowHeight
	c.Height = c.AxisY + 14
	return c
}

func decade(d int) string {
	switch {
	case d == 0:
		return "0"
	case d < 3:
		return strconv.Itoa(int(math.Pow10(d)))
	case d < 6:
		return strconv.Itoa(int(math.Pow10(d-3))) + "k"
	case d < 9:
		return strconv.Itoa(int(math.Pow10(d-6))) + "M"
	}
	return "1e" + strconv.Itoa(d)
}

// members lists up to n names, then "and N more".
func members(m []string, n int) string {
	if len(m) <= n {
		return strings.Join(m, ", ")
	}
	return strings.Join(m[:n], ", ") + fmt.Sprintf(" and %d more", len(m)-n)
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// naturalLess orders "16.35.2000" before "16.35.10000" and "100 Gb/s" before "200 Gb/s".
func naturalLess(a, b string) bool {
	for a != "" && b != "" {
		da, db := digits(a), digits(b)
		if da > 0 && db > 0 {
			na, _ := strconv.ParseUint(a[:da], 10, 64)
			nb, _ := strconv.ParseUint(b[:db], 10, 64)
			if na != nb {
				return na < nb
			}
			a, b = a[da:], b[db:]
			continue
		}
		if a[0] != b[0] {
			return a[0] < b[0]
		}
		a, b = a[1:], b[1:]
	}
	return len(a) < len(b)
}

func digits(s string) int {
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return i
}
