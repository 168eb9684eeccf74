package routes

import (
	"io"
	"io/fs"
	"mime"
	"net/http"
	"net/url"
	"path"
	"strings"
	"sync"

	"github.com/go-chi/chi/v5"
	"github.com/vttapp/companion/imports"
	"github.com/vttapp/companion/routes/httpkit"
	"github.com/vttapp/companion/web"
)

// clientPolicy is the Content-Security-Policy of /client/, installed or
// built in. Unlike imported content (contentPolicy), a client is an
// application: it runs its own scripts and opens the WebSocket. The policy
// keeps scripts, workers and connections to this server (connect-src also
// allows ws:/wss:, which 'self' does not cover in every browser) and stops
// plugins, framing by other sites and <base> rewriting. It allows inline
// and eval'd script and inline style on purpose: the Encounter+ web client
// has an inline script in its index.html, Angular injects component styles
// as <style> elements, and PixiJS 6 compiles shader uniform code with
// new Function; a stricter policy breaks the real client (docs/host-console.md).
// frame-src also allows http://localhost:8080: a token tap in the real
// client opens the entity page (/monster/goblin) in a frame at that fixed
// address, where the application it was written for serves it on the same
// device. Companion serves its scripts with that literal made the page's
// own origin (client_rebase.go), so on every device the frame is 'self';
// the address stays allowed for a build whose literal is written in a
// form the rewrite leaves alone, framed on the machine Companion runs on.
const clientPolicy = "default-src 'self' data: blob:; img-src * data: blob:; media-src * data: blob:; " +
	"style-src 'self' 'unsafe-inline'; font-src 'self' data:; script-src 'self' 'unsafe-inline' 'unsafe-eval'; " +
	"worker-src 'self' blob:; connect-src 'self' ws: wss:; frame-src 'self' " + realClientEntityOrigin + "; " +
	"object-src 'none'; base-uri 'self'; frame-ancestors 'self'"

// realClientEntityOrigin is where the real web client frames entity pages.
const realClientEntityOrigin = "http://localhost:8080"

// serveClient serves /client/...: the client installed in the data folder
// when there is one, else the built-in client. A folder answers its
// index.html; a missing file is 404 (the real client routes nothing under
// its own path, so no SPA fallback to index.html: it would hide missing
// assets behind an HTML page). An installed client never falls back to
// built-in files, which would mix two applications.
func (s *server) serveClient(w http.ResponseWriter, r *http.Request) {
	name, ok := clientFileName(r)
	if !ok {
		httpkit.NotFound(w, r)
		return
	}
	f, installed, err := s.openClientFile(name)
	if err != nil {
		httpkit.NotFound(w, r)
		return
	}
	defer f.Close()
	w.Header().Set("Content-Security-Policy", clientPolicy)
	if name == "index.html" {
		s.markClientPage(w, installed) // client_kind.go
	}
	var body *cachedBody
	switch {
	case !installed:
		body = builtInClientBody(name, f)
		if name == "index.html" && body != nil {
			body = s.withPictureHint(r.Context(), body)
		}
	case path.Ext(name) == ".js":
		body = s.scripts.rebased(name, f) // client_rebase.go
	}
	if body != nil {
		w.Header().Set("X-Content-Type-Options", "nosniff")
		body.serve(w, r)
		return
	}
	if installed && name == "index.html" {
		// Never kept by the browser: a Back to the client after following
		// a link from its chat would otherwise restore the page from the
		// browser's cache with its socket long closed, dead until a reload.
		s.serveFileCached(w, r, name, f, "no-store")
		return
	}
	s.serveFile(w, r, name, f)
}

// builtInClientBodies holds each built-in client file read once, with its
// ETag and gzip form (cached.go). The files are embedded, so they never
// change while the process runs. Served from a file, each request read,
// hashed and gzipped the whole bundle anew: about 900 KB, 20-80 ms of a
// busy CPU before a phone could start running the client.
var builtInClientBodies sync.Map // name -> *cachedBody

// builtInClientBody is the cached form of the built-in client's file
// name (open as f); nil when it cannot be read, and the caller serves the
// file as it is.
func builtInClientBody(name string, f fs.File) *cachedBody {
	if c, ok := builtInClientBodies.Load(name); ok {
		return c.(*cachedBody)
	}
	data, err := io.ReadAll(f)
	if err != nil {
		return nil
	}
	kind := mime.TypeByExtension(path.Ext(name))
	if kind == "" {
		kind = http.DetectContentType(data)
	}
	c, _ := builtInClientBodies.LoadOrStore(name, newCachedBody(data, "", kind))
	return c.(*cachedBody)
}

// openClientFile opens a file of the installed client, or of the built-in
// one when none is installed; installed tells which.
func (s *server) openClientFile(name string) (f fs.File, installed bool, err error) {
	if folder := s.clientFolder(); folder != nil {
		f, installed, err := folder.Open(name)
		if installed && err != nil {
			return nil, true, err
		}
		if installed && name == "index.html" {
			f, err := rebaseIndex(f) // client_rebase.go
			return f, true, err
		}
		if installed {
			return f, true, nil
		}
	}
	f, err = web.Client().Open(name)
	return f, false, err
}

// clientFolder is the installed client's folder: the import manager's,
// whose lock orders file opens with installs, or, on a server without one
// (nothing installs then), a folder of its own.
func (s *server) clientFolder() *imports.ClientFolder {
	if s.cfg.Imports != nil {
		return s.cfg.Imports.ClientFolder()
	}
	if s.cfg.DataDir == "" {
		return nil
	}
	return imports.NewClientFolder(s.cfg.DataDir)
}

// clientFileName is the file a /client/ request names, "index.html" for a
// folder, judged like requestedFile (percent-encoded forms decoded first).
func clientFileName(r *http.Request) (string, bool) {
	name := chi.URLParam(r, "*")
	if r.URL.RawPath != "" {
		decoded, err := url.PathUnescape(name)
		if err != nil {
			return "", false
		}
		name = decoded
	}
	if name == "" || strings.HasSuffix(name, "/") {
		name += "index.html"
	}
	if strings.ContainsAny(name, "\\\x00") || !fs.ValidPath(name) {
		return "", false
	}
	return name, true
}
