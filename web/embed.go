// Package web holds the browser pages Companion serves, embedded in the
// binary: the landing page template (index.html), the player web client
// (client/dist, built from client/src; see client/README.md), the host
// console page (host/) and the application icon.
package web

import (
	"embed"
	"io/fs"
)

// FS is the embedded pages, rooted at this folder. Of the web client only
// the built output (client/dist) is embedded: its sources and
// node_modules stay out of the binary.
//
//go:embed index.html icon.png client/dist host
var FS embed.FS

// Client returns the player web client served at /client/: the one place
// that chooses which client is served. Today it is the embedded build,
// rooted so that "index.html" is the client's start page.
func Client() fs.FS {
	sub, err := fs.Sub(FS, "client/dist")
	if err != nil {
		panic("web: embedded client missing: " + err.Error()) // cannot happen: embedded at build time
	}
	return sub
}
