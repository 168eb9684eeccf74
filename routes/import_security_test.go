package routes

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/vttapp/companion/internal/testkit"
)

// POST /api/import from the network: every hostile request is a 400 with
// the one-key body {"error": ...} and makes no offer; nothing a player can
// send installs anything.

func TestImportAPIHostileRequestsMakeNoOffer(t *testing.T) {
	env := newImportEnv(t)
	q := func(v string) string { return "?url=" + url.QueryEscape(v) }
	for name, c := range map[string][2]string{
		"http public":              {q("http://example.org/a.module"), ""},
		"http userinfo trick":      {q("http://127.0.0.1@evil.example/a.module"), ""},
		"http address trailing .":  {q("http://127.0.0.1./a.module"), ""},
		"http decimal loopback":    {q("http://2130706433/a.module"), ""},
		"http short loopback":      {q("http://127.1/a.module"), ""},
		"http localhost subdomain": {q("http://localhost.evil.example/a.module"), ""},
		"file scheme":              {q("file:///etc/passwd"), ""},
		"form-encoded +":           {"?url=https://example.org/my+file.module", ""},
		"malformed escape":         {"?url=https%3A%2F%2Fexample.org%2F%ZZ", ""},
		"both in body":             {"", `{"url":"https://example.org/a.module","manifest":"https://example.org/m.json"}`},
		"body and query":           {q("https://example.org/a.module"), `{"manifest":"https://example.org/m.json"}`},
		"neither":                  {"?utm_source=x", ""},
		"body not an object":       {"", `["https://example.org/a.module"]`},
		"body not UTF-8":           {"", "{\"url\":\"https://example.org/\xff.module\"}"},
		"body deeply nested":       {"", strings.Repeat("[", 100000)},
		"url not a string":         {"", `{"url":{"href":"https://example.org/a.module"}}`},
	} {
		status, body := testkit.Do(t, "POST", env.public.URL+"/api/import"+c[0], "application/json", strings.NewReader(c[1]))
		if status != http.StatusBadRequest {
			t.Errorf("%s: %d %s", name, status, body)
			continue
		}
		var out map[string]string
		if err := json.Unmarshal(body, &out); err != nil || len(out) != 1 || out["error"] == "" {
			t.Errorf("%s: body %s", name, body)
		}
	}
	if offers := env.manager.Offers(); len(offers) != 0 {
		t.Fatalf("hostile requests made %d offers: %+v", len(offers), offers)
	}
}

// The offer names the address the request came from, not one the client
// claims in a header.
func TestImportAPIOfferOriginCannotBeSpoofed(t *testing.T) {
	env := newImportEnv(t)
	req, _ := http.NewRequest("POST", env.public.URL+"/api/import", strings.NewReader(`{"url":"https://example.org/a.module"}`))
	req.Header.Set("X-Forwarded-For", "10.9.8.7")
	req.Header.Set("X-Real-IP", "10.9.8.7")
	req.Header.Set("Forwarded", "for=10.9.8.7")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusAccepted {
		t.Fatalf("status %d", resp.StatusCode)
	}
	offers := env.manager.Offers()
	if len(offers) != 1 || offers[0].From != "api 127.0.0.1" || offers[0].Status != "pending" {
		t.Fatalf("offers %+v", offers)
	}
}

// Accepting, importing and deleting exist only on the host console; the
// public port answers none of them, whatever the method or spelling.
func TestImportConfirmationIsNotReachableFromThePublicPort(t *testing.T) {
	env := newImportEnv(t)
	testkit.Do(t, "POST", env.public.URL+"/api/import", "application/json", strings.NewReader(`{"url":"https://example.org/a.module"}`))
	id := env.manager.Offers()[0].ID
	for _, c := range [][2]string{
		{"POST", "/host/api/offers/" + id + "/accept"},
		{"POST", "//host/api/offers/" + id + "/accept"},
		{"POST", "/HOST/api/offers/" + id + "/accept"},
		{"POST", "/api/../host/api/offers/" + id + "/accept"},
		{"POST", "/api/import/" + id + "/accept"},
		{"POST", "/host/api/import"},
		{"DELETE", "/host/api/modules/x"},
		{"GET", "/host/api/offers"},
	} {
		status, _ := testkit.Do(t, c[0], env.public.URL+c[1], "application/json", strings.NewReader(`{}`))
		if status < 400 {
			t.Errorf("%s %s on the public port: %d", c[0], c[1], status)
		}
	}
	if o := env.manager.Offers()[0]; o.Status != "pending" {
		t.Fatalf("the offer became %s", o.Status)
	}
}

// The host console refuses requests a web page in the device's browser
// could make: a foreign Host (DNS rebinding) or a cross-site Origin.
func TestHostConsoleRefusesRebindingAndCrossSiteRequests(t *testing.T) {
	env := newImportEnv(t)
	testkit.Do(t, "POST", env.public.URL+"/api/import", "application/json", strings.NewReader(`{"url":"https://example.org/a.module"}`))
	id := env.manager.Offers()[0].ID
	for name, h := range map[string][2]string{
		"rebinding host":        {"evil.example", ""},
		"nip.io host":           {"127.0.0.1.nip.io", ""},
		"localhost subdomain":   {"localhost.evil.example", ""},
		"cross-site origin":     {"", "http://evil.example"},
		"null origin":           {"", "null"},
		"other loopback port":   {"", "http://127.0.0.1:1"},
		"https origin, same hp": {"", "https://" + strings.TrimPrefix(env.host.URL, "http://")},
	} {
		req, _ := http.NewRequest("POST", env.host.URL+"/host/api/offers/"+id+"/accept", strings.NewReader(`{}`))
		req.Header.Set("Content-Type", "application/json")
		if h[0] != "" {
			req.Host = h[0]
		}
		if h[1] != "" {
			req.Header.Set("Origin", h[1])
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusForbidden {
			t.Errorf("%s: %d, want 403", name, resp.StatusCode)
		}
	}
	if o := env.manager.Offers()[0]; o.Status != "pending" {
		t.Fatalf("the offer became %s", o.Status)
	}
	// The console's own page (same origin) may decline it.
	req, _ := http.NewRequest("POST", env.host.URL+"/host/api/offers/"+id+"/decline", nil)
	req.Header.Set("Origin", env.host.URL)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("same-origin decline: %d", resp.StatusCode)
	}
}
