package build

import (
	"github.com/rdmadoctor/rdmadoctor/internal/lazyregexp"
)

// bdfRe matches a PCI address without domain, e.g. "81:00.0".
var bdfRe = lazyregexp.New(`^[0-9a-f]{2}:[0-9a-f]{2}\.[0-7]$`)

// fullBDFRe finds PCI addresses with domain in text, e.g. "0000:81:00.0".
var fullBDFRe = lazyregexp.New(`[0-9a-f]{4}:[0-9a-f]{2}:[0-9a-f]{2}\.[0-7]`)
