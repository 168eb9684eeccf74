package api

// Black-box audit of the HTTP rules fixed after the first suite: the real
// binary, a real HTTP client.

import (
	"strings"
	"testing"

	"github.com/vttapp/companion/tests/e2e"
)

func TestAuditAPIBlackBox(t *testing.T) {
	srv := e2e.StartServer(t, e2e.ServerOptions{})
	c := e2e.NewAPIClient(t, srv.URL)
	var monsters []e2e.ApiEntity
	c.Get("/api/monsters?schema=model", &monsters)
	if len(monsters) == 0 {
		t.Fatal("no sample monsters")
	}
	id := monsters[0].ID

	// Reserved labels are never a collection: 405 with the fixed route's
	// Allow, or a 404 that says where combatants and tokens are read.
	for _, method := range []string{"GET", "HEAD", "DELETE"} {
		r := c.Do(method, "/api/messages", "")
		if r.Status != 405 || r.Header.Get("Allow") != "POST, OPTIONS" {
			t.Fatalf("%s /api/messages: %d Allow %q", method, r.Status, r.Header.Get("Allow"))
		}
	}
	e2e.WantAPIError(t, c.Do("GET", "/api/combatants", ""), 404, "no endpoint lists combatants")
	e2e.WantAPIError(t, c.Do("GET", "/api/tokens", ""), 404, "no endpoint lists tokens")

	// An id means the same however it is percent-encoded.
	escaped := "%" + strings.ToUpper(hexByte(id[0])) + id[1:]
	if got := c.Get("/api/monsters/"+escaped, nil).Object(t); got["id"] != id {
		t.Fatalf("GET with %s: id %v", escaped, got["id"])
	}
	e2e.WantAPIError(t, c.Do("GET", "/api/monsters/no%2Fsuch", ""), 404, "'no/such'")

	// A huge id is not echoed back whole.
	r := c.Do("GET", "/api/monsters/"+strings.Repeat("x", 20000), "")
	e2e.WantAPIError(t, r, 404, "…")
	if len(r.Body) > 400 {
		t.Fatalf("404 body of %d bytes", len(r.Body))
	}

	// A cross-origin conditional GET passes its preflight.
	pre := c.Do("OPTIONS", "/api/monsters", "", "Origin", "http://other.example",
		"Access-Control-Request-Method", "GET", "Access-Control-Request-Headers", "if-none-match")
	if pre.Header.Get("Access-Control-Allow-Headers") != "if-none-match" || pre.Header.Get("Access-Control-Allow-Methods") != "GET, OPTIONS" {
		t.Fatalf("preflight: %v", pre.Header)
	}
}

func hexByte(b byte) string {
	const digits = "0123456789abcdef"
	return string([]byte{digits[b>>4], digits[b&15]})
}
