package hostapi

import (
	"bytes"
	"encoding/json"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/core/turns"
	"github.com/vttapp/companion/routes/datafolder"
	"github.com/vttapp/companion/routes/httpkit"
	"github.com/vttapp/companion/wire"
)

// The host console page keeps itself current by polling (offers with their
// download progress, clients, settings and the system status every second;
// the campaign a little less often). Polling was chosen over Server-Sent
// Events on purpose: the console is one page on loopback, the documents
// are small, a poll cannot leak a long-lived connection that holds up
// http.Server.Shutdown, and a page that lost the server (restart, sleep)
// recovers on the next tick without reconnection logic.

// mountHostConsole adds the host console's own routes: the loaded system
// and its last reload, the primary campaign, and the game controls.
func mountHostConsole(r chi.Router, cfg httpkit.Config) {
	h := hostConsole{cfg: cfg}
	r.Get("/host/api/system", h.getSystem)
	r.Get("/host/api/campaign", h.getCampaign)
	r.Post("/host/api/screen", h.showMap)
	r.Post("/host/api/game/{action}", h.controlCombat)
}

type hostConsole struct{ cfg httpkit.Config }

func (h hostConsole) getSystem(w http.ResponseWriter, r *http.Request) {
	if h.cfg.Systems == nil || h.cfg.Systems.Current() == nil {
		httpkit.WriteError(w, r, h.cfg.Log, core.NotFoundf("no game system is loaded"))
		return
	}
	sys := h.cfg.Systems.Current()
	m := sys.Manifest()
	out := wire.HostSystem{ID: m.ID, Name: m.Name, Version: m.Version, Description: m.Description, Author: m.Author,
		Kinds: []wire.SystemKind{}, Turns: sys.TurnStyle(), HealthLabel: sys.HealthLabel(), Diagonal: sys.Diagonal(), Time: time.Now().UTC()}
	for _, k := range sys.Kinds() {
		out.Kinds = append(out.Kinds, wire.SystemKind{Kind: k.Name, Collection: k.Collection, Title: k.Title,
			CollectionTitle: k.CollectionTitle, Unique: k.Unique, Ranges: k.Ranges})
	}
	out.Watching, out.LastReload = h.cfg.SystemStatus.Last()
	httpkit.WriteJSON(w, r, h.cfg.Log, http.StatusOK, out)
}

func (h hostConsole) getCampaign(w http.ResponseWriter, r *http.Request) {
	view, err := h.cfg.Service.HostCampaign(r.Context())
	if err != nil {
		httpkit.WriteError(w, r, h.cfg.Log, err)
		return
	}
	httpkit.WriteJSON(w, r, h.cfg.Log, http.StatusOK, view)
}

// showMap answers POST /host/api/screen {"mapId": "..."}: the map goes on
// the player screen; "mapId": "" clears it. The key is required and no
// other is accepted, so a misspelt key cannot clear the screen by accident.
func (h hostConsole) showMap(w http.ResponseWriter, r *http.Request) {
	data, err := httpkit.ReadBody(r)
	if err != nil {
		httpkit.WriteError(w, r, h.cfg.Log, err)
		return
	}
	mapID, ok := decodeMapChoice(data)
	if !ok {
		httpkit.WriteError(w, r, h.cfg.Log, core.Invalidf(`expected {"mapId": "<map id>"} (an empty id clears the player screen)`))
		return
	}
	screen, err := h.cfg.Service.ShowMap(r.Context(), mapID)
	if err != nil {
		httpkit.WriteError(w, r, h.cfg.Log, err)
		return
	}
	if m, err := h.cfg.Service.Map(r.Context(), mapID); err == nil && m.Video == "" {
		datafolder.WarmTiles(h.cfg.DataDir, m.Image) // players are about to ask for it
	}
	httpkit.WriteJSON(w, r, h.cfg.Log, http.StatusOK, screen)
}

// decodeMapChoice reads {"mapId": "..."} exactly: one object, the one key
// spelt as shown (encoding/json alone would take "mapID" too), a string.
func decodeMapChoice(data []byte) (string, bool) {
	var fields map[string]json.RawMessage
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&fields); err != nil || dec.More() || len(fields) != 1 {
		return "", false
	}
	var id string
	raw, ok := fields["mapId"]
	if !ok || json.Unmarshal(raw, &id) != nil {
		return "", false
	}
	return strings.TrimSpace(id), true
}

// controlCombat answers POST /host/api/game/{start|next|previous|end|pass}
// (pass: {to}, in a system whose turns are passed).
func (h hostConsole) controlCombat(w http.ResponseWriter, r *http.Request) {
	action := chi.URLParam(r, "action")
	var game *core.Game
	var err error
	if action == turns.CombatPass {
		var pass turns.TurnPass
		if err = httpkit.DecodeBody(r, &pass); err == nil {
			game, err = h.cfg.Service.PassTurn(r.Context(), pass.To)
		}
	} else {
		game, err = h.cfg.Service.ControlCombat(r.Context(), action)
	}
	if err != nil {
		httpkit.WriteError(w, r, h.cfg.Log, err)
		return
	}
	httpkit.WriteJSON(w, r, h.cfg.Log, http.StatusOK, wire.GameControl{Game: game, TurnOrder: h.cfg.Service.TurnOrder(game.Combatants)})
}

// ConsoleGuard keeps the host console for the person at the device.
// The listener is on loopback, but a web page open in the device's browser
// could still reach it: by DNS rebinding (a foreign name resolving to
// 127.0.0.1, seen in the Host header) or by a cross-site form or fetch (an
// Origin other than the console's own). Both are refused with 403.
func ConsoleGuard(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !loopbackHost(r.Host) {
			httpkit.WriteMessage(w, http.StatusForbidden, "the host console answers only to a loopback address (127.0.0.1 or localhost)")
			return
		}
		if origin := r.Header.Get("Origin"); origin != "" && r.Method != http.MethodGet && r.Method != http.MethodHead &&
			!strings.EqualFold(origin, "http://"+r.Host) {
			httpkit.WriteMessage(w, http.StatusForbidden, "the host console does not accept changes from another site's page")
			return
		}
		next.ServeHTTP(w, r)
	})
}

// loopbackHost reports whether a Host header names this machine.
func loopbackHost(hostport string) bool {
	host := hostport
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		host = h
	}
	host = strings.TrimSuffix(strings.Trim(host, "[]"), ".")
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
