// Package httpkit is what the handlers of both listeners share: the
// configuration they are wired with (Config), reading a request body within
// its bounds (ReadBody, DecodeBody, DecodeStrict...), answering JSON and
// errors with the status the contract gives each error kind (StatusOf,
// WriteError), and who made a request (ActorOf). It knows no route.
package httpkit

import (
	"io/fs"
	"log/slog"

	"github.com/vttapp/companion/backup"
	"github.com/vttapp/companion/core/engine"
	"github.com/vttapp/companion/guard"
	"github.com/vttapp/companion/hub"
	"github.com/vttapp/companion/imports"
	"github.com/vttapp/companion/sound"
	"github.com/vttapp/companion/systems"
)

// Config wires the handlers to the rest of the application.
type Config struct {
	Service *engine.Service
	// Hub is the live game's WebSocket engine; it follows the service's
	// events through the bus hub.New subscribed it to.
	Hub *hub.Hub
	// DataDir holds companion.db and the served folders modules/,
	// campaigns/, systems/ and others/.
	DataDir string
	Log     *slog.Logger
	// MaxBodyBytes limits request bodies on writes (413 past it).
	MaxBodyBytes int64
	// BodyTimes bounds how long a request body may take to arrive
	// (guard/bodytime.go; zero fields take the defaults).
	BodyTimes guard.BodyTimes
	// AllowOrigins lists Origins besides this server's own whose pages may
	// write (guard/crosssite.go); the WebSocket Origin check uses
	// hub.Options.AllowOrigins, given to hub.New (the same --allow-origin).
	AllowOrigins []string
	// AllowHosts lists extra host names (besides IP addresses, localhost,
	// .local names and the machine's own name) that may write and open
	// WebSockets on the public listener; see guard/hostcheck.go.
	AllowHosts []string
	// Web holds the browser pages (landing page, host console); nil serves
	// the embedded web.FS. The built-in client comes from web.Client().
	Web fs.FS

	// JoinName is the name players can type, advertised by mDNS (such as
	// "companion.local"); the landing page shows it beside the addresses.
	// Empty: not advertised.
	JoinName string
	// PublicAddr is the public listener's bound address (host:port): the
	// host console's join links point at it (hostapi/seats.go).
	PublicAddr string
	// InstanceID identifies this server process on the host listener's
	// /api/-/live (routes/health.go).
	InstanceID string

	// Sound is the table's audio library and playback state (nil: the
	// sound routes answer 404 and players fetch no library file).
	Sound *sound.Deck

	Backups      *backup.Maker         // backups of the data folder (nil: none)
	Systems      *systems.Holder       // the loaded game system
	Imports      *imports.Manager      // import offers and installers
	SystemStatus *systems.ReloadStatus // hot reload results for the host console (nil: none)
}
