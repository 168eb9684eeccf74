package main

import (
	"fmt"
	"runtime"
	"runtime/debug"

	"github.com/vttapp/companion/core"
)

// release is what identifies this binary: the version and build clients
// read, and the commit and date a release build stamps.
type release struct {
	Version string
	Build   int
	Commit  string
	Date    string
	// Modified marks a toolchain-stamped commit with uncommitted changes.
	Modified bool
}

// thisRelease reads core's link-time values. Without them (go build, go
// run), the commit and date come from what the Go toolchain stamped, when
// it did (go build in a git checkout stamps vcs.revision and vcs.time).
func thisRelease() release {
	r := release{Version: core.Version, Build: core.Build, Commit: core.Commit, Date: core.Date}
	if r.Commit != "" && r.Date != "" {
		return r
	}
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return r
	}
	for _, s := range info.Settings {
		switch {
		case s.Key == "vcs.revision" && r.Commit == "":
			r.Commit = s.Value
		case s.Key == "vcs.time" && r.Date == "":
			r.Date = s.Value
		case s.Key == "vcs.modified" && s.Value == "true" && core.Commit == "":
			r.Modified = true
		}
	}
	return r
}

// String is the one line `companion version` prints and the banner starts
// with: "companion 1.2.0 (build 1, commit 0123abc, 2026-05-01T10:00:00Z, linux/amd64)".
func (r release) String() string {
	s := fmt.Sprintf("companion %s (build %d", r.Version, r.Build)
	if c := r.Commit; c != "" {
		if len(c) > 12 {
			c = c[:12]
		}
		if r.Modified {
			c += " with local changes"
		}
		s += ", commit " + c
	}
	if r.Date != "" {
		s += ", " + r.Date
	}
	return s + ", " + runtime.GOOS + "/" + runtime.GOARCH + ")"
}
