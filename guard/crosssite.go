package guard

import (
	"mime"
	"net/http"
	"strings"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/hub"
)

// CrossSite stops a page on another site from writing through a
// player's browser. A browser sends a "simple" POST (text/plain, form
// encodings) cross-site with no preflight, so the CORS rule (preflight
// allows GET and OPTIONS only, contract section 7) does not stop it: a
// page could post chat and rolls in a player's name or raise import offers
// on the device (contract 4.6.8 makes import a POST so that a page load
// cannot trigger it; the same intent covers this). So, on writes:
//
//   - an Origin naming another site is refused (403): same-origin pages
//     pass, and so do scripts and tools, which send no Origin; the
//     --allow-origin list (also used for WebSockets) is honoured;
//   - a body declared as anything but JSON is refused (415): text/plain
//     and the form types are what a cross-site page can send without a
//     preflight, and every endpoint here reads JSON. A request without a
//     body (POST /api/import takes its parameters in the query string)
//     needs no type, and neither does a body with no Content-Type at all
//     (tools that do not set one; a browser that sends none still sends
//     its Origin, judged above).
type CrossSite struct {
	AllowOrigins []string
	// Refuse writes the refusal; nil: {"message"} (WriteMessage). The
	// public API answers import failures in its own form.
	Refuse func(w http.ResponseWriter, r *http.Request, status int, text string)
}

func (g CrossSite) Wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.Method {
		case http.MethodGet, http.MethodHead, http.MethodOptions:
			next.ServeHTTP(w, r)
			return
		}
		if origin := r.Header.Get("Origin"); origin != "" && !hub.OriginAllowed(origin, r.Host, g.AllowOrigins) {
			g.refuse(w, r, http.StatusForbidden, "writes from pages of another site are refused (Origin '"+
				core.Clip(origin)+"'); open the page from this server, or start it with --allow-origin "+core.Clip(origin))
			return
		}
		if ct := r.Header.Get("Content-Type"); ct != "" && hasBody(r) && !isJSONType(ct) {
			g.refuse(w, r, http.StatusUnsupportedMediaType, "the request body must be JSON, sent with Content-Type: application/json, not '"+core.Clip(ct)+"'")
			return
		}
		next.ServeHTTP(w, r)
	})
}

func (g CrossSite) refuse(w http.ResponseWriter, r *http.Request, status int, text string) {
	if g.Refuse != nil {
		g.Refuse(w, r, status, text)
		return
	}
	WriteMessage(w, status, text)
}

// hasBody reports whether a request carries a body.
func hasBody(r *http.Request) bool {
	return r.ContentLength > 0 || (r.ContentLength < 0 && r.Body != nil && r.Body != http.NoBody)
}

// isJSONType accepts application/json and any application/*+json.
func isJSONType(contentType string) bool {
	media, _, err := mime.ParseMediaType(contentType)
	if err != nil {
		return false
	}
	return media == "application/json" || strings.HasPrefix(media, "application/") && strings.HasSuffix(media, "+json")
}
