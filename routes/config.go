// Package routes is the HTTP face of Companion: the /api routes, static
// folders, entity reference pages, the import endpoint and the host
// console API on its loopback listener. The WebSocket engine lives in
// hub; these handlers hand it every upgrade.
package routes

import "github.com/vttapp/companion/routes/httpkit"

// Config wires the handlers to the rest of the application. It is defined
// in httpkit, which the handlers of both listeners share.
type Config = httpkit.Config
