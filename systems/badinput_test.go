package systems

import (
	"context"
	"errors"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/scripting"
)

const okManifest = `{"id": "t", "name": "T", "version": "1.0.0"}`

func mapFS(files map[string]string) fstest.MapFS {
	fsys := fstest.MapFS{}
	for name, src := range files {
		fsys[name] = &fstest.MapFile{Data: []byte(src)}
	}
	return fsys
}

// problemsOf loads files and returns the problems as "file:line: message" lines.
func problemsOf(t *testing.T, files map[string]string) []string {
	t.Helper()
	s, err := Load(mapFS(files), Options{})
	if err == nil {
		s.Close()
		t.Fatal("the system loaded; want problems")
	}
	var ps scripting.Problems
	if !errors.As(err, &ps) {
		t.Fatalf("error is not a problem list: %T %v", err, err)
	}
	return strings.Split(err.Error(), "\n")
}

func expectProblems(t *testing.T, got []string, want ...string) {
	t.Helper()
	for _, w := range want {
		found := false
		for _, g := range got {
			if strings.Contains(g, w) {
				found = true
				break
			}
		}
		if !found {
			t.Errorf("no problem contains %q; problems:\n%s", w, strings.Join(got, "\n"))
		}
	}
}

func TestEveryDeclarationProblemIsReported(t *testing.T) {
	got := problemsOf(t, map[string]string{
		"system.json": okManifest,
		"system.lua": `local companion = require("companion")
companion.entity("monster", { collection = "monsters", view = function(e) return {} end, lable = "x" })
companion.entity("spell", { collection = "spells" })
companion.entity("item", { view = function(e) return {} end })
companion.entity("monster", { collection = "beasts", view = function(e) return {} end })
companion.entity("token", { collection = "tokens", view = function(e) return {} end })
companion.entity("thing", { collection = "monsters", view = function(e) return {} end })
companion.entity("odd", { collection = "odds", view = "text", unique = "yes", filters = "size", ranges = { 1 }, title = 3 })
companion.entity("rows", { collection = "rows", view = function(e) return {} end, filters = { "size", "name", "size" } })
companion.entity("api", { collection = "openapi.json", view = function(e) return {} end })
companion.entity("caps", { collection = "Caps", view = function(e) return {} end, collectionTitle = function() end })
companion.types("sizes", { "S" })
companion.types("sizes", { "M" })
companion.system{ config = { a = 1 }, other = true }
companion.entity("hp", { collection = "hps", view = function(e) return {} end, bounds = { a = 3, b = { min = "x", integer = 1, step = 2 }, c = { min = 5, max = 1 } } })
companion.entity("hq", { collection = "hqs", view = function(e) return {} end, bounds = "whole" })
`,
		"templates/monster.html": "<p>{{ view.name }}</p>",
	})
	expectProblems(t, got,
		`system.lua:2: kind "monster": unknown option "lable"`,
		`system.lua:3: kind "spell": view is required`,
		`system.lua:3: kind "spell": template templates/spell.html not found`,
		`system.lua:4: kind "item": collection is required`,
		`system.lua:5: kind "monster": declared twice (first at system.lua:2)`,
		`system.lua:6: kind "token": collection "tokens" collides with the fixed route /api/tokens`,
		`system.lua:7: kind "thing": collection "monsters" is already used by kind "monster" (system.lua:2)`,
		`system.lua:8: kind "odd": view must be a function`,
		`system.lua:8: kind "odd": unique must be true or false`,
		`system.lua:8: kind "odd": filters must be a list of data keys`,
		`system.lua:8: kind "odd": ranges must hold only non-empty strings`,
		`system.lua:8: kind "odd": title must be a non-empty string`,
		`system.lua:9: kind "rows": filters cannot list "name": list rows already carry it`,
		`system.lua:9: kind "rows": filters lists "size" twice`,
		`system.lua:10: kind "api": collection "openapi.json" collides`,
		`system.lua:11: kind "caps": collection "Caps" must be lower-case`,
		`system.lua:11: kind "caps": collectionTitle must be a value, not a function`,
		`system.lua:13: types "sizes" declared twice (first at system.lua:12)`,
		`system.lua:14: companion.system: unknown field "other"`,
		`system.lua:15: kind "hp": bounds.a must be a table`,
		`system.lua:15: kind "hp": bounds.b.min must be a number`,
		`system.lua:15: kind "hp": bounds.b.integer must be true or false`,
		`system.lua:15: kind "hp": bounds.b: unknown field "step"`,
		`system.lua:15: kind "hp": bounds.c: min 5 is above max 1`,
		`system.lua:16: kind "hq": bounds must be a table of data keys`,
	)
}

func TestReservedCollectionsAllRejected(t *testing.T) {
	for _, label := range ReservedCollections {
		got := problemsOf(t, map[string]string{
			"system.json":      okManifest,
			"system.lua":       `require("companion").entity("k", { collection = "` + label + `", view = function(e) return {} end })`,
			"templates/k.html": "x",
		})
		expectProblems(t, got, `collides with the fixed route /api/`+label)
	}
}

func TestManifestProblems(t *testing.T) {
	expectProblems(t, problemsOf(t, map[string]string{"system.lua": "return"}), "system.json: missing")
	expectProblems(t, problemsOf(t, map[string]string{"system.json": "{\n  \"id\": \"x\",\n  \"name\": 3\n}"}), "system.json:3: field 'name' must be a string")
	expectProblems(t, problemsOf(t, map[string]string{"system.json": "{\n  \"id\": \"x\",\n}"}), "system.json:3: malformed JSON")
	expectProblems(t, problemsOf(t, map[string]string{"system.json": `{"id": "x", "name": "X", "version": "1.0.0", "extra": 1}`}), "system.json:1: unknown property \"extra\"")
	expectProblems(t, problemsOf(t, map[string]string{"system.json": "{\n\"id\": \"Bad Id\",\n\"name\": \"\",\n\"version\": \"1.0\",\n\"systemVersion\": \"x\",\n\"entry\": \"../up.lua\"\n}"}),
		`system.json:2: id "Bad Id" must be lower-case`,
		`system.json:1: name is required`,
		`system.json:4: version "1.0" is not a semantic version`,
		`system.json:5: systemVersion "x" is not a semantic version`,
		`system.json:6: entry "../up.lua" must be a .lua file inside the system folder`)
	expectProblems(t, problemsOf(t, map[string]string{"system.json": okManifest}), "system.lua: entry script not found")
}

func TestScriptAndTemplateProblemsAtLoad(t *testing.T) {
	expectProblems(t, problemsOf(t, map[string]string{
		"system.json": okManifest,
		"system.lua":  "local companion = require(\"companion\")\ncompanion.entity(\"k\", {\n",
		"lib/x.lua":   "return {{",
	}), "lib/x.lua:1: syntax error", "system.lua:3: syntax error")

	expectProblems(t, problemsOf(t, map[string]string{
		"system.json": okManifest,
		"system.lua":  "local companion = require(\"companion\")\nlocal fmt = require(\"lib.nothere\")\n",
	}), `system.lua:2: module "lib.nothere" not found: there is no lib/nothere.lua in the system folder`)

	expectProblems(t, problemsOf(t, map[string]string{
		"system.json":      okManifest,
		"system.lua":       `require("companion").entity("k", { collection = "ks", view = function(e) return {} end })`,
		"templates/k.html": "<p>\n{% if view.x %}\n{{ view.x }\n</p>",
	}), "templates/k.html:3:")

	expectProblems(t, problemsOf(t, map[string]string{
		"system.json":      okManifest,
		"system.lua":       `require("companion").entity("k", { collection = "ks", view = function(e) return {} end })`,
		"templates/k.html": "<p>\n{% include \"partials/gone.html\" %}</p>",
	}), "templates/k.html:2:", "partials/gone.html")

	expectProblems(t, problemsOf(t, map[string]string{
		"system.json": okManifest,
		"system.lua":  `local c = require("companion")`,
	}), "the system declares no entity kind")
}

// brokenAtRender is a system that loads but whose kinds fail when used.
func brokenAtRender(t *testing.T) *System {
	t.Helper()
	s, err := Load(mapFS(map[string]string{
		"system.json": okManifest,
		"system.lua": `local companion = require("companion")
companion.entity("boom", { collection = "booms", view = function(e)
  error("no " .. e.name)
end })
companion.entity("text", { collection = "texts", view = function(e) return "just text" end,
  references = function(e) return { "not a reference" } end })
companion.entity("loop", { collection = "loops", view = function(e) while true do end end })
companion.entity("typo", { collection = "typos", view = function(e) return { armor = "15" } end,
  references = function(e) return { "spell.fireball", 3 } end })
`,
		"templates/boom.html": "x",
		"templates/text.html": "x",
		"templates/loop.html": "x",
		"templates/typo.html": "<p>{{ view.armor }}</p>\n<p>{{ view.armour }}</p>\n<p>{{ view.speed|default:\"—\" }}</p>",
	}), Options{CallTimeout: 30e6})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s
}

func TestRenderErrorsAreLocated(t *testing.T) {
	s := brokenAtRender(t)
	ctx := context.Background()
	entity := func(kind string) *core.Entity {
		return &core.Entity{ID: "x-" + kind, Kind: kind, Name: "Bob", Slug: "bob", Revision: 1}
	}
	for kind, want := range map[string]string{
		"boom": "system script: system.lua:3: no Bob",
		"text": `system script: system.lua:5: the view function of "text" returned a string; it must return a table`,
		"loop": "system script: system.lua:7: the script ran longer than 30ms and was stopped",
	} {
		for name, call := range map[string]func() error{
			"View":       func() error { _, err := s.View(ctx, entity(kind)); return err },
			"RenderPage": func() error { _, err := s.RenderPage(ctx, entity(kind)); return err },
		} {
			err := call()
			if err == nil || !strings.HasPrefix(err.Error(), want) || core.KindOf(err) != core.KindInternal || core.MessageOf(err) != "internal error" {
				t.Errorf("%s %s: got %v, want %q", name, kind, err, want)
			}
		}
	}
	_, err := s.RenderPage(ctx, entity("typo"))
	if err == nil || !strings.Contains(err.Error(), "templates/typo.html:2: the template prints view.armour, which is missing") || core.KindOf(err) != core.KindInternal {
		t.Fatalf("missing variable: %v", err)
	}
	_, err = s.References(ctx, entity("text"))
	if err == nil || !strings.Contains(err.Error(), `system.lua:6: the references function of "text" returned "not a reference"`) {
		t.Fatalf("bad reference: %v", err)
	}
	_, err = s.References(ctx, entity("typo"))
	if err == nil || !strings.Contains(err.Error(), "system.lua:9:") {
		t.Fatalf("non-string reference: %v", err)
	}
	// The system keeps serving after all that.
	if _, err := s.View(ctx, entity("typo")); err != nil {
		t.Fatal(err)
	}
}

func TestNullIsNotMissingInPages(t *testing.T) {
	s, err := Load(mapFS(map[string]string{
		"system.json": okManifest,
		"system.lua": `require("companion").entity("k", { collection = "ks", view = function(e)
  return { nothing = require("companion").null, list = { 1, require("companion").null } }
end })`,
		"templates/k.html": "[{{ view.nothing }}][{% for x in view.list %}{{ x }};{% endfor %}][{{ entity.data.gone }}][{{ entity.meta }}]",
	}), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	e := &core.Entity{ID: "n", Kind: "k", Name: "N", Slug: "n", Revision: 1, Data: core.Object{"gone": nil}}
	for i := 0; i < 2; i++ { // rendered, then from the view cache
		body, err := s.RenderBody(context.Background(), e)
		if err != nil || string(body) != "[][1;;][][]" {
			t.Fatalf("pass %d: %q %v", i, body, err)
		}
	}
	view, _ := s.View(context.Background(), e)
	if !strings.Contains(string(view), `"nothing":null`) || !strings.Contains(string(view), `"list":[1,null]`) {
		t.Fatalf("view JSON: %s", view)
	}
}
