// Package web holds the browser pages Companion serves, embedded in the
// binary: the landing page template (index.html), the page a browser
// without the join key gets (askkey.html), the player web client
// (client/dist, built from client/src; see client/README.md; the host
// console's page and GM map are built there too, into host/ and gm/) and
// the application icon.
package web

import (
	"embed"
	"io/fs"
	"strings"
)

// FS is the embedded pages, rooted at this folder. Of the web client only
// the built output (client/dist) is embedded: its sources and
// node_modules stay out of the binary.
//
//go:embed index.html askkey.html icon.png client/dist
var FS embed.FS

// Client is the built-in web client, served at /client/ when no client is
// installed in the data folder: the one place that says where the client's
// built files are inside FS, rooted so that "index.html" is its start page.
// The host console's page (host/) and its map bundle (gm/), built beside
// the player client from the same sources, are left out: they belong to
// the host console, which serves them from FS on the loopback listener
// only (HostConsoleDir, HostGMDir).
func Client() fs.FS {
	dist, err := fs.Sub(FS, "client/dist")
	if err != nil {
		panic("web: embedded client missing: " + err.Error()) // cannot happen: embedded at build time
	}
	return withoutHost{dist}
}

// HostConsoleDir is where the host console's page is inside FS (the
// host listener's /host/), and HostGMDir its GM map bundle (/host/gm/).
const (
	HostConsoleDir = "client/dist/host"
	HostGMDir      = "client/dist/gm"
)

// withoutHost is the client's files less the host console's folders.
type withoutHost struct{ fs.FS }

func (f withoutHost) Open(name string) (fs.File, error) {
	for _, dir := range []string{"gm", "host"} {
		if name == dir || strings.HasPrefix(name, dir+"/") {
			return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
		}
	}
	return f.FS.Open(name)
}
