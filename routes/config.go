// Package routes is the HTTP face of Companion: the /api routes, static
// folders, entity reference pages, the WebSocket hub, the import endpoint
// and the host console API on its loopback listener.
package routes

import (
	"io/fs"
	"log/slog"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/core/imports"
	"github.com/vttapp/companion/systems"
)

// Config wires the handlers to the rest of the application.
type Config struct {
	Service *core.Service
	Bus     *core.Bus
	Hub     *Hub
	// DataDir holds companion.db and the served folders modules/,
	// campaigns/, systems/ and others/.
	DataDir string
	Log     *slog.Logger
	// MaxBodyBytes limits request bodies on writes (413 past it).
	MaxBodyBytes int64
	// AllowOrigins lists extra Origins a WebSocket may come from, besides
	// the server's own host.
	AllowOrigins []string
	// AllowHosts lists extra host names (besides IP addresses, localhost,
	// .local names and the machine's own name) that may write and open
	// WebSockets on the public listener; see routes/hostcheck.go.
	AllowHosts []string
	// Web holds the embedded browser pages (landing page, client, host console).
	Web fs.FS

	// Fields added by the packages as they land (one line each):
	Systems      *systems.Holder  // the loaded game system
	Imports      *imports.Manager // import offers and installers
	SystemStatus *SystemStatus    // hot reload results for the host console (nil: none)
}
