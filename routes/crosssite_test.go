package routes

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// A page on another site cannot write through a player's browser: its
// Origin is refused (403), and a body it could send without a preflight
// (text/plain, forms) is refused whatever the Origin (415). Same-origin
// pages and tools sending no Origin write as before.
func TestCrossSiteWritesAreRefused(t *testing.T) {
	e := newEnv(t, envOptions{})
	msg := `{"text":"hello"}`
	wantError(t, e.do(t, "POST", "/api/messages", msg, "Origin", "https://evil.example", "Content-Type", "text/plain"), 403, "another site")
	wantError(t, e.do(t, "POST", "/api/messages", msg, "Origin", "https://evil.example"), 403, "another site")
	wantError(t, e.do(t, "POST", "/api/messages", msg, "Origin", "null"), 403, "another site")
	wantError(t, e.do(t, "PATCH", "/api/tokens/"+tokenA, `{"name":"x"}`, "Origin", "http://192.168.1.99:8080"), 403, "another site")
	wantError(t, e.do(t, "POST", "/api/messages", msg, "Content-Type", "text/plain;charset=UTF-8"), 415, "must be JSON")
	wantError(t, e.do(t, "POST", "/api/messages", msg, "Content-Type", "application/x-www-form-urlencoded"), 415, "must be JSON")
	wantError(t, e.do(t, "PUT", "/api/monsters/"+goblinID, `{}`, "Content-Type", "multipart/form-data; boundary=x"), 415, "must be JSON")
	snap := e.do(t, "GET", "/api", "").json(t)
	if msgs, _ := snap["messages"].([]any); len(msgs) != 0 {
		t.Fatalf("a refused write stored %d messages", len(msgs))
	}

	self := e.srv.URL // the page served by this server
	for _, headers := range [][]string{
		{"Origin", self},
		{},
		{"Origin", self, "Content-Type", "application/json; charset=utf-8"},
	} {
		if r := e.do(t, "POST", "/api/messages", msg, headers...); r.status != http.StatusOK && r.status != http.StatusCreated {
			t.Errorf("%v: %d %s", headers, r.status, r.body)
		}
	}
	if r := e.do(t, "PATCH", "/api/tokens/"+tokenA, `{"name":"moved"}`, "Content-Type", "application/merge-patch+json"); r.status != http.StatusOK {
		t.Errorf("merge-patch+json: %d %s", r.status, r.body)
	}
	// Reads and preflights are unaffected: the contract's CORS rule holds.
	if r := e.do(t, "GET", "/api", "", "Origin", "https://evil.example"); r.status != http.StatusOK {
		t.Errorf("a cross-site read: %d", r.status)
	}
	r := e.do(t, "OPTIONS", "/api/messages", "", "Origin", "https://evil.example", "Access-Control-Request-Method", "POST")
	if got := r.header.Get("Access-Control-Allow-Methods"); got != "GET, OPTIONS" {
		t.Errorf("preflight allows %q", got)
	}
}

// POST /api/import: the same refusals, with the {"error"} body of import
// failures; parameters in the query string need no body and no type.
func TestCrossSiteImportOffersAreRefused(t *testing.T) {
	env := newImportEnv(t)
	q := "?url=" + url.QueryEscape("https://example.org/a.module")
	for _, c := range []struct {
		status  int
		body    string
		headers []string
	}{
		{403, "", []string{"Origin", "https://evil.example"}},
		{403, `{"url":"https://example.org/a.module"}`, []string{"Origin", "https://evil.example", "Content-Type", "text/plain"}},
		{415, `{"url":"https://example.org/a.module"}`, []string{"Content-Type", "text/plain"}},
	} {
		target := env.public.URL + "/api/import"
		if c.body == "" {
			target += q
		}
		var body *strings.Reader
		req, _ := http.NewRequest("POST", target, nil)
		if c.body != "" {
			body = strings.NewReader(c.body)
			req, _ = http.NewRequest("POST", target, body)
		}
		for i := 0; i+1 < len(c.headers); i += 2 {
			req.Header.Set(c.headers[i], c.headers[i+1])
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		var v map[string]any
		json.NewDecoder(resp.Body).Decode(&v)
		resp.Body.Close()
		if resp.StatusCode != c.status || len(v) != 1 || v["error"] == nil {
			t.Errorf("%v: %d %v, want %d with one key 'error'", c.headers, resp.StatusCode, v, c.status)
		}
	}
	if n := len(env.manager.Offers()); n != 0 {
		t.Fatalf("refused requests made %d offers", n)
	}
	resp, err := http.Post(env.public.URL+"/api/import"+q, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusAccepted || len(env.manager.Offers()) != 1 {
		t.Fatalf("a query-string offer with no body: %d", resp.StatusCode)
	}
}
