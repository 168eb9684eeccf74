// Package guard holds what stands between a listener and the routes: the
// limits and checks every request passes before a handler sees it, and
// none of which knows what the routes do. Connections per address
// (ConnLimiter), the pace of request bodies (BoundBodyTimes), the size of
// bodies and how many large ones at once (LimitBodies), the Host header
// on the public listener (PublicHosts), writes from other sites
// (CrossSite), gzip (Compress), the request log (LogRequests) and panic
// recovery (RecoverPanics). routes puts them around its routers.
package guard

import (
	"encoding/json"
	"net/http"
)

// WriteMessage answers status with {"message": text}, the error body of
// the whole API.
func WriteMessage(w http.ResponseWriter, status int, text string) {
	body, _ := json.Marshal(struct {
		Message string `json:"message"`
	}{text})
	h := w.Header()
	h.Set("Content-Type", "application/json; charset=utf-8")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Del("ETag")
	h.Del("Content-Encoding")
	h.Del("Content-Length")
	w.WriteHeader(status)
	w.Write(append(body, '\n'))
}
