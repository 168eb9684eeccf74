package routes

import (
	"io"
	"io/fs"
	"log/slog"
	"net/http"
	"sync"
	"sync/atomic"

	"github.com/go-chi/chi/v5"
	"github.com/go-chi/chi/v5/middleware"
	"github.com/gorilla/websocket"
	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/guard"
	"github.com/vttapp/companion/hub"
	"github.com/vttapp/companion/routes/datafolder"
	"github.com/vttapp/companion/routes/hostapi"
	"github.com/vttapp/companion/routes/httpkit"
	"github.com/vttapp/companion/systems"
	"github.com/vttapp/companion/web"
)

// DefaultMaxBodyBytes is the body limit on writes when Config sets none.
const DefaultMaxBodyBytes = 1 << 20

// server holds what the public handlers share: the configuration and the
// caches of bodies computed once per system (or per write generation).
type server struct {
	cfg        Config
	listings   listingCache
	snapshots  snapshotCache
	systemDocs perSystem
	openapi    perSystem
	landing    landingPage
	askPage    askPage
	// players: this is the public listener, whose readers are players:
	// what it answers of an entity leaves out the game master's notes
	// (core.EntityForPlayers). The host listener's is the whole entity.
	players bool
	// scripts are the installed client's scripts as rewritten
	// (client_rebase.go).
	scripts clientScripts
	// hinted is the built-in index.html naming the player screen's
	// picture, as last made (client_picture.go).
	hinted atomic.Pointer[hintedIndex]
}

func newServer(cfg Config) *server {
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if cfg.MaxBodyBytes <= 0 {
		cfg.MaxBodyBytes = DefaultMaxBodyBytes
	}
	if cfg.Web == nil {
		cfg.Web = web.FS
	}
	return &server{cfg: cfg}
}

// system returns the loaded game system.
func (s *server) system() (*systems.System, error) {
	if s.cfg.Systems != nil {
		if sys := s.cfg.Systems.Current(); sys != nil {
			return sys, nil
		}
	}
	return nil, core.NotFoundf("no game system is loaded")
}

// newRouter returns a router with what both listeners share: HEAD served
// by GET routes, and 404 and 405 answered as {"message": ...} (405 with its
// Allow header).
func newRouter() *chi.Mux {
	r := chi.NewRouter()
	r.Use(middleware.GetHead)
	r.NotFound(httpkit.NotFound)
	r.MethodNotAllowed(methodNotAllowed(r))
	return r
}

// NewPublicHandler returns the handler of the public listener: /api, the
// static folders, the web pages, entity reference pages, and the WebSocket
// upgrade on any path.
func NewPublicHandler(cfg Config) http.Handler {
	s := newServer(cfg)
	s.players = true
	cfg = s.cfg
	r := newRouter()

	r.Get("/api", s.getSnapshot)
	s.mountHealth(r, false) // health.go: /api/-/live and /api/-/ready
	r.Get("/api/system", s.getSystem)
	r.Get("/api/clients", s.getClients)
	r.Get("/api/openapi.json", s.getOpenAPI)
	r.Get("/api/sound", s.getSound) // sound.go
	r.Post("/api/messages", s.postMessage)
	s.mountSeats(r) // api_seats.go: /api/seats and /api/me are fixed routes too
	// combatants and tokens are reserved: registered before {collection}.
	r.Get("/api/combatants/{id}", s.getCombatant)
	r.Put("/api/combatants/{id}", s.putCombatant)
	r.Patch("/api/combatants/{id}", s.patchCombatant)
	r.Get("/api/tokens/{id}", s.getToken)
	r.Put("/api/tokens/{id}", s.putToken)
	r.Patch("/api/tokens/{id}", s.patchToken)
	r.Get("/api/{collection}", s.listCollection)
	r.Get("/api/{collection}/{id}", s.getEntity)
	r.Put("/api/{collection}/{id}", s.putEntity)
	r.Patch("/api/{collection}/{id}", s.patchEntity)
	mountImport(r, cfg)

	s.mountStatic(r)
	return s.wrap(r, true)
}

// NewHostHandler returns the handler of the host console listener
// (loopback only): the host API under /host/api and the host page at /host/.
func NewHostHandler(cfg Config) http.Handler {
	s := newServer(cfg)
	return guard.RecoverPanics(s.cfg.Log, hostapi.SocketFirst(s.cfg.Hub, s.wrap(s.hostRouter(), false)))
}

// hostRouter routes the host listener (a test walks it: every /host/api
// route is in the wire package's description).
func (s *server) hostRouter() chi.Router {
	cfg := s.cfg
	r := newRouter()
	r.Use(hostapi.ConsoleGuard)
	s.mountHealth(r, true) // the same answers as on the public listener, with the instance id
	hostapi.Mount(r, cfg)  // the host console's API (package hostapi)
	r.Get("/host/api/openapi.json", s.getHostOpenAPI)
	r.Get("/", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/host/", http.StatusFound)
	})
	r.Get("/host", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/host/", http.StatusMovedPermanently)
	})
	// The console's GM map is a second entry of the player client's build
	// (web/client/src/gm), so it reuses the map renderer.
	r.Get("/host/gm/*", s.serveWeb(web.HostGMDir))
	// The console's searchable monster and character lists: the public
	// listing, read-only, on the host origin (the page may only fetch its own).
	r.Get("/host/api/entities/{collection}", s.listCollection)
	// And one entity whole (armor class, hit points), for the combat rows and
	// the selected token's card.
	r.Get("/host/api/entities/{collection}/{id}", s.getEntity)
	// And the system's type tables (conditions for the combat panel): the
	// public GET /api/system document.
	r.Get("/host/api/system/definitions", s.getSystem)
	// The GM map draws the same files as the players' (map backgrounds, token
	// art, fog masks, handouts): the data folders, read-only, as on the
	// public listener.
	for _, folder := range datafolder.Names {
		r.Get("/"+folder+"/*", s.serveDataFolder(folder, false))
	}
	r.Get("/systems/*", s.serveSystems)
	// Module pages, every one of them whole: the game master reads them
	// beside the map (pages.go); hostapi has the library's API.
	s.mountPages(r, false)
	// The console's page, a third entry of the same build (web/client/src/host).
	r.Get("/host/*", s.serveWeb(web.HostConsoleDir))
	r.Get("/icon.png", s.serveWebFile("icon.png"))
	// Entity pages (stat blocks) at the reference path the player listener
	// answers, /<kind>/<slug>, for the game master, who may read every
	// entity: the console opens them from a combatant, a token or a list
	// row. After the fixed names above: chi prefers them.
	r.Get("/{kind}/{slug}", s.servePathReference)
	return r
}

// wrap puts the middleware around a router, outermost first (the guard
// package): panic recovery, the time bounds of request bodies, on the
// public listener the Host check on writes and WebSocket upgrades, the
// cross-site check, and the WebSocket hand-off (before anything wraps
// the connection), the request log, CORS (public only), the body limit and
// gzip. The host listener lets multipart archive uploads through the body
// limit (the importer caps them); its own guard is a route middleware.
func (s *server) wrap(h http.Handler, public bool) http.Handler {
	routes, _ := h.(chi.Routes)
	h = guard.Compress(h)
	h = guard.LimitBodies(s.cfg.MaxBodyBytes, !public, h) // host uploads stream to the importer
	if public {
		h = cors(h, routes)
	}
	h = guard.LogRequests(s.cfg.Log, h)
	if public {
		h = s.websocketFirst(h)
		h = s.joinKeyGuard(h) // joinkey.go: before the upgrade, which carries its grant and seat
		h = guard.CrossSite{AllowOrigins: s.cfg.AllowOrigins, Refuse: refuseCrossSite}.Wrap(h)
		h = guard.NewPublicHosts(s.cfg.AllowHosts).Guard(h)
	}
	// Outside every guard: a body they refuse unread is bounded in time too.
	h = guard.BoundBodyTimes(s.cfg.BodyTimes, h)
	return guard.RecoverPanics(s.cfg.Log, h)
}

// refuseCrossSite answers a write refused by guard.CrossSite: import
// failures keep their {"error"} body (contract 4.6 rule 7).
func refuseCrossSite(w http.ResponseWriter, r *http.Request, status int, text string) {
	if r.URL.Path == "/api/import" {
		writeImportError(w, status, text)
		return
	}
	httpkit.WriteMessage(w, status, text)
}

// websocketFirst hands every WebSocket upgrade, on any path, to the hub
// before routing (contract 6.1: any path upgrades).
func (s *server) websocketFirst(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if s.cfg.Hub != nil && websocket.IsWebSocketUpgrade(r) {
			if s.fromInstalledClient(r) {
				r = hub.WithNumericDragStates(r) // integer drag states (client_kind.go)
			}
			s.cfg.Hub.ServeHTTP(w, r)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// perSystem caches one body for the current system; a new system replaces it.
type perSystem struct {
	mu     sync.Mutex
	system *systems.System
	body   *cachedBody
}

func (p *perSystem) get(sys *systems.System, build func() *cachedBody) *cachedBody {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.system != sys || p.body == nil {
		p.system, p.body = sys, build()
	}
	return p.body
}

// webFS returns the embedded pages.
func (s *server) webFS() fs.FS { return s.cfg.Web }
