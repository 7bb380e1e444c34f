package main

import "github.com/rdmadoctor/rdmadoctor/report/render/html"

// `fleet --format html`: one self-contained page (report/render/html).
func init() {
	fleetExtraFormats = append(fleetExtraFormats, "html")
	fleetWriters["html"] = html.Write
}
