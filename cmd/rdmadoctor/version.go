package main

import (
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
	"strconv"

	"github.com/urfave/cli/v2"
)

// Set by a release or package build (make deb):
//
//	go build -ldflags "-X main.buildVersion=1.2.0 -X main.buildCommit=3f2ef67... -X main.buildDate=2026-12-02T03:34:26Z"
//
// Each one left empty is taken from the binary's build information instead (below).
var buildVersion, buildCommit, buildDate string

// version is what reports, gather manifests and `rdmadoctor version` name.
var version = readBuildInfo(buildVersion, buildCommit, buildDate).Version

// buildInfo says which code a binary was built from.
type buildInfo struct {
	// Version: the -ldflags one; else the module version the go command stamped (a tag, or a
	// pseudo-version such as v0.0.0-20261202033426-3f2ef67abcde+dirty for `go build` in a
	// checkout, or v1.2.0 for `go install ...@v1.2.0`); else "devel" (go run, go test,
	// -buildvcs=false).
	Version string
	// Commit: the -ldflags one, else the VCS revision the go command stamped (vcs.revision);
	// empty when neither is known.
	Commit string
	// Modified: the work tree had uncommitted changes (vcs.modified); only from the go command.
	Modified bool
	// Date: the -ldflags build date, else the commit time (vcs.time, RFC 3339 UTC), which the
	// go command records instead of a build time (CommitTime is then true).
	Date       string
	CommitTime bool
	// GoVersion: the toolchain that built the binary, e.g. go1.26.8.
	GoVersion string
	// Platform: GOOS/GOARCH.
	Platform string
}

// readBuildInfo combines the -ldflags values with runtime/debug.ReadBuildInfo.
func readBuildInfo(ldVersion, ldCommit, ldDate string) buildInfo {
	bi := buildInfo{Version: ldVersion, Commit: ldCommit, Date: ldDate, GoVersion: runtime.Version(),
		Platform: runtime.GOOS + "/" + runtime.GOARCH}
	info, ok := debug.ReadBuildInfo()
	if ok {
		if bi.Version == "" && info.Main.Version != "" && info.Main.Version != "(devel)" {
			bi.Version = info.Main.Version
		}
		for _, s := range info.Settings {
			switch s.Key {
			case "vcs.revision":
				if bi.Commit == "" {
					bi.Commit = s.Value
				}
			case "vcs.time":
				if bi.Date == "" {
					bi.Date, bi.CommitTime = s.Value, true
				}
			case "vcs.modified":
				if ldCommit == "" {
					bi.Modified, _ = strconv.ParseBool(s.Value)
				}
			}
		}
	}
	if bi.Version == "" {
		bi.Version = "devel"
	}
	return bi
}

// writeVersion prints the build information, one field a line; unknown fields say so.
func writeVersion(w io.Writer, bi buildInfo) {
	unknown := func(s string) string {
		if s == "" {
			return "unknown"
		}
		return s
	}
	commit := unknown(bi.Commit)
	if bi.Modified {
		commit += " (modified)"
	}
	date := unknown(bi.Date)
	if bi.CommitTime {
		date += " (commit time)"
	}
	fmt.Fprintf(w, "rdmadoctor %s\ncommit: %s\ndate: %s\ngo: %s %s\n", bi.Version, commit, date, bi.GoVersion, bi.Platform)
}

func init() {
	// --version prints what `rdmadoctor version` does. No -v alias: diagnose and gather use -v
	// for --verbose.
	cli.VersionFlag = &cli.BoolFlag{Name: "version", Usage: "print the version, commit, build date and Go version"}
	cli.VersionPrinter = func(c *cli.Context) {
		writeVersion(c.App.Writer, readBuildInfo(buildVersion, buildCommit, buildDate))
	}
}

func versionCommand() *cli.Command {
	return &cli.Command{
		Name:      "version",
		Usage:     "print the version, commit, build date and Go version",
		UsageText: "rdmadoctor version",
		Description: "The commit and date come from the build: the package's -ldflags, or the VCS\n" +
			"information the go command records (go build in a checkout, go install ...@version).\n" +
			"A build without either says \"devel\" and \"unknown\".",
		Action: func(c *cli.Context) error {
			if c.NArg() > 0 {
				return withCode(exitUsage, fmt.Errorf("version takes no arguments (got %q)", c.Args().First()))
			}
			writeVersion(c.App.Writer, readBuildInfo(buildVersion, buildCommit, buildDate))
			return nil
		},
	}
}
