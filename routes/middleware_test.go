package routes

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"
	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/guard"
	"github.com/vttapp/companion/routes/httpkit"
)

func TestCORS(t *testing.T) {
	e := newEnv(t, envOptions{})
	pre := e.do(t, "OPTIONS", "/api/monsters/"+goblinID, "",
		"Origin", "http://elsewhere.example", "Access-Control-Request-Method", "PUT")
	if pre.status != http.StatusNoContent {
		t.Fatalf("preflight status %d", pre.status)
	}
	if got := pre.header.Get("Access-Control-Allow-Methods"); got != "GET, OPTIONS" {
		t.Fatalf("Access-Control-Allow-Methods = %q", got)
	}
	get := e.do(t, "GET", "/api/monsters", "", "Origin", "http://elsewhere.example")
	if get.header.Get("Access-Control-Allow-Origin") != "*" {
		t.Fatalf("GET lacks Access-Control-Allow-Origin: %v", get.header)
	}
	if h := e.do(t, "GET", "/api/monsters/nope", "").header.Get("Access-Control-Allow-Origin"); h != "*" {
		t.Fatalf("GET error lacks Access-Control-Allow-Origin: %q", h)
	}
	put := e.do(t, "PATCH", "/api/monsters/"+goblinID, `{}`, "Origin", "http://elsewhere.example")
	if put.header.Get("Access-Control-Allow-Origin") != "" {
		t.Fatal("a write response must not allow a foreign origin to read it")
	}
}

func TestGzipDynamicResponses(t *testing.T) {
	// Enough monsters that the view listing passes the gzip threshold
	// whatever the system's views print.
	e := newEnv(t, envOptions{seed: func(tx core.Tx) error {
		for i := 0; i < 20; i++ {
			m := &core.Entity{Kind: "monster", System: "dnd5e", Name: fmt.Sprintf("Gzip Test Monster %02d", i),
				Data: core.Object{"size": "Large", "type": "beast", "challenge_rating": 1.0, "hit_points": 19.0}}
			m.Normalize(time.Now())
			if err := tx.PutEntity(m); err != nil {
				return err
			}
		}
		return nil
	}})
	for i := 0; i < 30; i++ {
		e.do(t, "POST", "/api/messages", `{"text":"a fairly long message so the snapshot passes the gzip threshold"}`)
	}
	plain := e.do(t, "GET", "/api", "")
	gz := e.do(t, "GET", "/api", "", "Accept-Encoding", "gzip, deflate")
	if gz.header.Get("Content-Encoding") != "gzip" || !strings.Contains(gz.header.Get("Vary"), "Accept-Encoding") {
		t.Fatalf("headers: %v", gz.header)
	}
	zr, err := gzip.NewReader(bytes.NewReader(gz.body))
	if err != nil {
		t.Fatal(err)
	}
	unzipped, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	if !jsonEqual(unzipped, plain.body) || len(gz.body) >= len(plain.body) {
		t.Fatalf("gzip body differs or is not smaller (%d vs %d)", len(gz.body), len(plain.body))
	}
	if plain.header.Get("Content-Encoding") != "" {
		t.Fatal("compressed for a client that did not ask")
	}
	if r := e.do(t, "GET", "/api", "", "Accept-Encoding", "gzip;q=0"); r.header.Get("Content-Encoding") != "" {
		t.Fatal("compressed although q=0")
	}
	// Small answers are not worth it.
	if r := e.do(t, "GET", "/api/clients", "", "Accept-Encoding", "gzip"); r.header.Get("Content-Encoding") != "" {
		t.Fatal("compressed a tiny body")
	}
	// Listings come precompressed from their cache.
	plainList := e.do(t, "GET", "/api/monsters?schema=view", "")
	if len(plainList.body) < guard.GzipMinSize {
		t.Fatalf("fixture listing too small to test gzip: %d bytes: %s", len(plainList.body), plainList.body)
	}
	list := e.do(t, "GET", "/api/monsters?schema=view", "", "Accept-Encoding", "gzip")
	if list.header.Get("Content-Encoding") != "gzip" {
		t.Fatalf("listing not gzip: %v", list.header)
	}
	zr, err = gzip.NewReader(bytes.NewReader(list.body))
	if err != nil {
		t.Fatalf("listing not gzip: %v", err)
	}
	unzipped, _ = io.ReadAll(zr)
	if !jsonEqual(unzipped, plainList.body) {
		t.Fatal("gzip listing differs")
	}
}

func TestPanicBecomes500(t *testing.T) {
	var logs bytes.Buffer
	log := slog.New(slog.NewTextHandler(&logs, nil))
	h := guard.RecoverPanics(log, http.HandlerFunc(func(http.ResponseWriter, *http.Request) { panic("boom") }))
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/api/x", nil))
	if rec.Code != 500 {
		t.Fatalf("status %d", rec.Code)
	}
	var body map[string]string
	if err := json.Unmarshal(rec.Body.Bytes(), &body); err != nil || body["message"] != "internal error" || len(body) != 1 {
		t.Fatalf("body %s", rec.Body)
	}
	if !strings.Contains(logs.String(), "level=ERROR") || !strings.Contains(logs.String(), "boom") || !strings.Contains(logs.String(), "path=/api/x") {
		t.Fatalf("log: %s", logs.String())
	}
}

func TestRequestLogAtDebug(t *testing.T) {
	e := newEnv(t, envOptions{})
	e.do(t, "GET", "/api/monsters/nope", "")
	if got := e.logs.String(); !strings.Contains(got, "level=DEBUG") || !strings.Contains(got, "path=/api/monsters/nope") || !strings.Contains(got, "status=404") {
		t.Fatalf("request log: %s", got)
	}
}

func TestUnknownMethodAnd404(t *testing.T) {
	e := newEnv(t, envOptions{})
	r := e.do(t, "BREW", "/api", "")
	wantError(t, r, 405, "method BREW is not allowed")
	if r.header.Get("Allow") != "GET, HEAD, OPTIONS" {
		t.Fatalf("Allow = %q", r.header.Get("Allow"))
	}
	wantError(t, e.do(t, "GET", "/api/monsters/x/y", ""), 404, "nothing at /api/monsters/x/y")
	if h := e.do(t, "HEAD", "/api/monsters", ""); h.status != 200 || len(h.body) != 0 {
		t.Fatalf("HEAD: %d %d bytes", h.status, len(h.body))
	}
}

func TestWebSocketUpgradeOnAnyPath(t *testing.T) {
	e := newEnv(t, envOptions{})
	for _, path := range []string{"/", "/api", "/api/monsters", "/monster.goblin", "/some/deep/path"} {
		url := "ws" + strings.TrimPrefix(e.srv.URL, "http") + path
		ws, resp, err := websocket.DefaultDialer.Dial(url, nil)
		if err != nil {
			t.Fatalf("dial %s: %v (%v)", path, err, resp)
		}
		ws.SetReadDeadline(time.Now().Add(5 * time.Second))
		var env struct {
			Name string `json:"name"`
		}
		if err := ws.ReadJSON(&env); err != nil || env.Name != "app" {
			t.Fatalf("first event on %s: %q %v", path, env.Name, err)
		}
		ws.Close()
	}
}

func TestBodyLimitLetsHostUploadsStream(t *testing.T) {
	var read int64
	h := guard.LimitBodies(16, true, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n, err := io.Copy(io.Discard, r.Body)
		if err != nil {
			httpkit.WriteError(w, r, nil, httpkit.BodyError(err))
			return
		}
		read = n
	}))
	big := strings.Repeat("x", 1000)
	req := httptest.NewRequest("POST", "/host/api/import", strings.NewReader(big))
	req.Header.Set("Content-Type", "multipart/form-data; boundary=xyz")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code != 200 || read != 1000 {
		t.Fatalf("multipart upload: %d, read %d", rec.Code, read)
	}
	req = httptest.NewRequest("POST", "/host/api/import", strings.NewReader(big))
	req.Header.Set("Content-Type", "application/json")
	rec = httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code != 413 {
		t.Fatalf("JSON body over the limit: %d", rec.Code)
	}
	// The public listener caps uploads like any write.
	pub := guard.LimitBodies(16, false, h)
	req = httptest.NewRequest("POST", "/api/import", strings.NewReader(big))
	req.Header.Set("Content-Type", "multipart/form-data; boundary=xyz")
	rec = httptest.NewRecorder()
	pub.ServeHTTP(rec, req)
	if rec.Code != 413 {
		t.Fatalf("public multipart over the limit: %d", rec.Code)
	}
}
