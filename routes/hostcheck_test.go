package routes

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestPublicHostsAllowed(t *testing.T) {
	p := newPublicHosts([]string{"Table.Lan", "dm-laptop.example:8080"})
	for _, h := range []string{"192.168.1.20:8080", "10.0.0.5", "[fe80::1]:8080", "[::1]:80", "127.0.0.1:8080", "localhost:8080", "LOCALHOST",
		"dm-laptop.local:8080", "dm-laptop.local.", "table.lan", "TABLE.LAN:9000", "dm-laptop.example"} {
		if !p.allowed(h) {
			t.Errorf("%q refused", h)
		}
	}
	for _, h := range []string{"", "evil.example", "evil.example:8080", "localhost.evil.example", "local", "table.lan.evil.example", "192.168.1.20.evil.example"} {
		if p.allowed(h) {
			t.Errorf("%q allowed", h)
		}
	}
}

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
