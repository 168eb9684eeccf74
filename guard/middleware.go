package guard

import (
	"compress/gzip"
	"fmt"
	"log/slog"
	"mime"
	"net/http"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// RecoverPanics turns a panic in a handler into a 500 {"message": ...} and
// one error log line with the stack, instead of a dropped connection.
func RecoverPanics(log *slog.Logger, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			rec := recover()
			if rec == nil {
				return
			}
			if rec == http.ErrAbortHandler {
				panic(rec) // the server's own way to abort a response
			}
			log.Error("panic serving request", "method", r.Method, "path", r.URL.Path,
				"panic", fmt.Sprint(rec), "stack", string(debug.Stack()))
			WriteMessage(w, http.StatusInternalServerError, "internal error")
		}()
		next.ServeHTTP(w, r)
	})
}

// LogRequests writes one debug line per request (method, path, status,
// bytes, duration). When debug is off it costs one level check.
func LogRequests(log *slog.Logger, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !log.Enabled(r.Context(), slog.LevelDebug) {
			next.ServeHTTP(w, r)
			return
		}
		start := time.Now()
		sw := &statusWriter{ResponseWriter: w, status: http.StatusOK}
		next.ServeHTTP(sw, r)
		log.Debug("http request", "method", r.Method, "path", r.URL.Path, "status", sw.status,
			"bytes", sw.bytes, "duration", time.Since(start), "remote", r.RemoteAddr)
	})
}

// statusWriter records the status and size of a response for the log.
type statusWriter struct {
	http.ResponseWriter
	status int
	bytes  int
	wrote  bool
}

func (w *statusWriter) WriteHeader(status int) {
	if !w.wrote {
		w.status = status
		w.wrote = true
	}
	w.ResponseWriter.WriteHeader(status)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	w.wrote = true
	n, err := w.ResponseWriter.Write(b)
	w.bytes += n
	return n, err
}

func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

func (w *statusWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// LimitBodies caps the body of every write (POST, PUT, PATCH). A declared
// length over the limit is refused at once; a chunked body is cut off by
// http.MaxBytesReader and the handler answers 413 when it reads past it.
// With streamUploads, multipart/form-data bodies pass uncapped: they are
// archive uploads streamed to the importer, which enforces its own limit.
func LimitBodies(limit int64, streamUploads bool, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.Method {
		case http.MethodPost, http.MethodPut, http.MethodPatch:
			if streamUploads && IsMultipart(r) {
				break
			}
			if r.ContentLength > limit {
				WriteMessage(w, http.StatusRequestEntityTooLarge,
					fmt.Sprintf("request body is larger than the limit of %d bytes", limit))
				return
			}
			r.Body = http.MaxBytesReader(w, r.Body, limit)
			if !streamUploads && (r.ContentLength < 0 || r.ContentLength > largeBody) {
				release, ok := largeBodies.acquire(r)
				if !ok {
					WriteMessage(w, http.StatusServiceUnavailable, "too many large requests at once; try again in a moment")
					return
				}
				defer release()
			}
		}
		next.ServeHTTP(w, r)
	})
}

// Large bodies on the public listener. Nothing the server stores is
// larger than 1 MiB (an entity), so a write body above largeBody is rare
// from a real client; each is bounded (core.CheckJSON), but sixteen of
// them at once from one address cost sixteen times as much. At most
// largeBodySlots are read and handled at a time, the others wait their
// turn (largeBodyWait at most, then 503). Small writes never wait.
const (
	largeBody      = 1 << 20
	largeBodySlots = 2
	largeBodyWait  = 30 * time.Second
)

var largeBodies = slots(make(chan struct{}, largeBodySlots))

// slots is a counting semaphore.
type slots chan struct{}

// acquire takes a slot for r, waiting largeBodyWait at most (less when the
// client goes away); release gives it back.
func (s slots) acquire(r *http.Request) (release func(), ok bool) {
	timer := time.NewTimer(largeBodyWait)
	defer timer.Stop()
	select {
	case s <- struct{}{}:
		return func() { <-s }, true
	case <-timer.C:
	case <-r.Context().Done():
	}
	return nil, false
}

func IsMultipart(r *http.Request) bool {
	mediaType, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	return mediaType == "multipart/form-data"
}

// GzipMinSize is the smallest body worth compressing.
const GzipMinSize = 1024

var gzipWriters = sync.Pool{New: func() any {
	gz, _ := gzip.NewWriterLevel(nil, gzip.DefaultCompression)
	return gz
}}

// Compress gzips compressible responses for clients that accept it. A
// handler that already set Content-Encoding (a precompressed cache entry)
// is passed through; ranges, HEAD and small declared bodies are left alone.
func Compress(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodHead || r.Header.Get("Range") != "" || !AcceptsGzip(r) {
			next.ServeHTTP(w, r)
			return
		}
		gw := &gzipWriter{ResponseWriter: w}
		defer gw.finish()
		next.ServeHTTP(gw, r)
	})
}

// acceptsGzip reports whether the Accept-Encoding header allows gzip.
func AcceptsGzip(r *http.Request) bool {
	for _, part := range strings.Split(r.Header.Get("Accept-Encoding"), ",") {
		name, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		if !strings.EqualFold(strings.TrimSpace(name), "gzip") {
			continue
		}
		if q, ok := strings.CutPrefix(strings.TrimSpace(params), "q="); ok {
			if v, err := strconv.ParseFloat(q, 64); err == nil && v == 0 {
				return false
			}
		}
		return true
	}
	return false
}

// compressible reports whether a content type is text that gzip shrinks.
func compressible(contentType string) bool {
	ct, _, _ := strings.Cut(contentType, ";")
	ct = strings.TrimSpace(strings.ToLower(ct))
	switch {
	case strings.HasPrefix(ct, "text/"):
		return true
	case ct == "application/json", ct == "application/javascript", ct == "image/svg+xml",
		ct == "application/xml", strings.HasSuffix(ct, "+json"):
		return true
	}
	return false
}

type gzipWriter struct {
	http.ResponseWriter
	gz      *gzip.Writer
	decided bool
}

// WriteHeader decides, from the headers the handler set, whether to
// Compress this response.
func (w *gzipWriter) WriteHeader(status int) {
	if w.decided {
		w.ResponseWriter.WriteHeader(status)
		return
	}
	w.decided = true
	h := w.Header()
	if compressible(h.Get("Content-Type")) && !slices.Contains(h.Values("Vary"), "Accept-Encoding") {
		h.Add("Vary", "Accept-Encoding") // a cached body sets it itself
	}
	if w.shouldCompress(status) {
		h.Set("Content-Encoding", "gzip")
		h.Del("Content-Length")
		if etag := h.Get("ETag"); etag != "" && !strings.HasPrefix(etag, "W/") {
			h.Set("ETag", "W/"+etag) // the compressed bytes differ; the meaning does not
		}
		w.gz = gzipWriters.Get().(*gzip.Writer)
		w.gz.Reset(w.ResponseWriter)
	}
	w.ResponseWriter.WriteHeader(status)
}

func (w *gzipWriter) shouldCompress(status int) bool {
	h := w.Header()
	if status < 200 || status == http.StatusNoContent || status == http.StatusNotModified ||
		status == http.StatusPartialContent || h.Get("Content-Encoding") != "" || h.Get("Content-Range") != "" {
		return false
	}
	if !compressible(h.Get("Content-Type")) {
		return false
	}
	if cl := h.Get("Content-Length"); cl != "" {
		if n, err := strconv.Atoi(cl); err == nil && n < GzipMinSize {
			return false
		}
	}
	return true
}

func (w *gzipWriter) Write(b []byte) (int, error) {
	if !w.decided {
		if w.Header().Get("Content-Type") == "" {
			w.Header().Set("Content-Type", http.DetectContentType(b))
		}
		w.WriteHeader(http.StatusOK)
	}
	if w.gz != nil {
		return w.gz.Write(b)
	}
	return w.ResponseWriter.Write(b)
}

func (w *gzipWriter) Flush() {
	if w.gz != nil {
		w.gz.Flush()
	}
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

func (w *gzipWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// finish flushes the gzip stream and returns the writer to the pool.
func (w *gzipWriter) finish() {
	if w.gz == nil {
		return
	}
	w.gz.Close()
	w.gz.Reset(nil)
	gzipWriters.Put(w.gz)
	w.gz = nil
}
