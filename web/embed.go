// Package web holds the browser pages Companion serves, embedded in the
// binary: the landing page template (index.html), the player web client
// (client/), the host console page (host/) and the application icon.
package web

import "embed"

// FS is the embedded pages, rooted at this folder.
//
//go:embed index.html icon.png client host
var FS embed.FS
