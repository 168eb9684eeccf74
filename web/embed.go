// Package web holds the browser pages Companion serves, embedded in the
// binary: the landing page template (index.html), the page a browser
// without the join key gets (askkey.html), the player web client
// (client/dist, built from client/src; see client/README.md), the host
// console page (host/) and the application icon.
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
//go:embed index.html askkey.html icon.png client/dist host
var FS embed.FS

// Client is the built-in web client, served at /client/ when no client is
// installed in the data folder: the one place that says where the client's
// built files are inside FS, rooted so that "index.html" is its start page.
// The game master's map bundle (gm/, built beside the player client from
// the same sources) is left out: it belongs to the host console, which
// serves it from FS on the loopback listener only.
func Client() fs.FS {
	dist, err := fs.Sub(FS, "client/dist")
	if err != nil {
		panic("web: embedded client missing: " + err.Error()) // cannot happen: embedded at build time
	}
	return withoutGM{dist}
}

// withoutGM is the client's files less the gm/ folder.
type withoutGM struct{ fs.FS }

func (f withoutGM) Open(name string) (fs.File, error) {
	if name == "gm" || strings.HasPrefix(name, "gm/") {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	}
	return f.FS.Open(name)
}
