package routes

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/core/engine"
)

func TestSnapshot(t *testing.T) {
	e := newEnv(t, envOptions{})
	for i := 1; i <= 32; i++ {
		if r := e.do(t, "POST", "/api/messages", fmt.Sprintf(`{"text":"message %d"}`, i)); r.status != 200 {
			t.Fatalf("post: %d %s", r.status, r.body)
		}
	}
	snap := e.do(t, "GET", "/api", "").json(t)
	for _, key := range []string{"version", "build", "game", "map", "screen", "messages", "trackedObjects", "paused"} {
		if _, ok := snap[key]; !ok {
			t.Fatalf("snapshot lacks %q: %v", key, snap)
		}
	}
	if snap["version"] != core.Version || snap["build"] != float64(core.Build) {
		t.Fatalf("version %v build %v", snap["version"], snap["build"])
	}
	msgs := snap["messages"].([]any)
	if len(msgs) != 30 || msgs[0].(map[string]any)["text"] != "message 3" || msgs[29].(map[string]any)["text"] != "message 32" {
		t.Fatalf("messages: %d, first %v", len(msgs), msgs[0])
	}
	if m := snap["map"].(map[string]any); m["id"] != mapID || len(m["tokens"].([]any)) != 2 {
		t.Fatalf("map = %v", m)
	}
}

func TestSnapshotWithoutPrimaryCampaign(t *testing.T) {
	e := newEnv(t, envOptions{noCampaign: true})
	wantError(t, e.do(t, "GET", "/api", ""), 404, "no primary campaign for system 'dnd5e'")
	wantError(t, e.do(t, "POST", "/api/messages", `{"text":"hi"}`), 404, "no primary campaign")
}

func TestSystemDocumentETag(t *testing.T) {
	e := newEnv(t, envOptions{})
	r := e.do(t, "GET", "/api/system", "")
	doc := r.json(t)
	if doc["id"] != "dnd5e" || doc["definitions"] == nil {
		t.Fatalf("system = %.200s", r.body)
	}
	etag := r.header.Get("ETag")
	if etag == "" || !strings.HasPrefix(etag, `"`) {
		t.Fatalf("ETag = %q", etag)
	}
	nm := e.do(t, "GET", "/api/system", "", "If-None-Match", etag)
	if nm.status != 304 || len(nm.body) != 0 {
		t.Fatalf("If-None-Match: %d", nm.status)
	}
	if r := e.do(t, "GET", "/api/system", "", "If-None-Match", `"other"`); r.status != 200 {
		t.Fatalf("stale tag: %d", r.status)
	}
	// gzip for a client that accepts it; the weak tag still matches.
	gz := e.do(t, "GET", "/api/system", "", "Accept-Encoding", "gzip")
	if gz.header.Get("Content-Encoding") != "gzip" || len(gz.body) >= len(r.body) {
		t.Fatalf("gzip: encoding %q, %d bytes vs %d", gz.header.Get("Content-Encoding"), len(gz.body), len(r.body))
	}
	if nm := e.do(t, "GET", "/api/system", "", "If-None-Match", gz.header.Get("ETag"), "Accept-Encoding", "gzip"); nm.status != 304 {
		t.Fatalf("weak tag from the gzip answer: %d", nm.status)
	}
}

func TestClientsIsAnArray(t *testing.T) {
	e := newEnv(t, envOptions{})
	r := e.do(t, "GET", "/api/clients", "")
	if r.status != 200 || strings.TrimSpace(string(r.body)) != "[]" {
		t.Fatalf("clients: %d %s", r.status, r.body)
	}
}

func TestPostMessage(t *testing.T) {
	e := newEnv(t, envOptions{})
	r := e.do(t, "POST", "/api/messages", `{"text":"I attack [[1d20+5]]","source":"Ann"}`)
	if r.status != http.StatusOK {
		t.Fatalf("post: %d %s", r.status, r.body)
	}
	m := r.json(t)
	if m["campaign"] != campaignID || m["source"] != "Ann" || m["id"] == "" || m["created"] == nil {
		t.Fatalf("stored message = %v", m)
	}
	if rolls, _ := m["rolls"].([]any); len(rolls) != 1 {
		t.Fatalf("rolls = %v", m["rolls"])
	}
	if ev := e.events.Take(); ev != "messageCreated" {
		t.Fatalf("events = %s", ev)
	}
	wantError(t, e.do(t, "POST", "/api/messages", `{"text":`), 400, "malformed JSON")
	wantError(t, e.do(t, "POST", "/api/messages", `{"text":5}`), 400, "field 'text' must be a string")
	wantError(t, e.do(t, "POST", "/api/messages", `{"source":"Ann"}`), 400, "'text' is required")
	wantError(t, e.do(t, "POST", "/api/messages", `[]`), 400, "expected an object")
	wantError(t, e.do(t, "POST", "/api/messages", ``), 400, "message:")
}

func TestSnapshotFollowsWritesAndLiveState(t *testing.T) {
	e := newEnv(t, envOptions{})
	first := e.do(t, "GET", "/api", "").json(t)
	if len(first["messages"].([]any)) != 0 || first["paused"] != false {
		t.Fatalf("first snapshot = %v", first)
	}
	e.do(t, "POST", "/api/messages", `{"text":"hello"}`)
	e.do(t, "PATCH", "/api/tokens/"+tokenA, `{"x":99}`)
	yes, no := true, false
	e.svc.UpdateSettings(context.Background(), engine.SettingsPatch{Paused: &yes, RemoteInteraction: &no})
	e.svc.TrackObject(core.EventTrackedObjectCreated, []*core.TrackedObject{{ID: 7.0}})
	snap := e.do(t, "GET", "/api", "").json(t)
	if msgs := snap["messages"].([]any); len(msgs) != 1 || msgs[0].(map[string]any)["text"] != "hello" {
		t.Fatalf("snapshot misses the new message: %v", snap["messages"])
	}
	var x float64
	for _, tk := range snap["map"].(map[string]any)["tokens"].([]any) {
		if tk.(map[string]any)["id"] == tokenA {
			x = tk.(map[string]any)["x"].(float64)
		}
	}
	if x != 99 {
		t.Fatalf("snapshot misses the token move: x=%v", x)
	}
	if snap["paused"] != true || snap["screen"].(map[string]any)["remoteInteraction"] != false || len(snap["trackedObjects"].([]any)) != 1 {
		t.Fatalf("live state not fresh: paused %v screen %v tracked %v", snap["paused"], snap["screen"], snap["trackedObjects"])
	}
}

// TestSnapshotBodyMatchesTheService: the assembled GET /api body is
// exactly json.Marshal of engine.Service.Snapshot, live state included.
func TestSnapshotBodyMatchesTheService(t *testing.T) {
	e := newEnv(t, envOptions{})
	e.do(t, "POST", "/api/messages", `{"text":"hello [[1d6]]"}`)
	yes := true
	e.svc.UpdateSettings(context.Background(), engine.SettingsPatch{Paused: &yes})
	e.svc.TrackObject(core.EventTrackedObjectCreated, []*core.TrackedObject{{ID: 3.0}})
	for i := 0; i < 2; i++ { // cold, then from the cache
		got := e.do(t, "GET", "/api", "").body
		snap, err := e.svc.Snapshot(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		want, _ := json.Marshal(snap)
		if string(got) != string(want) {
			t.Fatalf("GET /api differs from the service's snapshot:\n got %s\nwant %s", got, want)
		}
	}
}
