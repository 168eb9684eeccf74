package tests

// Black-box audit of the HTTP rules fixed after the first suite: the real
// binary, a real HTTP client.

import (
	"strings"
	"testing"
)

func TestAuditAPIBlackBox(t *testing.T) {
	srv := StartServer(t, ServerOptions{})
	c := newAPIClient(t, srv.URL)
	var monsters []apiEntity
	c.get("/api/monsters?schema=model", &monsters)
	if len(monsters) == 0 {
		t.Fatal("no sample monsters")
	}
	id := monsters[0].ID

	// Reserved labels are never a collection: 405 with the fixed route's
	// Allow, or a 404 that says where combatants and tokens are read.
	for _, method := range []string{"GET", "HEAD", "DELETE"} {
		r := c.do(method, "/api/messages", "")
		if r.status != 405 || r.header.Get("Allow") != "POST, OPTIONS" {
			t.Fatalf("%s /api/messages: %d Allow %q", method, r.status, r.header.Get("Allow"))
		}
	}
	wantAPIError(t, c.do("GET", "/api/combatants", ""), 404, "no endpoint lists combatants")
	wantAPIError(t, c.do("GET", "/api/tokens", ""), 404, "no endpoint lists tokens")

	// An id means the same however it is percent-encoded.
	escaped := "%" + strings.ToUpper(hexByte(id[0])) + id[1:]
	if got := c.get("/api/monsters/"+escaped, nil).object(t); got["id"] != id {
		t.Fatalf("GET with %s: id %v", escaped, got["id"])
	}
	wantAPIError(t, c.do("GET", "/api/monsters/no%2Fsuch", ""), 404, "'no/such'")

	// A huge id is not echoed back whole.
	r := c.do("GET", "/api/monsters/"+strings.Repeat("x", 20000), "")
	wantAPIError(t, r, 404, "…")
	if len(r.body) > 400 {
		t.Fatalf("404 body of %d bytes", len(r.body))
	}

	// A cross-origin conditional GET passes its preflight.
	pre := c.do("OPTIONS", "/api/monsters", "", "Origin", "http://other.example",
		"Access-Control-Request-Method", "GET", "Access-Control-Request-Headers", "if-none-match")
	if pre.header.Get("Access-Control-Allow-Headers") != "if-none-match" || pre.header.Get("Access-Control-Allow-Methods") != "GET, OPTIONS" {
		t.Fatalf("preflight: %v", pre.header)
	}
}

func hexByte(b byte) string {
	const digits = "0123456789abcdef"
	return string([]byte{digits[b>>4], digits[b&15]})
}
