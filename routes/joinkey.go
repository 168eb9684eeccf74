package routes

import (
	"html/template"
	"net/http"
	"net/url"
	"strings"
	"sync"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/hub"
	"github.com/vttapp/companion/routes/httpkit"
	"github.com/vttapp/companion/wire"
)

// The join key on the public listener (core/access.go has the rules).
// With the key off every request passes as a player, as contract section
// 5 says. With it on, a request must carry one of:
//
//   - the header X-Companion-Key: <key> (tools);
//   - the query parameter key=<key> (links: the QR code, a tool that
//     cannot set headers, a WebSocket URL);
//   - the cookie companion_pass, which a browser gets when it opens a page
//     (/, /index.html, /client/) with ?key=: the server trades the key for
//     a pass of the device's own and sends the browser on to the same page
//     without the key (303), so the key leaves the address bar and every
//     request the page makes afterwards (the installed Encounter+ client's
//     API calls and its WebSocket to /ws included) carries the pass.
//
// Without one, a page gets the "ask the game master for the link" page and
// everything else 401 {"message"}; a key that is wrong or old is refused
// the same way. The health paths and the icon stay open, and so do CORS
// preflights (they carry no credentials and change nothing).
//
// The seat token travels the same ways: the header X-Companion-Seat, the
// cookie companion_seat that a seat link (/client/?seat=<token>) sets,
// or, on the WebSocket, takeSeat {seatToken}.
//
// Neither a key, a pass nor a seat token is ever written to the log: the
// request log records the path without its query, and nothing here logs
// a credential.

// Names of the credentials on the wire.
const (
	joinKeyHeader  = wire.JoinKeyHeader
	joinKeyQuery   = wire.JoinKeyQuery
	passCookie     = wire.PassCookie
	seatHeader     = wire.SeatHeader
	seatQuery      = "seat"
	seatCookie     = "companion_seat"
	cookieLifetime = 365 * 24 * 60 * 60
)

// joinKeyGuard admits or refuses each request on the public listener and
// records who asks (the actor) for the handlers and the hub.
func (s *server) joinKeyGuard(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if s.cfg.Service == nil || openPath(r) {
			next.ServeHTTP(w, r)
			return
		}
		cred, fromQuery := credential(r)
		grant, ok := s.cfg.Service.Admit(r.Context(), cred)
		if !ok {
			s.refuseWithoutKey(w, r, cred != "")
			return
		}
		if r.Method == http.MethodGet && isPageNavigation(r) && (fromQuery && !grant.Open || r.URL.Query().Has(seatQuery)) {
			s.keepLinkInCookies(w, r, grant, fromQuery && !grant.Open)
			return
		}
		token := seatToken(r)
		seat := core.SeatHash(token)
		address := core.RemoteHost(r.RemoteAddr)
		role := grant.Role
		if s.cfg.Service.SpectatorAddress(address) {
			role = core.ClientSpectator // the game master's word for this device (no pass)
		}
		who := core.Actor{Role: role, Seat: seat, Device: core.DeviceOf(grant.Pass, seat, address, "")}
		r = httpkit.WithActor(r, who)
		r = hub.WithAdmission(r, grant)
		if token != "" {
			r = hub.WithSeatToken(r, token)
		}
		next.ServeHTTP(w, r)
	})
}

// openPath: what needs no key.
func openPath(r *http.Request) bool {
	if r.Method == http.MethodOptions {
		return true
	}
	switch r.URL.Path {
	case "/api/-/live", "/api/-/ready", "/icon.png":
		return true
	}
	return false
}

// credential is the key or pass a request carries, and whether it came in
// the query string.
func credential(r *http.Request) (string, bool) {
	if v := strings.TrimSpace(r.Header.Get(joinKeyHeader)); v != "" {
		return v, false
	}
	if v := strings.TrimSpace(r.URL.Query().Get(joinKeyQuery)); v != "" {
		return v, true
	}
	if c, err := r.Cookie(passCookie); err == nil && c.Value != "" {
		return c.Value, false
	}
	return "", false
}

// seatToken is the seat token a request carries (header, then cookie).
func seatToken(r *http.Request) string {
	if v := strings.TrimSpace(r.Header.Get(seatHeader)); v != "" {
		return v
	}
	if c, err := r.Cookie(seatCookie); err == nil {
		return c.Value
	}
	return ""
}

// isPageNavigation reports a request for one of the pages a link opens:
// the landing page or the web client's start page.
func isPageNavigation(r *http.Request) bool {
	if hubUpgrade(r) {
		return false
	}
	switch r.URL.Path {
	case "/", "/index.html", "/client", "/client/", "/client/index.html":
		return true
	}
	return false
}

// hubUpgrade reports a WebSocket upgrade.
func hubUpgrade(r *http.Request) bool {
	return strings.EqualFold(r.Header.Get("Upgrade"), "websocket")
}

// keepLinkInCookies answers a page opened from a link: the key becomes a
// pass of this device's own and the seat token a cookie, and the browser
// goes on to the same page without them (303).
func (s *server) keepLinkInCookies(w http.ResponseWriter, r *http.Request, grant core.Grant, trade bool) {
	q := r.URL.Query()
	if trade {
		held := ""
		if c, err := r.Cookie(passCookie); err == nil {
			held = c.Value
		}
		pass, err := s.cfg.Service.IssuePass(r.Context(), grant, core.RemoteHost(r.RemoteAddr), held)
		if err != nil {
			httpkit.WriteError(w, r, s.cfg.Log, err)
			return
		}
		http.SetCookie(w, &http.Cookie{Name: passCookie, Value: pass, Path: "/", MaxAge: cookieLifetime,
			HttpOnly: true, SameSite: http.SameSiteLaxMode})
		q.Del(joinKeyQuery)
	}
	if token := strings.TrimSpace(q.Get(seatQuery)); token != "" {
		http.SetCookie(w, &http.Cookie{Name: seatCookie, Value: token, Path: "/", MaxAge: cookieLifetime,
			HttpOnly: true, SameSite: http.SameSiteLaxMode})
	}
	q.Del(seatQuery)
	target := url.URL{Path: r.URL.Path, RawQuery: q.Encode()}
	w.Header().Set("Cache-Control", "no-store")
	http.Redirect(w, r, target.String(), http.StatusSeeOther)
}

// refuseWithoutKey answers a request the join key does not admit: the
// "ask the game master" page to a browser asking for a page, 401
// {"message"} to everything else.
func (s *server) refuseWithoutKey(w http.ResponseWriter, r *http.Request, gaveOne bool) {
	// The path alone: the query may hold the key that was refused.
	s.cfg.Log.Debug("request refused: no valid join key", "method", r.Method, "path", r.URL.Path, "remote", r.RemoteAddr, "gave", gaveOne)
	text := "this game needs its join key: ask the game master for the link (tools send the key as the X-Companion-Key header or the key query parameter)"
	if gaveOne {
		text = "this join key is wrong or no longer valid: ask the game master for the new link"
	}
	if !wantsPage(r) {
		httpkit.WriteMessage(w, http.StatusUnauthorized, text)
		return
	}
	s.askPage.serve(w, r, s, gaveOne)
}

// wantsPage reports a browser asking for a page: a GET outside the API
// that accepts HTML, and not a WebSocket upgrade.
func wantsPage(r *http.Request) bool {
	if (r.Method != http.MethodGet && r.Method != http.MethodHead) || hubUpgrade(r) {
		return false
	}
	if r.URL.Path == "/api" || strings.HasPrefix(r.URL.Path, "/api/") {
		return false
	}
	return isPageNavigation(r) || strings.Contains(r.Header.Get("Accept"), "text/html")
}

// askPage renders web/askkey.html, the page a browser without the key
// gets.
type askPage struct {
	once sync.Once
	tmpl *template.Template
	err  error
}

func (p *askPage) serve(w http.ResponseWriter, r *http.Request, s *server, oldKey bool) {
	p.once.Do(func() { p.tmpl, p.err = template.ParseFS(s.webFS(), "askkey.html") })
	h := w.Header()
	h.Set("Cache-Control", "no-store")
	h.Set("X-Content-Type-Options", "nosniff")
	if p.err != nil {
		httpkit.WriteMessage(w, http.StatusUnauthorized, "ask the game master for the link to this game")
		return
	}
	h.Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(http.StatusUnauthorized)
	if r.Method == http.MethodHead {
		return
	}
	_ = p.tmpl.Execute(w, struct{ OldKey bool }{oldKey})
}
