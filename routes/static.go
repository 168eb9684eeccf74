package routes

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/url"
	"path"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/go-chi/chi/v5"
	"github.com/vttapp/companion/routes/datafolder"
	"github.com/vttapp/companion/routes/httpkit"
)

// mountStatic adds the landing page, the icon, the web client, the data
// folders and, last, the entity reference pages on single segments.
func (s *server) mountStatic(r chi.Router) {
	r.Get("/", s.serveLanding)
	r.Get("/index.html", s.serveLanding)
	r.Get("/icon.png", s.serveWebFile("icon.png"))
	r.Get("/client", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/client/", http.StatusMovedPermanently)
	})
	r.Get("/client/*", s.serveClient) // client_serve.go
	for _, folder := range datafolder.Names {
		r.Get("/"+folder+"/*", s.serveDataFolder(folder, true))
	}
	r.Get("/systems/*", s.serveSystems)
	s.mountPages(r, true) // pages.go: only what the game master showed players
	r.Get("/{reference}", s.serveReference)
	r.Get("/{kind}/{slug}", s.servePathReference) // after the folders above: chi prefers their fixed names
}

// requestedFile returns the wildcard part of the path as a file name inside
// a folder, or ok=false when it could name something outside it or is not
// a plain relative path: "..", "." or empty elements, a leading slash,
// backslashes (a separator on Windows), NUL. Percent-encoded forms such as
// %2e%2e are decoded first, so they are judged like the plain ones.
func requestedFile(r *http.Request) (name string, ok bool) {
	name = chi.URLParam(r, "*")
	if r.URL.RawPath != "" { // chi routed on the escaped path: decode the part we got
		decoded, err := url.PathUnescape(name)
		if err != nil {
			return "", false
		}
		name = decoded
	}
	if name == "" || strings.ContainsAny(name, "\\\x00") || !fs.ValidPath(name) {
		return "", false
	}
	return name, true
}

// serveDataFolder serves the media files of DataDir/<folder> (isMedia).
// Files are opened through os.Root, so neither ".." nor a symbolic link
// can reach outside the folder; folders themselves are not listed. To
// players the picture, video or fog of a map off the player screen, of a
// campaign or a module, is missing
// (core.MapFileShown): the game master may be preparing it.
func (s *server) serveDataFolder(folder string, players bool) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		name, ok := requestedFile(r)
		if !ok || !isMedia(name) {
			httpkit.NotFound(w, r)
			return
		}
		if players && s.soundFileHidden(r, "/"+folder+"/"+name) {
			httpkit.NotFound(w, r)
			return
		}
		if players && s.cfg.Service != nil {
			shown, err := s.cfg.Service.MapFileShown(r.Context(), "/"+folder+"/"+name, httpkit.ActorOf(r).Seat)
			if err != nil || !shown {
				httpkit.NotFound(w, r)
				return
			}
		}
		if wantsTiles(r, name) && s.cfg.DataDir != "" {
			s.serveTiles(w, r, filepath.Join(s.cfg.DataDir, folder), name, "/"+folder+"/"+name)
			return
		}
		s.serveFromRoot(w, r, filepath.Join(s.cfg.DataDir, folder), name)
	}
}

// mediaExtensions are the files /modules/, /campaigns/ and /others/ serve:
// what content points at (map images and videos, token and entity art,
// handouts, sounds, fonts), never an archive's data files. A module's or
// campaign's JSON (module.json, campaign.json, maps.json, combatants.json,
// game.json, screen.json, messages.json, collection files) holds what the
// game master hides: hidden tokens, the dm layer, notes, foes' numbers,
// private messages. The importer no longer keeps those files, since the
// database holds what they held (imports.installStaged), but a data
// folder written by an older version may still have them, and an archive
// may bring any other file: whatever is not media here answers 404 as a
// missing file does.
var mediaExtensions = map[string]bool{
	".png": true, ".apng": true, ".jpg": true, ".jpeg": true, ".jfif": true, ".gif": true, ".webp": true,
	".avif": true, ".svg": true, ".bmp": true, ".ico": true, ".tif": true, ".tiff": true,
	".mp4": true, ".m4v": true, ".webm": true, ".mov": true, ".ogv": true,
	".mp3": true, ".m4a": true, ".aac": true, ".ogg": true, ".oga": true, ".opus": true, ".wav": true, ".flac": true,
	".ttf": true, ".otf": true, ".woff": true, ".woff2": true,
	".pdf": true,
}

// isMedia reports whether a data folder serves the file called name.
func isMedia(name string) bool {
	return mediaExtensions[strings.ToLower(path.Ext(name))]
}

// serveFromRoot serves name from the directory dir, confined by os.Root.
func (s *server) serveFromRoot(w http.ResponseWriter, r *http.Request, dir, name string) {
	if s.cfg.DataDir == "" {
		httpkit.NotFound(w, r)
		return
	}
	f, err := datafolder.OpenInRoot(dir, name)()
	if err != nil {
		httpkit.NotFound(w, r)
		return
	}
	defer f.Close()
	sandboxContent(w.Header(), name)
	s.serveFile(w, r, name, f)
}

// contentPolicy is the Content-Security-Policy of files that came from
// imported archives and installed systems. Such a file may be an HTML or
// SVG page with script; opened directly it would run in the origin of the
// web client and the API. The sandbox gives it an opaque origin and no
// script; images, media, styles and fonts still load from this server.
const contentPolicy = "default-src 'none'; img-src 'self' data: blob:; media-src 'self' blob:; style-src 'self' 'unsafe-inline'; font-src 'self' data:; script-src 'none'; sandbox"

// pdfPolicy is contentPolicy without the sandbox, which would stop
// browsers from showing a PDF handout in their built-in viewer.
const pdfPolicy = "default-src 'none'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; script-src 'none'; object-src 'none'"

// sandboxContent sets the policy for a content file called name.
func sandboxContent(h http.Header, name string) {
	if strings.EqualFold(path.Ext(name), ".pdf") {
		h.Set("Content-Security-Policy", pdfPolicy)
		return
	}
	h.Set("Content-Security-Policy", contentPolicy)
}

// serveSystems serves /systems/<id>/...: the loaded system's own assets
// first, then DataDir/systems (installed systems).
func (s *server) serveSystems(w http.ResponseWriter, r *http.Request) {
	name, ok := requestedFile(r)
	if !ok {
		httpkit.NotFound(w, r)
		return
	}
	if sys, err := s.system(); err == nil {
		if rest, found := strings.CutPrefix(name, sys.ID()+"/"); found && rest != "" && !throughSymlink(sys.Assets(), rest) {
			if f, err := sys.Assets().Open(rest); err == nil {
				defer f.Close()
				sandboxContent(w.Header(), rest)
				s.serveFile(w, r, rest, f)
				return
			}
		}
	}
	s.serveFromRoot(w, r, filepath.Join(s.cfg.DataDir, "systems"), name)
}

// throughSymlink reports whether name, or a folder on its way, is a
// symbolic link in fsys. A system loaded from a folder on disk serves its
// assets through os.DirFS, which would follow a link out of the folder;
// embedded systems have no links (their FS does not implement ReadLinkFS).
func throughSymlink(fsys fs.FS, name string) bool {
	links, ok := fsys.(fs.ReadLinkFS)
	if !ok {
		return false
	}
	for i := 0; i <= len(name); i++ {
		if i < len(name) && name[i] != '/' {
			continue
		}
		info, err := links.Lstat(name[:i])
		if err != nil {
			return false // missing: Open answers 404
		}
		if info.Mode()&fs.ModeSymlink != 0 {
			return true
		}
	}
	return false
}

// serveWeb serves the embedded pages under dir (the host console page;
// the web client has serveClient); a folder answers its index.html.
func (s *server) serveWeb(dir string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if rest, ok := webPath(r); ok {
			s.serveWebPath(w, r, path.Join(dir, rest))
		} else {
			httpkit.NotFound(w, r)
		}
	}
}

// webPath is the file a request under an embedded folder names: the
// wildcard, with index.html for a folder; ok=false when it is not a
// plain relative path.
func webPath(r *http.Request) (string, bool) {
	rest := chi.URLParam(r, "*")
	if rest == "" || strings.HasSuffix(rest, "/") {
		rest += "index.html"
	}
	return rest, fs.ValidPath(rest) && !strings.Contains(rest, "\\")
}

// serveWebFile serves one embedded file.
func (s *server) serveWebFile(name string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) { s.serveWebPath(w, r, name) }
}

func (s *server) serveWebPath(w http.ResponseWriter, r *http.Request, name string) {
	f, err := s.webFS().Open(name)
	if err != nil {
		httpkit.NotFound(w, r)
		return
	}
	defer f.Close()
	s.serveFile(w, r, name, f)
}

// serveFile answers an open file with http.ServeContent: content type from
// the extension, Range, If-None-Match and If-Modified-Since. A folder is
// not listed.
func (s *server) serveFile(w http.ResponseWriter, r *http.Request, name string, f fs.File) {
	s.serveFileCached(w, r, name, f, "no-cache")
}

// serveFileCached is serveFile with the given Cache-Control.
func (s *server) serveFileCached(w http.ResponseWriter, r *http.Request, name string, f fs.File, cacheControl string) {
	info, err := f.Stat()
	if err != nil || info.IsDir() || !info.Mode().IsRegular() {
		httpkit.NotFound(w, r)
		return
	}
	content, ok := f.(io.ReadSeeker)
	var data []byte
	if !ok || info.ModTime().IsZero() {
		// Embedded files have no time: their ETag is a hash of the bytes.
		data, err = io.ReadAll(f)
		if err != nil {
			httpkit.WriteError(w, r, s.cfg.Log, fmt.Errorf("reading %s: %w", name, err))
			return
		}
		content = bytes.NewReader(data)
	}
	h := w.Header()
	h.Set("ETag", fileETag(info, data))
	h.Set("Cache-Control", cacheControl)
	h.Set("X-Content-Type-Options", "nosniff")
	http.ServeContent(w, r, path.Base(name), info.ModTime(), content)
}

// fileETag is a hash of data when given, else the file's time and size.
func fileETag(info fs.FileInfo, data []byte) string {
	if data != nil || info.ModTime().IsZero() {
		sum := sha256.Sum256(data)
		return `"` + hex.EncodeToString(sum[:12]) + `"`
	}
	return `"` + strconv.FormatInt(info.ModTime().UnixNano(), 36) + "-" + strconv.FormatInt(info.Size(), 36) + `"`
}
