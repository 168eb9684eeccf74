package routes

import (
	"html/template"
	"net/http"
	"strings"
	"unicode"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/routes/httpkit"
)

// parseReference splits an entity reference "<kind>.<slug-or-id>" (for
// example "monster.goblin"): the kind is lower-case [a-z][a-z0-9_]*, the
// slug or id is letters, digits, '-' and '_'.
func parseReference(ref string) (kind, slug string, ok bool) {
	kind, slug, found := strings.Cut(ref, ".")
	if !found || kind == "" || slug == "" {
		return "", "", false
	}
	for i, c := range kind {
		switch {
		case c >= 'a' && c <= 'z':
		case i > 0 && (c >= '0' && c <= '9' || c == '_'):
		default:
			return "", "", false
		}
	}
	for _, c := range slug {
		if !unicode.IsLetter(c) && !unicode.IsDigit(c) && c != '-' && c != '_' {
			return "", "", false
		}
	}
	return kind, slug, true
}

// serveReference answers GET /{reference} with the entity's page, rendered
// by the system from its view template and theme. A malformed reference is
// 400 and an unknown one 404, both as small HTML pages.
func (s *server) serveReference(w http.ResponseWriter, r *http.Request) {
	ref := httpkit.PathParam(r, "reference")
	kindName, slug, ok := parseReference(ref)
	if !ok {
		writeHTMLError(w, http.StatusBadRequest, "Invalid reference",
			"'"+ref+"' is not an entity reference: the form is <kind>.<slug-or-id>, for example monster.goblin.")
		return
	}
	s.serveEntityPage(w, r, kindName, slug)
}

// servePathReference answers GET /{kind}/{slug}, the form the API hands
// out in references (for example /monster/cinder-hound, which the real web
// client opens): the same page as /monster.cinder-hound. The folders
// served under their own names (/client/, /modules/, /campaigns/,
// /systems/, /others/) and /api are routed before it.
func (s *server) servePathReference(w http.ResponseWriter, r *http.Request) {
	kind, slug := httpkit.PathParam(r, "kind"), httpkit.PathParam(r, "slug")
	kindName, slugName, ok := parseReference(kind + "." + slug)
	if !ok || strings.Contains(slug, ".") {
		writeHTMLError(w, http.StatusBadRequest, "Invalid reference",
			"'/"+kind+"/"+slug+"' is not an entity reference: the form is /<kind>/<slug-or-id>, for example /monster/goblin.")
		return
	}
	s.serveEntityPage(w, r, kindName, slugName)
}

// serveEntityPage renders the page of the entity of kind with slug (or id).
func (s *server) serveEntityPage(w http.ResponseWriter, r *http.Request, kindName, slug string) {
	sys, err := s.system()
	if err != nil {
		writeHTMLError(w, http.StatusNotFound, "Not found", core.MessageOf(err))
		return
	}
	if _, known := sys.Kind(kindName); !known {
		writeHTMLError(w, http.StatusNotFound, "Not found", "The game system "+sys.Name()+" has no entity kind '"+kindName+"'.")
		return
	}
	ctx := r.Context()
	e, err := s.cfg.Service.EntityByReference(ctx, kindName, slug)
	if err != nil {
		s.referenceError(w, r, err)
		return
	}
	page, err := sys.RenderPage(ctx, s.forReaders(e))
	if err != nil {
		s.referenceError(w, r, err)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	w.Write(page)
}

func (s *server) referenceError(w http.ResponseWriter, r *http.Request, err error) {
	status := httpkit.StatusOf(err)
	if status == http.StatusInternalServerError {
		s.cfg.Log.Error("rendering reference page", "path", r.URL.Path, "err", err)
	}
	writeHTMLError(w, status, http.StatusText(status), core.MessageOf(err))
}

var errorPage = template.Must(template.New("error").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Title}}</title>
<style>body{font-family:system-ui,sans-serif;max-width:40rem;margin:3rem auto;padding:0 1rem;color:#222}h1{font-size:1.4rem}</style>
</head><body><h1>{{.Title}}</h1><p>{{.Message}}</p><p><a href="/">Companion</a></p></body></html>
`))

// writeHTMLError answers status with a small HTML page.
func writeHTMLError(w http.ResponseWriter, status int, title, message string) {
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	errorPage.Execute(w, struct{ Title, Message string }{title, message})
}
