package systems

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/vttapp/companion/scripting"
)

// The guide's example maps a legacy <monster> to a creature and keeps
// what it does not map.
func TestTinyImportHook(t *testing.T) {
	s := loadTiny(t)
	if got := s.ImportKinds(); !reflect.DeepEqual(got, []string{"monster"}) {
		t.Fatalf("import kinds %v", got)
	}
	element := map[string]any{
		"name": "Bog Imp", "type": "fiend", "hp": "9 (2d6+2)", "speed": "walk 20 ft., fly 40 ft.",
		"str": "6", "dex": "17", "level": "2", "cr": "1/4", "spell": []any{"Faerie Fire", "Mage Hand"},
		"alignment": "chaotic evil", "immune": "", "trait": map[string]any{"name": "Sneaky", "text": "It hides."},
	}
	entities, err := s.MapCompendium(context.Background(), "monster", element)
	if err != nil {
		t.Fatal(err)
	}
	if len(entities) != 1 {
		t.Fatalf("%d entities", len(entities))
	}
	e := entities[0]
	if e.Kind != "creature" || e.Name != "Bog Imp" {
		t.Errorf("entity %s %q", e.Kind, e.Name)
	}
	d := e.Data
	// (Numbers read back from JSON are float64, as for an archive's entities.)
	if d["hp"] != 9.0 || d["hit_dice"] != "2d6+2" || !reflect.DeepEqual(d["speed"], map[string]any{"walk": 20.0, "fly": 40.0}) ||
		!reflect.DeepEqual(d["spells"], []any{"faerie-fire", "mage-hand"}) || d["level"] != 2.0 || d["cr"] != 0.25 {
		t.Errorf("data %#v", d)
	}
	// What the hook did not take is kept (an empty <immune/> says nothing).
	want := map[string]any{"alignment": "chaotic evil", "trait": map[string]any{"name": "Sneaky", "text": "It hides."}}
	if !reflect.DeepEqual(d[UnmappedKey], want) {
		t.Errorf("unmapped %#v, want %#v", d[UnmappedKey], want)
	}
	// Its view renders.
	e.ID, e.Slug = "imp", "bog-imp"
	view, err := s.ViewValue(context.Background(), e)
	if err != nil {
		t.Fatal(err)
	}
	if view["hp"] != "9 (2d6+2, avg 9)" || view["speed"] != "20 ft., fly 40 ft." || view["cr"] != "1/4" {
		t.Errorf("view %#v", view)
	}
	// A kind the system does not map: nothing, no error.
	if got, err := s.MapCompendium(context.Background(), "spell", map[string]any{"name": "x"}); got != nil || err != nil {
		t.Errorf("spell: %v %v", got, err)
	}
}

func importSystem(t *testing.T, hooks string) *System {
	t.Helper()
	s, err := Load(mapFS(map[string]string{
		"system.json": okManifest,
		"system.lua": `local companion = require("companion")
local take = companion.import.take
companion.entity("monster", { collection = "monsters", view = function(e) return {} end })
companion.entity("spell", { collection = "spells", view = function(e) return {} end })
` + hooks,
		"templates/monster.html": "x",
		"templates/spell.html":   "x",
	}), Options{CallTimeout: 100e6})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s
}

func TestImportHookResultsAreChecked(t *testing.T) {
	s := importSystem(t, `
companion.import.compendium("monster", function(el)
  return { name = take(el, "name"), data = { unmapped = { note = "mine" } } }
end)
companion.import.compendium("spell", function(el)
  return { { kind = "spell", name = take(el, "name") }, { kind = "monster", name = "Summoned" } }
end)
companion.import.compendium("nokind", function(el) return { name = "x" } end)
companion.import.compendium("badkind", function(el) return { kind = "vehicle", name = "x" } end)
companion.import.compendium("noname", function(el) return { kind = "monster" } end)
companion.import.compendium("flat", function(el) return { kind = "monster", name = "x", hp = 7, ac = 12 } end)
companion.import.compendium("string", function(el) return "x" end)
companion.import.compendium("listofnumbers", function(el) return { 1, 2 } end)
companion.import.compendium("baddata", function(el) return { kind = "monster", name = "x", data = { 1, 2 } } end)
companion.import.compendium("badtags", function(el) return { kind = "monster", name = "x", tags = "a" } end)
companion.import.compendium("second", function(el) return { { kind = "monster", name = "a" }, { kind = "monster" } } end)
`)
	ctx := context.Background()
	// The kind defaults to the element's; the handler's own unmapped
	// table is kept, the rest joins it.
	got, err := s.MapCompendium(ctx, "monster", map[string]any{"name": "Newt", "cr": "1/8"})
	if err != nil {
		t.Fatal(err)
	}
	if got[0].Kind != "monster" || !reflect.DeepEqual(got[0].Data[UnmappedKey], map[string]any{"note": "mine", "cr": "1/8"}) {
		t.Errorf("monster %+v", got[0])
	}
	got, err = s.MapCompendium(ctx, "spell", map[string]any{"name": "Summon", "level": "3"})
	if err != nil || len(got) != 2 || got[1].Kind != "monster" || got[0].Data[UnmappedKey] == nil || got[1].Data != nil {
		t.Errorf("spell: %+v %v", got, err)
	}
	for kind, want := range map[string]string{
		"nokind":        `has no kind, and "nokind" is not an entity kind of this system`,
		"badkind":       `has kind vehicle, which this system does not declare`,
		"noname":        "has no name",
		"flat":          "sets 'ac', 'hp', which are not an entity field (the system's own fields go under data)",
		"string":        "returned a string; it must return an entity table, a list of them, or nil",
		"listofnumbers": "returned a list whose item 1 is a number",
		"baddata":       "has data that is a list",
		"badtags":       "is not an entity",
		"second":        "returned an entity (item 2) that has no name",
	} {
		_, err := s.MapCompendium(ctx, kind, map[string]any{"name": "x"})
		var se *scripting.ScriptError
		if !errors.As(err, &se) || !strings.HasPrefix(err.Error(), "system.lua:") || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want a located error containing %q", kind, err, want)
		}
	}
}
