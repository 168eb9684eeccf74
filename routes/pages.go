package routes

import (
	"html"
	"net/http"
	"strings"

	"github.com/go-chi/chi/v5"
	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/routes/httpkit"
	"github.com/vttapp/companion/templates"
)

// Module pages (and campaign pages) as HTML, themed like entity pages:
//
//	/module/<module>/page/<page>      the contract's form (slug or id each)
//	/campaign/<campaign>/page/<page>  a campaign's page
//	/page/<page>                      any container's page: redirects to its URL
//
// On the public listener a page answers only once the game master has
// shown it to players, and then only what was shown (engine.PlayerAccess);
// any other page is 404 like an unknown one. The host listener renders
// every page whole.

// mountPages adds the page routes; players selects the public listener's
// rule.
func (s *server) mountPages(r chi.Router, players bool) {
	r.Get("/module/{owner}/page/{page}", s.servePage(core.OwnerModule, players))
	r.Get("/campaign/{owner}/page/{page}", s.servePage(core.OwnerCampaign, players))
	r.Get("/page/{page}", s.servePage("", players))
}

func (s *server) servePage(scope string, players bool) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		a := core.PageAddress{Scope: scope, Owner: httpkit.PathParam(r, "owner"), Page: httpkit.PathParam(r, "page")}
		var v *core.PageView
		var err error
		if players {
			v, err = s.cfg.Service.Players().PageAt(r.Context(), a)
		} else {
			v, err = s.cfg.Service.PageAt(r.Context(), a)
		}
		if err != nil {
			s.referenceError(w, r, err)
			return
		}
		if scope == "" {
			// /page/<slug>: the page's own URL, so that its links and its
			// address name its container.
			w.Header().Set("Cache-Control", "no-cache")
			http.Redirect(w, r, v.URL, http.StatusFound)
			return
		}
		var b strings.Builder
		b.WriteString(`<header class="page-head"><h1>`)
		b.WriteString(html.EscapeString(v.Page.Name))
		b.WriteString(`</h1><p>`)
		b.WriteString(html.EscapeString(v.Owner.Name))
		b.WriteString("</p></header>\n<article class=\"page\">\n")
		b.WriteString(v.HTML)
		b.WriteString("\n</article>")
		var page []byte
		if sys, err := s.system(); err == nil {
			page = sys.RenderContentPage(v.Page.Name, []byte(b.String()))
		} else {
			page = templates.Page(templates.PageData{Title: v.Page.Name, Kind: "page", CSS: []string{templates.PageCSS}, Body: []byte(b.String())})
		}
		h := w.Header()
		h.Set("Content-Type", "text/html; charset=utf-8")
		h.Set("Content-Security-Policy", httpkit.PagePolicy)
		h.Set("X-Content-Type-Options", "nosniff")
		// What players may read changes when the game master shows or hides
		// a page: never served from a cache without asking.
		h.Set("Cache-Control", "no-store")
		w.WriteHeader(http.StatusOK)
		w.Write([]byte(page))
	}
}
