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

	"github.com/vttapp/companion/guard"
)

// cachedBody is a response computed once and served many times: a system
// document, a collection listing, the OpenAPI description. It carries its
// ETag and a gzip form made on first demand, so a warm read is a copy of
// bytes.
type cachedBody struct {
	body        []byte
	etag        string
	contentType string

	// Header values built once: a warm answer assigns slices instead of
	// allocating them.
	hContentType, hETag, hWeakETag, hLength []string

	gzipOnce sync.Once
	gzipped  []byte
	hGzipLen []string
}

var (
	hNoCache    = []string{"no-cache"}
	hVaryAccept = []string{"Accept-Encoding"}
	hGzip       = []string{"gzip"}
)

// newCachedBody wraps body; etag may be empty (a content hash is used).
func newCachedBody(body []byte, etag, contentType string) *cachedBody {
	if etag == "" {
		sum := sha256.Sum256(body)
		etag = hex.EncodeToString(sum[:12])
	}
	c := &cachedBody{body: body, etag: quoteETag(etag), contentType: contentType}
	c.hContentType = []string{contentType}
	c.hETag = []string{c.etag}
	c.hWeakETag = []string{"W/" + c.etag}
	c.hLength = []string{strconv.Itoa(len(body))}
	return c
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
		gz, _ := gzip.NewWriterLevel(&buf, gzip.DefaultCompression)
		gz.Write(c.body)
		gz.Close()
		c.gzipped = buf.Bytes()
		c.hGzipLen = []string{strconv.Itoa(len(c.gzipped))}
	})
	return c.gzipped
}

// serve answers the body with its ETag: 304 to a matching If-None-Match,
// the precompressed form to a client that accepts gzip.
func (c *cachedBody) serve(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h["Content-Type"] = c.hContentType
	h["Cache-Control"] = hNoCache
	h["Vary"] = hVaryAccept
	if etagMatches(r.Header.Get("If-None-Match"), c.etag) {
		h["ETag"] = c.hETag
		w.WriteHeader(http.StatusNotModified)
		return
	}
	body := c.body
	if len(c.body) >= guard.GzipMinSize && guard.AcceptsGzip(r) {
		body = c.gzipBody()
		h["Content-Encoding"] = hGzip
		h["ETag"] = c.hWeakETag
		h["Content-Length"] = c.hGzipLen
	} else {
		h["ETag"] = c.hETag
		h["Content-Length"] = c.hLength
	}
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
