package routes

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestPublicHostGuard: a page that rebinds its own DNS name to this server
// cannot write or open a WebSocket; it can still read.
func TestPublicHostGuard(t *testing.T) {
	e := newEnv(t, envOptions{})
	rebound := func(method, path, body string, header ...string) *httptest.ResponseRecorder {
		req := httptest.NewRequest(method, path, strings.NewReader(body))
		req.Host = "attacker.example:8080"
		for i := 0; i+1 < len(header); i += 2 {
			req.Header.Set(header[i], header[i+1])
		}
		rec := httptest.NewRecorder()
		e.srv.Config.Handler.ServeHTTP(rec, req)
		return rec
	}
	if rec := rebound("PATCH", "/api/monsters/"+goblinID, `{"name":"Pwned"}`, "Origin", "http://attacker.example:8080"); rec.Code != http.StatusForbidden ||
		!strings.Contains(rec.Body.String(), "--allow-host attacker.example") {
		t.Fatalf("PATCH from a rebound name: %d %s", rec.Code, rec.Body.String())
	}
	if rec := rebound("POST", "/api/messages", `{"text":"hi"}`); rec.Code != http.StatusForbidden {
		t.Fatalf("POST from a rebound name: %d", rec.Code)
	}
	if rec := rebound("GET", "/", "", "Connection", "Upgrade", "Upgrade", "websocket", "Sec-WebSocket-Version", "13",
		"Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ==", "Origin", "http://attacker.example:8080"); rec.Code != http.StatusForbidden {
		t.Fatalf("WebSocket from a rebound name: %d", rec.Code)
	}
	if rec := rebound("GET", "/api/system", ""); rec.Code != http.StatusOK {
		t.Fatalf("a read from any name should work: %d", rec.Code)
	}
	if tok, err := e.svc.Entity(t.Context(), "monster", goblinID); err != nil || tok.Name == "Pwned" {
		t.Fatalf("the refused write changed the entity: %v %v", tok, err)
	}
}
