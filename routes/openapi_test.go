package routes

import (
	"context"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/vttapp/companion/internal/testkit"
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
		if doc.Components.Schemas[typeName(kind.Name)] == nil {
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
