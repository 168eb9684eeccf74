package routes

import (
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/go-chi/chi/v5"
	"github.com/vttapp/companion/routes/httpkit"
	"github.com/vttapp/companion/systems"
)

// cors implements contract section 7: a preflight is answered with GET and
// OPTIONS only, so a browser refuses a cross-origin PUT or PATCH; GET
// responses may be read from any origin. The preflight allows the headers
// it is asked for (a GET with If-None-Match is preflighted too), and the
// ETag of a GET answer is readable by the page. Its Allow header is what
// the path really serves (routes; GET, HEAD, OPTIONS when nil): Allow
// describes the resource, Access-Control-Allow-Methods what another origin
// may do with it.
func cors(next http.Handler, routes chi.Routes) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		switch r.Method {
		case http.MethodOptions:
			h.Set("Access-Control-Allow-Origin", "*")
			h.Set("Access-Control-Allow-Methods", "GET, OPTIONS")
			if asked := r.Header.Get("Access-Control-Request-Headers"); asked != "" {
				h.Set("Access-Control-Allow-Headers", asked)
			}
			h.Set("Access-Control-Max-Age", "600")
			allowed := "GET, HEAD, OPTIONS"
			if routes != nil {
				allowed = strings.Join(allowedMethods(routes, requestPath(r)), ", ")
			}
			h.Set("Allow", allowed)
			w.WriteHeader(http.StatusNoContent)
			return
		case http.MethodGet, http.MethodHead:
			h.Set("Access-Control-Allow-Origin", "*")
			h.Set("Access-Control-Expose-Headers", "ETag")
		}
		next.ServeHTTP(w, r)
	})
}

// methodNotAllowed answers 405 with the Allow header listing the methods the
// path does support (chi drops that list when the handler is custom).
func methodNotAllowed(mux *chi.Mux) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		writeMethodNotAllowed(w, r, allowedMethods(mux, requestPath(r)))
	}
}

func writeMethodNotAllowed(w http.ResponseWriter, r *http.Request, allowed []string) {
	w.Header().Set("Allow", strings.Join(allowed, ", "))
	httpkit.WriteMessage(w, http.StatusMethodNotAllowed,
		fmt.Sprintf("method %s is not allowed on %s (allowed: %s)", r.Method, r.URL.Path, strings.Join(allowed, ", ")))
}

// requestPath is the path chi routes on: the raw one when it has escapes.
func requestPath(r *http.Request) string {
	if r.URL.RawPath != "" {
		return r.URL.RawPath
	}
	return r.URL.Path
}

// allowedMethods lists the methods some route serves at path, OPTIONS
// last (the CORS layer answers it everywhere). The collection routes do
// not count for a reserved label such as "messages": no system can define
// that collection, so they never serve it.
func allowedMethods(routes chi.Routes, path string) []string {
	serves := func(method string) bool {
		rctx := chi.NewRouteContext()
		pattern := routes.Find(rctx, method, path)
		if pattern == "" {
			return false
		}
		if strings.HasPrefix(pattern, "/api/{collection}") {
			label, err := url.PathUnescape(rctx.URLParam("collection"))
			return err == nil && !slices.Contains(systems.ReservedCollections, label)
		}
		return true
	}
	var allowed []string
	for _, m := range []string{http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete} {
		if serves(m) || (m == http.MethodHead && serves(http.MethodGet)) {
			allowed = append(allowed, m)
		}
	}
	return append(allowed, http.MethodOptions)
}
