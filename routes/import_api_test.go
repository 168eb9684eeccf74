package routes

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/vttapp/companion/imports"
	"github.com/vttapp/companion/internal/testkit"
)

// Every rule of contract 4.6 for POST /api/import.
func TestImportAPIAccepts(t *testing.T) {
	env := newImportEnv(t)
	for _, tc := range []struct {
		name, query, body string
		want              imports.Source
	}{
		{"manifest in body", "", `{"manifest":"https://example.org/bats/manifest.json"}`, imports.Source{Manifest: "https://example.org/bats/manifest.json"}},
		{"url in body", "", `{"url":"https://example.org/bats.module"}`, imports.Source{URL: "https://example.org/bats.module"}},
		// Rule 4: percent-encoded in a query string, not in a body.
		{"url in query", "?url=https%3A%2F%2Fexample.org%2Fa%2Bb.module%3Fv%3D1%26w%3D2", "", imports.Source{URL: "https://example.org/a+b.module?v=1&w=2"}},
		{"manifest in query", "?manifest=https%3A%2F%2Fexample.org%2Fm.json", "", imports.Source{Manifest: "https://example.org/m.json"}},
		// Rule 3: other parameters are ignored, in the body and the query.
		{"other body keys", "", `{"url":"https://example.org/x.uvtt","name":"ignored","utm":1}`, imports.Source{URL: "https://example.org/x.uvtt"}},
		{"other query keys", "?utm_source=mail&url=https%3A%2F%2Fexample.org%2Fx.dd2vtt", "", imports.Source{URL: "https://example.org/x.dd2vtt"}},
		// Other query keys next to a body source are not a second source.
		{"body with unrelated query", "?utm_source=mail", `{"url":"https://example.org/x.module"}`, imports.Source{URL: "https://example.org/x.module"}},
		// Rule 5: http on the local network.
		{"http local", "", `{"url":"http://192.168.1.20:8080/a.module"}`, imports.Source{URL: "http://192.168.1.20:8080/a.module"}},
		{"http mdns", "", `{"url":"http://nas.local/a.module"}`, imports.Source{URL: "http://nas.local/a.module"}},
		{"http ipv6 loopback", "", `{"url":"http://[::1]:8080/a.module"}`, imports.Source{URL: "http://[::1]:8080/a.module"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := len(env.manager.Offers())
			status, body := testkit.Do(t, "POST", env.public.URL+"/api/import"+tc.query, "application/json", strings.NewReader(tc.body))
			if status != http.StatusAccepted || strings.TrimSpace(string(body)) != `{"status":"accepted"}` {
				t.Fatalf("%d %s", status, body)
			}
			offers := env.manager.Offers()
			if len(offers) != before+1 {
				t.Fatalf("%d offers", len(offers))
			}
			o := offers[len(offers)-1]
			// A manifest offer may already have failed to fetch its
			// (unreachable) manifest; a url offer waits for the device.
			if o.Manifest != tc.want.Manifest || o.URL != tc.want.URL || o.From != "api 127.0.0.1" || (o.URL != "" && o.Status != imports.StatusPending) {
				t.Errorf("offer %+v", o)
			}
		})
	}
}

func TestImportAPIRejects(t *testing.T) {
	env := newImportEnv(t)
	for _, tc := range []struct {
		name, query, body, want string
	}{
		{"nothing", "", "", imports.MsgNoSource},
		{"empty object", "", `{}`, imports.MsgNoSource},
		{"only other keys", "?utm=1", `{"name":"x"}`, imports.MsgNoSource},
		{"null source", "", `{"url":null}`, imports.MsgNoSource},
		{"both in body", "", `{"manifest":"https://a.org/m.json","url":"https://a.org/x.module"}`, imports.MsgBothSources},
		{"both in query", "?manifest=https%3A%2F%2Fa.org%2Fm.json&url=https%3A%2F%2Fa.org%2Fx.module", "", imports.MsgBothSources},
		{"body and query", "?url=https%3A%2F%2Fa.org%2Fx.module", `{"url":"https://a.org/x.module"}`, imports.MsgBodyAndQuery},
		{"manifest body url query", "?url=https%3A%2F%2Fa.org%2Fx.module", `{"manifest":"https://a.org/m.json"}`, imports.MsgBodyAndQuery},
		{"http public", "", `{"url":"http://example.org/a.module"}`, "Plain http can only be used for a source on the local network, not 'example.org'."},
		{"http public in query", "?manifest=http%3A%2F%2Fexample.org%2Fm.json", "", "Plain http can only be used for a source on the local network, not 'example.org'."},
		{"http decimal ip", "", `{"url":"http://2130706433/a.module"}`, "Plain http can only be used for a source on the local network, not '2130706433'."},
		{"http octal ip", "", `{"url":"http://0177.0.0.1/a.module"}`, "Plain http can only be used for a source on the local network, not '0177.0.0.1'."},
		{"http userinfo trick", "", `{"url":"http://127.0.0.1@example.org/a.module"}`, "Plain http can only be used for a source on the local network, not 'example.org'."},
		{"ftp", "", `{"url":"ftp://example.org/a.module"}`, "Only https URLs can be imported from a link, not 'ftp'."},
		{"file", "", `{"url":"file:///etc/passwd"}`, "Only https URLs can be imported from a link, not 'file'."},
		{"file in query", "?url=file%3A%2F%2F%2Fetc%2Fpasswd", "", "Only https URLs can be imported from a link, not 'file'."},
		{"not a url", "", `{"url":"bats.module"}`, "is not an absolute URL"},
		{"empty url", "", `{"url":""}`, "is not an absolute URL"},
		// Port out of range: url.Parse takes any digits; no connection can.
		{"port out of range", "", `{"url":"http://10.0.0.1:99999/x"}`, "'http://10.0.0.1:99999/x' has a port out of range (1 to 65535). Only https URLs can be imported from a link."},
		{"port zero", "", `{"manifest":"https://example.org:0/m.json"}`, "has a port out of range"},
		{"port out of range in query", "?url=https%3A%2F%2Fexample.org%3A65536%2Fa.module", "", "has a port out of range"},
		{"number url", "", `{"url":42}`, "must be a string"},
		{"body an array", "", `["https://a.org/x.module"]`, imports.MsgBodyNotJSON},
		{"body a string", "", `"https://a.org/x.module"`, imports.MsgBodyNotJSON},
		{"body null", "", `null`, imports.MsgBodyNotJSON},
		{"malformed json", "", `{"url":`, imports.MsgBodyNotJSON},
		{"space in query url", "?url=https%3A%2F%2Fa.org%2Fa%20b.module", "", imports.MsgNotEncoded},
		{"form-encoded plus in query url", "?url=https%3A%2F%2Fa.org%2Fa+b.module", "", imports.MsgNotEncoded},
		{"malformed percent-encoding", "?url=https%3A%2F%2Fa.org%2Fx%ZZ.module", "", imports.MsgBadQuery},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := len(env.manager.Offers())
			status, body := testkit.Do(t, "POST", env.public.URL+"/api/import"+tc.query, "application/json", strings.NewReader(tc.body))
			if status != http.StatusBadRequest {
				t.Fatalf("status %d %s", status, body)
			}
			var got map[string]any
			if err := json.Unmarshal(body, &got); err != nil || len(got) != 1 {
				t.Fatalf("body must be one key: %s", body)
			}
			msg, _ := got["error"].(string)
			if !strings.Contains(msg, tc.want) {
				t.Errorf("error %q, want %q", msg, tc.want)
			}
			if len(env.manager.Offers()) != before {
				t.Error("a rejected request made an offer")
			}
		})
	}
}

// Rule 8: only POST; a page load cannot trigger an import.
func TestImportAPIOnlyPost(t *testing.T) {
	env := newImportEnv(t)
	q := "?url=" + url.QueryEscape("https://example.org/a.module")
	status, _ := testkit.Do(t, "GET", env.public.URL+"/api/import"+q, "", nil)
	if status == http.StatusAccepted || status < 400 {
		t.Errorf("GET status %d", status)
	}
	if n := len(env.manager.Offers()); n != 0 {
		t.Errorf("GET made %d offers", n)
	}
}

func TestImportAPIWithoutManager(t *testing.T) {
	h := NewPublicHandler(Config{})
	rec := newRecorder()
	h.ServeHTTP(rec, newRequest("POST", "/api/import", `{"url":"https://example.org/a.module"}`))
	if rec.Code != http.StatusServiceUnavailable || !strings.Contains(rec.Body.String(), `"error"`) {
		t.Errorf("%d %s", rec.Code, rec.Body)
	}
}

// One device cannot fill the offer list: past imports.DefaultMaxOffersPerAddress
// waiting offers from its address, its requests are refused (400, the
// contract's one-key body), and another device's offer still reaches the
// person at the device. Before, 100 requests from one address filled the
// list and the other device was refused.
func TestImportAPIFloodFromOneAddressHidesNoOffer(t *testing.T) {
	env := newImportEnv(t)
	post := func(remote, source string) (int, string) {
		req := httptest.NewRequest("POST", "/api/import", strings.NewReader(`{"url":"`+source+`"}`))
		req.Host = "127.0.0.1"
		req.RemoteAddr = remote
		req.Header.Set("Content-Type", "application/json")
		rec := httptest.NewRecorder()
		env.public.Config.Handler.ServeHTTP(rec, req)
		return rec.Code, rec.Body.String()
	}
	accepted := 0
	for i := range 100 {
		status, body := post("10.0.0.9:4000", "https://example.org/junk"+strconv.Itoa(i)+".module")
		switch status {
		case http.StatusAccepted:
			accepted++
		case http.StatusBadRequest:
			if !strings.Contains(body, `"error"`) || !strings.Contains(body, "from this address") {
				t.Fatalf("refusal: %s", body)
			}
		default:
			t.Fatalf("status %d %s", status, body)
		}
	}
	if accepted != imports.DefaultMaxOffersPerAddress {
		t.Errorf("%d offers from one address accepted, want %d", accepted, imports.DefaultMaxOffersPerAddress)
	}
	if status, body := post("10.0.0.10:4000", "https://example.org/real.module"); status != http.StatusAccepted {
		t.Fatalf("another device's offer: %d %s", status, body)
	}
	found := false
	for _, o := range env.manager.Offers() {
		found = found || o.URL == "https://example.org/real.module" && o.From == "api 10.0.0.10"
	}
	if !found {
		t.Error("the real offer is not in the list")
	}
}
