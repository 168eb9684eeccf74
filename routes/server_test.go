package routes

import (
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
)

func TestHostHandler(t *testing.T) {
	e := newEnv(t, envOptions{})
	host := httptest.NewServer(NewHostHandler(Config{Service: e.svc}))
	defer host.Close()
	get := func(path string) (int, string, http.Header) {
		resp, err := noGzipClient.Get(host.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b), resp.Header
	}
	if status, body, h := get("/host/"); status != 200 || !strings.Contains(body, "host console") || !strings.HasPrefix(h.Get("Content-Type"), "text/html") {
		t.Fatalf("/host/: %d %s", status, body)
	}
	if status, _, h := get("/"); status != http.StatusFound || h.Get("Location") != "/host/" {
		t.Fatalf("/: %d %v", status, h)
	}
	if status, body, _ := get("/host/api/settings"); status != 200 || !strings.Contains(body, "remoteInteraction") {
		t.Fatalf("settings: %d %s", status, body)
	}
	// The host listener does not serve the public API.
	if status, _, _ := get("/api"); status != 404 {
		t.Fatalf("/api on the host listener: %d", status)
	}
	// The game master opens stat blocks at the players' reference paths.
	full := httptest.NewServer(NewHostHandler(Config{Service: e.svc, Systems: e.holder}))
	defer full.Close()
	get = func(path string) (int, string, http.Header) {
		resp, err := noGzipClient.Get(full.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b), resp.Header
	}
	resp, err := noGzipClient.Get(e.srv.URL + "/monster/goblin")
	if err != nil {
		t.Fatal(err)
	}
	want, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if status, body, h := get("/monster/goblin"); status != 200 || !strings.HasPrefix(h.Get("Content-Type"), "text/html") || body != string(want) {
		t.Fatalf("/monster/goblin on the host listener: %d %.200s, want the players' page", status, body)
	}
	if status, body, _ := get("/monster/dragon"); status != 404 || !strings.Contains(body, "<html") {
		t.Fatalf("/monster/dragon on the host listener: %d %.200s", status, body)
	}
	if status, _, _ := get("/host/console.js"); status != 200 {
		t.Fatalf("/host/console.js: %d", status)
	}
	// Every script and style the page names is served (the page and its
	// bundle are built into web/client/dist/host, the GM map into dist/gm).
	_, page, _ := get("/host/")
	names := regexp.MustCompile(`(?:src|href)="(/host/[^"]+)"`).FindAllStringSubmatch(page, -1)
	if len(names) < 4 {
		t.Fatalf("/host/ names %d files of its own: %v", len(names), names)
	}
	for _, m := range names {
		status, body, h := get(m[1])
		if status != 200 || body == "" {
			t.Errorf("%s (named by /host/): %d", m[1], status)
		}
		if strings.HasSuffix(m[1], ".js") && !strings.Contains(h.Get("Content-Type"), "javascript") {
			t.Errorf("%s: Content-Type %q", m[1], h.Get("Content-Type"))
		}
	}
}
