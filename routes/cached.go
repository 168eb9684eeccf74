package routes

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"strconv"
	"strings"
	"sync"
)

// cachedBody is a response computed once and served many times: a system
// document, a collection listing, the OpenAPI description. It carries its
// ETag and a gzip form made on first demand, so a warm read is a copy of
// bytes.
type cachedBody struct {
	body        []byte
	etag        string
	contentType string

	gzipOnce sync.Once
	gzipped  []byte
}

// newCachedBody wraps body; etag may be empty (a content hash is used).
func newCachedBody(body []byte, etag, contentType string) *cachedBody {
	if etag == "" {
		sum := sha256.Sum256(body)
		etag = hex.EncodeToString(sum[:12])
	}
	return &cachedBody{body: body, etag: quoteETag(etag), contentType: contentType}
}

// quoteETag returns etag as a quoted entity tag.
func quoteETag(etag string) string {
	if strings.HasPrefix(etag, `"`) || strings.HasPrefix(etag, `W/"`) {
		return etag
	}
	return `"` + etag + `"`
}

func (c *cachedBody) gzipBody() []byte {
	c.gzipOnce.Do(func() {
		var buf bytes.Buffer
		gz, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
		gz.Write(c.body)
		gz.Close()
		c.gzipped = buf.Bytes()
	})
	return c.gzipped
}

// serve answers the body with its ETag: 304 to a matching If-None-Match,
// the precompressed form to a client that accepts gzip.
func (c *cachedBody) serve(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Content-Type", c.contentType)
	h.Set("Cache-Control", "no-cache")
	h.Set("Vary", "Accept-Encoding")
	if etagMatches(r.Header.Get("If-None-Match"), c.etag) {
		h.Set("ETag", c.etag)
		w.WriteHeader(http.StatusNotModified)
		return
	}
	body := c.body
	if len(c.body) >= gzipMinSize && acceptsGzip(r) {
		body = c.gzipBody()
		h.Set("Content-Encoding", "gzip")
		h.Set("ETag", "W/"+c.etag)
	} else {
		h.Set("ETag", c.etag)
	}
	h.Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(http.StatusOK)
	if r.Method != http.MethodHead {
		w.Write(body)
	}
}

// etagMatches applies the weak comparison of If-None-Match (RFC 9110
// 13.1.2): "*" or any listed tag equal to etag once W/ is set aside.
func etagMatches(header, etag string) bool {
	if header == "" {
		return false
	}
	want := strings.TrimPrefix(etag, "W/")
	for _, tag := range strings.Split(header, ",") {
		tag = strings.TrimSpace(tag)
		if tag == "*" || strings.TrimPrefix(tag, "W/") == want {
			return true
		}
	}
	return false
}
