// Package web holds the browser pages Companion serves, embedded in the
// binary: the landing page template (index.html), the player web client
// (client/), the host console page (host/) and the application icon.
package web

import (
	"embed"
	"io/fs"
)

// FS is the embedded pages, rooted at this folder.
//
//go:embed index.html icon.png client host
var FS embed.FS

// Client is the built-in web client, served at /client/ when no client is
// installed in the data folder. It is the one place that says where the
// client's files are inside FS.
func Client() fs.FS {
	sub, err := fs.Sub(FS, "client")
	if err != nil {
		panic(err) // "client" is a valid path: fs.Sub cannot fail
	}
	return sub
}
