package parse

import (
	"net"
	"strconv"
	"strings"

	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/internal/lazyregexp"
)

// ShowGIDs parses the output of Mellanox's `show_gids` script (MLNX_OFED / DOCA), which walks
// /sys/class/infiniband/*/ports/*/gids and gid_attrs:
//
//	DEV	PORT	INDEX	GID					IPv4  		VER	DEV
//	---	----	-----	---					------------  	---	---
//	mlx5_0	1	6	0000:0000:0000:0000:0000:ffff:0a98:000c	10.152.0.12  	v1	net1
//	mlx5_0	1	5	fe80:0000:0000:0000:a4ed:ccff:fe8b:1994			v2	net1
//	n_gids_found=4
//
// The IPv4 column is empty for non-mapped GIDs, so rows have six or seven fields. VER "v1"/"v2"
// becomes GID type "RoCE v1"/"RoCE v2". An empty table parses to no devices. Port.Netdev is the
// netdev of the port's lowest GID index.
//
// The script ends with "n_gids_found=N" (excerpts often leave it out). These are the problems
// of a partial read, the other rows kept: a row whose port or index is not a number or whose GID
// is not eight groups, a line after the header that is not a row, a count that disagrees with
// the rows read, a last row without its newline (cut, maybe in its netdev name), a GID that is not
// eight groups of four hex digits, an IPv4 column that is not the address the GID maps, and a
// listing without its closing count (an excerpt: GIDs after its last row are unknown).
func ShowGIDs(b []byte) ([]facts.Device, error) {
	var devs []facts.Device
	var probs problems
	lines := Lines(b)
	header, rows, lastIsRow, counted := false, 0, false, false
	for _, l := range lines {
		f := strings.Fields(l.Text)
		lastIsRow = false
		switch {
		case len(f) == 0:
			continue
		case f[0] == "DEV" || strings.HasPrefix(f[0], "---"):
			header = true
			continue
		case strings.HasPrefix(f[0], "n_gids_found="):
			counted = true
			if n, err := strconv.Atoi(strings.TrimPrefix(f[0], "n_gids_found=")); err != nil {
				probs.add(l, "n_gids_found: not a number")
			} else if n != rows {
				probs.add(l, "%d GID(s) announced, %d row(s) read", n, rows)
			}
			continue
		case len(f) < 6 || len(f) > 7:
			if header {
				probs.add(l, "not a show_gids row (DEV PORT INDEX GID [IPv4] VER DEV)")
			}
			continue
		}
		lastIsRow = true
		rows++
		port, err1 := strconv.Atoi(f[1])
		idx, err2 := strconv.Atoi(f[2])
		if err1 != nil || err2 != nil {
			probs.add(l, "PORT or INDEX: not a number")
			continue
		}
		gid := f[3]
		if !gidRe.MatchString(gid) {
			probs.add(l, "GID: not eight groups of four hex digits")
			continue
		}
		ver, ndev := f[4], f[5]
		if len(f) == 7 {
			ver, ndev = f[5], f[6]
			if ip := net.ParseIP(f[4]); ip == nil || ip.To4() == nil || f[4] != gidIPv4(gid) {
				probs.add(l, "IPv4: %q is not the address of GID %s", f[4], gid)
				continue
			}
		}
		g := facts.GID{Index: idx, GID: gid, IPv4: gidIPv4(gid), Netdev: ndev, Evidence: l.Evidence()}
		switch ver {
		case "v1":
			g.Type = "RoCE v1"
		case "v2":
			g.Type = "RoCE v2"
		}
		d := deviceNamed(&devs, f[0], l)
		p := portNumbered(d, port, l)
		p.GIDs = append(p.GIDs, g)
	}
	probs.cut(b, lines, lastIsRow)
	if header && !counted && len(lines) > 0 && probs.err() == nil {
		probs.add(lines[len(lines)-1], "no closing n_gids_found=N line: the listing may be cut short here (an excerpt), GIDs after it are unknown")
	}
	for i := range devs {
		for j := range devs[i].Ports {
			p := &devs[i].Ports[j]
			low := -1
			for k, g := range p.GIDs {
				if g.Netdev != "" && (low < 0 || g.Index < p.GIDs[low].Index) {
					low = k
				}
			}
			if low >= 0 {
				p.Netdev = p.GIDs[low].Netdev
				p.Evidence.Set("netdev", p.GIDs[low].Evidence)
			}
		}
	}
	return devs, probs.err()
}

// ShowGIDsCount returns show_gids' closing count (`n_gids_found=N`) with its line; ok is false
// when the capture has no such line (an excerpt) or its number does not parse (ShowGIDs names
// that line as a problem).
func ShowGIDsCount(b []byte) (facts.GIDListing, bool) {
	for _, l := range Lines(b) {
		t := strings.TrimSpace(l.Text)
		if !strings.HasPrefix(t, "n_gids_found=") {
			continue
		}
		if n, err := strconv.Atoi(strings.TrimPrefix(t, "n_gids_found=")); err == nil {
			return facts.GIDListing{Found: n, Evidence: l.Evidence()}, true
		}
	}
	return facts.GIDListing{}, false
}

// gidRe is a GID as show_gids prints it: eight groups of four hex digits.
var gidRe = lazyregexp.New(`^[0-9a-fA-F]{4}(:[0-9a-fA-F]{4}){7}$`)

// portNumbered returns port n of d, appending it (with its number evidence) when missing.
func portNumbered(d *facts.Device, n int, l Line) *facts.Port {
	for i := range d.Ports {
		if d.Ports[i].Number == n {
			return &d.Ports[i]
		}
	}
	p := facts.Port{Number: n}
	p.Evidence.Set("number", l.Evidence())
	d.Ports = append(d.Ports, p)
	return &d.Ports[len(d.Ports)-1]
}
