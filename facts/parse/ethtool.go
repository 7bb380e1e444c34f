package parse

import (
	"strings"

	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/internal/lazyregexp"
)

// Ethtool parses plain `ethtool <if>` (ethtool.c dump_link_usettings / netlink/settings.c):
//
//	Settings for ib0:
//		Supported link modes:   1000baseKX/Full
//		                        10000baseKR/Full
//		Speed: 100000Mb/s
//		Duplex: Full
//		Port: Direct Attach Copper
//		Link detected: yes
//
// Speed "Unknown!" stays null. The netlink "failed to retrieve link settings" error (mlx5 IPoIB
// returned EINVAL before kernel 6.2) is kept in EthtoolRefusal; the lines ethtool still printed
// are read. Kind is "ipoib" for an ib* interface whose Port is Other, else "ethernet" when a Port
// is printed. See https://man7.org/linux/man-pages/man8/ethtool.8.html.
func Ethtool(b []byte) (facts.Netdev, error) {
	var n facts.Netdev
	var listKey string // the multi-line list being continued
	var refusal []string
	for _, l := range Lines(b) {
		t := strings.TrimSpace(l.Text)
		if t == "" {
			continue
		}
		ev := l.Evidence()
		if strings.HasPrefix(t, "Settings for ") {
			n.Name = strings.TrimSuffix(strings.TrimPrefix(t, "Settings for "), ":")
			n.Evidence.Set("name", ev)
			listKey = ""
			continue
		}
		if strings.HasPrefix(t, "netlink error: ") {
			refusal = append(refusal, strings.TrimPrefix(t, "netlink error: "))
			n.Evidence.Set("ethtool_refusal", ev)
			continue
		}
		key, val, ok := keyValue(t)
		if !ok {
			if listKey != "" {
				appendLinkModes(&n, listKey, t)
			}
			continue
		}
		listKey = ""
		switch key {
		case "Supported link modes", "Advertised link modes":
			listKey = key
			appendLinkModes(&n, key, val)
			n.Evidence.Set(linkModesField(key), ev)
		case "Speed":
			if m := speedRe.FindStringSubmatch(val); m != nil {
				n.SpeedMbps = atoiPtr(m[1])
			}
			n.Evidence.Set("speed_mbps", ev)
		case "Duplex":
			n.Duplex = val
			n.Evidence.Set("duplex", ev)
		case "Port":
			n.PortType = val
			n.Evidence.Set("port_type", ev)
		case "Link detected":
			if v, ok := onOff(val); ok {
				n.LinkDetected = boolPtr(v)
				n.Evidence.Set("link_detected", ev)
			}
		}
	}
	// Other netlink errors (e.g. "Operation not permitted" for wake-on-lan as non-root) do not
	// stop the settings from being reported.
	if r := dedupe(refusal); len(r) > 0 && r[0] == "failed to retrieve link settings" {
		n.EthtoolRefusal = "netlink error: " + strings.Join(r, ": ")
	} else {
		delete(n.Evidence, "ethtool_refusal")
	}
	n.MaxSupportedSpeedMbps = maxLinkModeMbps(n.SupportedLinkModes)
	if n.MaxSupportedSpeedMbps != nil {
		n.Evidence.Set("max_supported_speed_mbps", n.Evidence["supported_link_modes"])
	}
	n.Kind = ethtoolKind(n.Name, n.PortType)
	if n.Kind != "" {
		n.Evidence.Set("kind", n.Evidence["port_type"])
	}
	return n, nil
}

var (
	speedRe    = lazyregexp.New(`^(\d+)Mb/s`)
	linkModeRe = lazyregexp.New(`^(\d+)base`)
)

func linkModesField(key string) string {
	if key == "Supported link modes" {
		return "supported_link_modes"
	}
	return "advertised_link_modes"
}

func appendLinkModes(n *facts.Netdev, key, val string) {
	if val == "Not reported" {
		return
	}
	modes := strings.Fields(val)
	if key == "Supported link modes" {
		n.SupportedLinkModes = append(n.SupportedLinkModes, modes...)
	} else {
		n.AdvertisedLinkModes = append(n.AdvertisedLinkModes, modes...)
	}
}

// maxLinkModeMbps is the fastest mode, from its leading rate ("100000baseCR4/Full" -> 100000).
func maxLinkModeMbps(modes []string) *int {
	var max *int
	for _, m := range modes {
		if r := linkModeRe.FindStringSubmatch(m); r != nil {
			if v := atoiPtr(r[1]); v != nil && (max == nil || *v > *max) {
				max = v
			}
		}
	}
	return max
}

func ethtoolKind(name, port string) string {
	switch {
	case port == "":
		return ""
	case strings.HasPrefix(name, "ib") && port == "Other":
		return facts.NetdevIPoIB
	}
	return facts.NetdevEthernet
}

func dedupe(s []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, v := range s {
		if !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	return out
}
