// Package hostapi is the host console's API under /host/api, on the
// loopback listener only: the game (maps, tokens, combat, fog, the player
// screen, marks, messages), seats and their join links, settings, the
// library and random tables, imports and offers, exports, backups, sound,
// the installed web client, and the console's own socket hand-off. Its
// handlers read the configuration alone (httpkit.Config); the pages,
// static folders and references the host listener also serves stay in
// routes, which builds the router and mounts these on it.
package hostapi

import (
	"github.com/go-chi/chi/v5"
	"github.com/vttapp/companion/routes/httpkit"
)

// Mount adds every /host/api route of this package to r (the host
// listener's router; ConsoleGuard already in its middleware). Full paths on
// one router, no sub-routers: the routes of several files share the
// /host/api prefix, and routes' own host routes sit beside them.
func Mount(r chi.Router, cfg httpkit.Config) {
	mountHostImport(r, cfg)
	mountHostClient(r, cfg)
	mountHostSettings(r, cfg)
	mountHostConsole(r, cfg)
	mountHostGame(r, cfg)
	mountHostBackup(r, cfg)
	mountHostSeats(r, cfg)
	mountHostSound(r, cfg)
	mountHostLibrary(r, cfg)
	mountHostTables(r, cfg) // the API and /table/<slug>
}
