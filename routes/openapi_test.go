package routes

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/internal/testkit"
	"github.com/vttapp/companion/wire"
)

func TestOpenAPIDescribesTheLoadedSystem(t *testing.T) {
	e := newEnv(t, envOptions{})
	r := e.do(t, "GET", "/api/openapi.json", "")
	if r.status != 200 || r.header.Get("ETag") == "" {
		t.Fatalf("openapi: %d", r.status)
	}
	loader := openapi3.NewLoader()
	doc, err := loader.LoadFromData(r.body)
	if err != nil {
		t.Fatalf("kin-openapi cannot load the document: %v", err)
	}
	if err := doc.Validate(context.Background()); err != nil {
		t.Fatalf("invalid OpenAPI document: %v", err)
	}
	if !doc.IsOpenAPI31OrLater() {
		t.Fatalf("openapi = %s, want 3.1", doc.OpenAPI)
	}
	for _, kind := range testkit.DnD5e(t).Kinds() {
		list := doc.Paths.Find("/api/" + kind.Collection)
		if list == nil || list.Get == nil {
			t.Fatalf("no GET /api/%s", kind.Collection)
		}
		schema := list.Get.Parameters.GetByInAndName("query", "schema")
		if schema == nil || len(schema.Schema.Value.Enum) != 4 {
			t.Fatalf("/api/%s lacks the schema parameter enum", kind.Collection)
		}
		one := doc.Paths.Find("/api/" + kind.Collection + "/{id}")
		if one == nil || one.Get == nil || one.Put == nil || one.Patch == nil || one.Delete != nil {
			t.Fatalf("/api/%s/{id} operations wrong", kind.Collection)
		}
		if doc.Components.Schemas[wire.TypeName(kind.Name)] == nil {
			t.Fatalf("no schema for kind %s", kind.Name)
		}
	}
	for _, p := range []string{"/api", "/api/system", "/api/clients", "/api/messages", "/api/combatants/{id}", "/api/tokens/{id}", "/{reference}", "/{kind}/{slug}",
		"/api/seats", "/api/seats/{id}/take", "/api/me", "/api/me/character", "/api/me/hitpoints", "/api/me/actions/{action}", "/api/me/initiative", "/api/me/end-turn"} {
		if doc.Paths.Find(p) == nil {
			t.Fatalf("missing path %s", p)
		}
	}
	if doc.Paths.Find("/api/monstres") != nil {
		t.Fatal("unexpected path")
	}
}

// TestOpenAPISaysHiddenIsNotFound: a tool reading the description learns
// that a hidden token or combatant answers 404 to every operation, as the
// server does (player_hidden_test.go).
func TestOpenAPISaysHiddenIsNotFound(t *testing.T) {
	e := newEnv(t, envOptions{})
	doc, err := openapi3.NewLoader().LoadFromData(e.do(t, "GET", "/api/openapi.json", "").body)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"/api/tokens/{id}", "/api/combatants/{id}"} {
		item := doc.Paths.Find(p)
		for method, op := range map[string]*openapi3.Operation{"GET": item.Get, "PUT": item.Put, "PATCH": item.Patch} {
			nf := op.Responses.Status(404)
			if nf == nil || nf.Value.Description == nil || !strings.Contains(*nf.Value.Description, "hidden") {
				t.Errorf("%s %s: the 404 does not say a hidden one answers it too", method, p)
			}
		}
	}
	if !strings.Contains(doc.Info.Description, "hidden tokens and combatants do not exist") {
		t.Errorf("info.description does not say what players never see: %q", doc.Info.Description)
	}
}

// TestOpenAPIIndexesTheWebSocket: x-events, x-requests and x-replies name a
// component for every event the server sends, every request a client sends
// and every request it answers, and each resolves in the served document.
func TestOpenAPIIndexesTheWebSocket(t *testing.T) {
	e := newEnv(t, envOptions{})
	body := e.do(t, "GET", "/api/openapi.json", "").body
	doc, err := openapi3.NewLoader().LoadFromData(body)
	if err != nil {
		t.Fatal(err)
	}
	var raw struct {
		Events   map[string]struct{ Schema string } `json:"x-events"`
		Requests map[string]struct{ Schema string } `json:"x-requests"`
		Replies  map[string]struct{ Schema string } `json:"x-replies"`
	}
	if err := json.Unmarshal(body, &raw); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{core.EventApp, core.EventTokenUpdated, core.EventTokenMoved, core.EventGameUpdated, core.EventReload, "error"} {
		if _, ok := raw.Events[name]; !ok {
			t.Errorf("x-events lacks %s", name)
		}
	}
	for _, name := range []string{core.RequestUpdateToken, core.RequestCreateMessage, core.EventTokenMoved, core.RequestUpdateDoor} {
		if _, ok := raw.Replies[name]; !ok {
			t.Errorf("x-replies lacks %s", name)
		}
	}
	for name, e := range raw.Events {
		if s := doc.Components.Schemas[strings.TrimPrefix(e.Schema, "#/components/schemas/")]; s == nil || s.Value == nil {
			t.Errorf("x-events %s: %q does not resolve", name, e.Schema)
		}
	}
	for name, e := range raw.Replies {
		if s := doc.Components.Schemas[strings.TrimPrefix(e.Schema, "#/components/schemas/")]; s == nil || s.Value == nil {
			t.Errorf("x-replies %s: %q does not resolve", name, e.Schema)
		}
	}
	// Every request answered is described as sent, and every request
	// described resolves (the client's typed senders are generated from it).
	for name := range raw.Replies {
		if _, ok := raw.Requests[name]; !ok {
			t.Errorf("x-requests lacks %s, which x-replies answers", name)
		}
	}
	for name, e := range raw.Requests {
		if s := doc.Components.Schemas[strings.TrimPrefix(e.Schema, "#/components/schemas/")]; s == nil || s.Value == nil {
			t.Errorf("x-requests %s: %q does not resolve", name, e.Schema)
		}
	}
	// Every row of the table of events is described: what the server
	// sends, what a client may send and its answer, each with a shape.
	for _, row := range core.EventTable {
		if row.Sent() && raw.Events[row.Name].Schema == "" {
			t.Errorf("core.EventTable says the server sends %s, x-events lacks it", row.Name)
		}
		if row.Requested() && (row.Request == "" || row.Reply == "" || raw.Requests[row.Name].Schema == "" || raw.Replies[row.Name].Schema == "") {
			t.Errorf("core.EventTable says clients send %s: it needs its request and its answer described", row.Name)
		}
		if !row.Sent() && !row.Requested() && row.From != core.ParsedOnly {
			t.Errorf("core.EventTable's row %s says nothing: not sent, not requested", row.Name)
		}
	}
	// Derived from the Go type: a token's fields, and nothing else allowed.
	token := doc.Components.Schemas["Token"].Value
	for _, field := range []string{"id", "x", "y", "vision", "combatant", "size", "health"} {
		if token.Properties[field] == nil {
			t.Errorf("Token lacks %s", field)
		}
	}
	if token.AdditionalProperties.Has == nil || *token.AdditionalProperties.Has {
		t.Error("Token admits properties it does not list")
	}
}
