package dnd5e

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/internal/shareddata"
	"github.com/vttapp/companion/systems"
)

// loadSystem loads the embedded system for one test. The call timeout is
// raised from the 250 ms default: these tests check what the views say, and
// a loaded machine (or -race) must not turn a slow call into a failure.
func loadSystem(tb testing.TB) *systems.System {
	tb.Helper()
	s, err := systems.Load(FS, systems.Options{CallTimeout: 10 * time.Second})
	if err != nil {
		tb.Fatalf("load dnd5e: %v", err)
	}
	tb.Cleanup(s.Close)
	return s
}

// srdFile names an SRD file of ../shared/data/srd5e and the kind its
// records become.
type srdFile struct {
	file, kind string
}

var srdFiles = []srdFile{
	{"srd5e/2014-en-5e-SRD-Monsters.json", "monster"},
	{"srd5e/2014-en-5e-SRD-Spells.json", "spell"},
	{"srd5e/2014-en-5e-SRD-Equipment.json", "item"},
	{"srd5e/2014-en-5e-SRD-Magic-Items.json", "item"},
}

// srdEntities turns every record of an SRD file into an entity the way an
// import does: name and index become name and slug, the record is the data.
func srdEntities(tb testing.TB, f srdFile) []*core.Entity {
	tb.Helper()
	raw, err := os.ReadFile(shareddata.Path(tb, f.file))
	if err != nil {
		tb.Fatal(err)
	}
	var records []map[string]any
	if err := json.Unmarshal(raw, &records); err != nil {
		tb.Fatalf("%s: %v", f.file, err)
	}
	out := make([]*core.Entity, 0, len(records))
	for _, r := range records {
		name, _ := r["name"].(string)
		slug, _ := r["index"].(string)
		e := &core.Entity{Kind: f.kind, System: "dnd5e", Name: name, Slug: slug, Data: r}
		if err := e.Normalize(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)); err != nil {
			tb.Fatalf("%s %q: %v", f.file, name, err)
		}
		out = append(out, e)
	}
	return out
}

// requiredView lists the view fields that must never be empty, per kind.
var requiredView = map[string][]string{
	"monster": {"subtitle", "armor_class", "hit_points", "speed", "challenge", "senses", "languages"},
	"spell":   {"level_line", "casting_time", "range", "components", "duration", "classes"},
	"item":    {"subtitle", "category"},
}

// TestEverySRDRecordRenders renders the view and the reference page of
// every SRD monster, spell, equipment and magic item.
func TestEverySRDRecordRenders(t *testing.T) {
	s := loadSystem(t)
	ctx := context.Background()
	for _, f := range srdFiles {
		entities := srdEntities(t, f)
		if len(entities) == 0 {
			t.Fatalf("%s: no records", f.file)
		}
		for _, e := range entities {
			where := f.kind + " " + e.Name
			v, err := s.ViewValue(ctx, e)
			if err != nil {
				t.Errorf("%s: view: %v", where, err)
				continue
			}
			for _, key := range requiredView[f.kind] {
				if str, _ := v[key].(string); strings.TrimSpace(str) == "" {
					t.Errorf("%s: view field %q is empty", where, key)
				}
			}
			if f.kind == "monster" {
				checkAbilities(t, where, v)
			}
			if f.kind == "spell" && strings.Contains(v["components"].(string), "M") && e.Data["material"] != nil &&
				!strings.Contains(v["components"].(string), "M (") {
				t.Errorf("%s: components %q lost the material", where, v["components"])
			}
			if _, err := s.ListRow(ctx, e, false); err != nil {
				t.Errorf("%s: list row: %v", where, err)
			}
			refs, err := s.References(ctx, e)
			if err != nil {
				t.Errorf("%s: references: %v", where, err)
			}
			for _, r := range refs {
				if kind, slug, ok := strings.Cut(r, "."); !ok || kind == "" || slug == "" {
					t.Errorf("%s: reference %q is not kind.slug", where, r)
				}
			}
			page, err := s.RenderPage(ctx, e)
			if err != nil {
				t.Errorf("%s: page: %v", where, err)
				continue
			}
			if !strings.Contains(string(page), "<h1>"+htmlEscape(e.Name)+"</h1>") {
				t.Errorf("%s: page has no <h1> with the name", where)
			}
		}
	}
}

func checkAbilities(t *testing.T, where string, v map[string]any) {
	t.Helper()
	abilities, _ := v["abilities"].([]any)
	if len(abilities) != 6 {
		t.Errorf("%s: %d abilities, want 6", where, len(abilities))
		return
	}
	for _, a := range abilities {
		text, _ := a.(string)
		if text == "" || strings.Contains(text, "—") {
			t.Errorf("%s: ability line %q", where, text)
		}
	}
}

func htmlEscape(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&#34;", "'", "&#39;").Replace(s)
}

// TestSRDMonstersMatchGoFormatting checks the Lua stat-block lines against
// formatMonsterGo (the benchmark baseline) for every SRD monster: the two
// implementations must agree, so the baseline measures the same work.
func TestSRDMonstersMatchGoFormatting(t *testing.T) {
	s := loadSystem(t)
	ctx := context.Background()
	for _, e := range srdEntities(t, srdFiles[0]) {
		v, err := s.ViewValue(ctx, e)
		if err != nil {
			t.Fatalf("%s: %v", e.Name, err)
		}
		g := formatMonsterGo(e)
		for key, want := range map[string]string{
			"subtitle": g.Subtitle, "armor_class": g.ArmorClass, "hit_points": g.HitPoints, "speed": g.Speed,
			"saving_throws": g.SavingThrows, "skills": g.Skills, "damage_resistances": g.DamageResistances,
			"damage_immunities": g.DamageImmunities, "damage_vulnerabilities": g.DamageVulnerabilities,
			"condition_immunities": g.ConditionImmunities, "senses": g.Senses, "languages": g.Languages,
			"challenge": g.Challenge,
		} {
			if got, _ := v[key].(string); got != want { // an absent optional line reads ""
				t.Errorf("%s: %s: Lua %q, Go %q", e.Name, key, got, want)
			}
		}
		abilities := v["abilities"].([]any)
		for i, a := range g.Abilities {
			if got := abilities[i]; got != a {
				t.Errorf("%s: ability %d: Lua %q, Go %q", e.Name, i, got, a)
			}
		}
		actions := v["actions"].([]any)
		if len(actions) != len(g.Actions) {
			t.Errorf("%s: %d actions, Go %d", e.Name, len(actions), len(g.Actions))
			continue
		}
		for i, a := range g.Actions {
			got := actions[i].(map[string]any)
			if got["name"] != a.Name || got["text"] != a.Text {
				t.Errorf("%s: action %d: Lua %q %q, Go %q %q", e.Name, i, got["name"], got["text"], a.Name, a.Text)
			}
			if blocks, _ := got["blocks"].([]any); len(blocks) != len(a.Blocks) {
				t.Errorf("%s: action %d: Lua %d blocks after the first paragraph, Go %d", e.Name, i, len(blocks), len(a.Blocks))
			}
		}
	}
}

// goldenEntity reads the entity.json section of a golden case.
func goldenEntity(t *testing.T, name string) *core.Entity {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("tests", name+".txtar"))
	if err != nil {
		t.Fatal(err)
	}
	src := string(raw)
	const head = "-- entity.json --\n"
	i := strings.Index(src, head)
	if i < 0 {
		t.Fatalf("%s: no entity.json section", name)
	}
	src = src[i+len(head):]
	if j := strings.Index(src, "\n-- "); j >= 0 {
		src = src[:j]
	}
	var e core.Entity
	if err := json.Unmarshal([]byte(src), &e); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return &e
}

// TestStatBlockLines pins the lines the issue names, in the forms a player
// reads them; the golden cases cover the whole views and pages.
func TestStatBlockLines(t *testing.T) {
	s := loadSystem(t)
	cases := []struct {
		file string
		want map[string]any
	}{
		{"monster-goblin-srd-shape", map[string]any{
			"subtitle": "Small humanoid (goblinoid), neutral evil", "armor_class": "15 (leather armor, shield)",
			"hit_points": "7 (2d6)", "speed": "30 ft.", "challenge": "1/4 (50 XP)", "skills": "Stealth +6",
			"senses": "darkvision 60 ft., passive Perception 9", "languages": "Common, Goblin"}},
		{"monster-fractional-cr-eighth", map[string]any{"challenge": "1/8 (25 XP)", "languages": "—", "speed": "20 ft., swim 20 ft."}},
		{"monster-cr-zero-no-languages", map[string]any{"challenge": "0 (10 XP)", "hit_points": "1 (1d4 - 1)"}},
		{"monster-hover-no-walk", map[string]any{
			"speed":                "0 ft., fly 50 ft. (hover)",
			"damage_resistances":   "acid, cold, fire, necrotic, thunder; bludgeoning, piercing, and slashing from nonmagical attacks",
			"condition_immunities": "exhaustion, grappled, prone"}},
		{"monster-ac-dex-and-spell", map[string]any{"armor_class": "12 (15 with mage armor)", "saving_throws": "Int +6, Wis +4"}},
		{"monster-ac-condition", map[string]any{"armor_class": "14 (natural armor), 11 while prone"}},
		{"monster-ac-natural-and-shield", map[string]any{"armor_class": "15 (natural armor, shield)"}},
		{"monster-legendary-dragon", map[string]any{"challenge": "13 (10,000 XP)", "hit_points": "172 (15d12 + 75)",
			"saving_throws": "Dex +5, Con +10, Wis +6, Cha +8"}},
		{"monster-minimal-missing-fields", map[string]any{"subtitle": "Medium", "armor_class": "", "languages": "—"}},
		{"spell-third-level-material", map[string]any{"level_line": "3rd-level evocation",
			"components": "V, S, M (a tiny ball of bat guano and sulfur)", "duration": "Instantaneous"}},
		{"spell-cantrip", map[string]any{"level_line": "Evocation cantrip"}},
		{"spell-ritual", map[string]any{"level_line": "1st-level abjuration (ritual)"}},
		{"spell-concentration", map[string]any{"duration": "Concentration, up to 1 minute", "classes": "Bard, Cleric"}},
		{"item-weapon-versatile", map[string]any{"cost": "15 gp", "weight": "3 lb.", "damage": "1d8 slashing",
			"subtitle": "Martial melee weapon", "weapon_properties": "Versatile (1d10)"}},
		{"item-armor-medium-max-dex", map[string]any{"armor_class": "14 + Dex modifier (max 2)", "stealth": "Disadvantage"}},
		{"item-shield", map[string]any{"armor_class": "+2", "subtitle": "Shield"}},
		{"item-magic-attunement", map[string]any{"subtitle": "Wondrous item, rare (requires attunement)", "attunement": true}},
		{"item-magic-no-type-line", map[string]any{"subtitle": "Potion, uncommon"}},
		{"item-magic-misspelt-category-list", map[string]any{"subtitle": "Wondrous item, rare (requires attunement)"}},
		{"monster-handwritten-plain-values", map[string]any{"armor_class": "12", "speed": "30 ft.", "hit_points": "11 (2d8 + 2)",
			"languages": "Common, Thieves' cant", "senses": "passive Perception 10", "damage_resistances": nil, "challenge": "1/8 (25 XP)"}},
		{"spell-handwritten-plain-values", map[string]any{"level_line": "1st-level divination", "components": "V, M (chalk)",
			"classes": "Bard", "school": "Divination"}},
		{"character-cleric", map[string]any{"subtitle": "Hill Dwarf Cleric 3 (Life Domain), lawful good",
			"hit_points": "24 / 27", "armor_class": "18 (chain mail, shield)"}},
		{"character-multiclass-mage-armor", map[string]any{"class_line": "Wizard 2 / Rogue 1",
			"hit_points": "17 / 20 (+3 temporary)", "proficiency_bonus": "+2"}},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			v, err := s.ViewValue(context.Background(), goldenEntity(t, c.file))
			if err != nil {
				t.Fatal(err)
			}
			for key, want := range c.want {
				if got := v[key]; got != want {
					t.Errorf("%s = %#v, want %#v", key, got, want)
				}
			}
		})
	}
}

// TestAbilityLines checks the six "DEX 14 (+2)" lines of the goblin.
func TestAbilityLines(t *testing.T) {
	s := loadSystem(t)
	v, err := s.ViewValue(context.Background(), goldenEntity(t, "monster-goblin-srd-shape"))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"STR 8 (-1)", "DEX 14 (+2)", "CON 10 (+0)", "INT 10 (+0)", "WIS 8 (-1)", "CHA 8 (-1)"}
	for i, a := range v["abilities"].([]any) {
		if got := a; got != want[i] {
			t.Errorf("ability %d = %q, want %q", i, got, want[i])
		}
	}
}

// TestReferences checks the "kind.slug" links a monster, an item and a
// character name.
func TestReferences(t *testing.T) {
	s := loadSystem(t)
	ctx := context.Background()
	for file, want := range map[string][]string{
		"monster-ac-dex-and-spell":   {"spell.fire-bolt", "spell.light", "spell.mage-armor", "spell.shield", "spell.fireball"},
		"item-gear-pack-contents":    {"item.backpack", "item.torch", "item.rations-1-day"},
		"item-magic-table-variants":  {"item.potion-of-mending-greater"},
		"character-cleric":           {"spell.sacred-flame", "spell.bless", "spell.cure-wounds", "item.chain-mail", "item.candle"},
		"spell-third-level-material": nil,
	} {
		got, err := s.References(ctx, goldenEntity(t, file))
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		if strings.Join(got, " ") != strings.Join(want, " ") {
			t.Errorf("%s: references %q, want %q", file, got, want)
		}
	}
}

// TestKindsAndDocument checks the declared kinds and GET /api/system.
func TestKindsAndDocument(t *testing.T) {
	s := loadSystem(t)
	want := map[string]struct {
		collection string
		unique     bool
		ranges     string
		filters    string
	}{
		"monster":    {"monsters", false, "hit_points", "challenge_rating type size"},
		"spell":      {"spells", false, "", "level school"},
		"item":       {"items", false, "", "equipment_category rarity"},
		"character":  {"characters", true, "hit_points", ""},
		"race":       {"races", false, "", "size"},
		"class":      {"classes", false, "", "hit_die"},
		"feat":       {"feats", false, "", ""},
		"background": {"backgrounds", false, "", ""},
	}
	if len(s.Kinds()) != len(want) {
		t.Fatalf("%d kinds, want %d", len(s.Kinds()), len(want))
	}
	for _, k := range s.Kinds() {
		w, ok := want[k.Name]
		if !ok {
			t.Fatalf("unexpected kind %q", k.Name)
		}
		if k.Collection != w.collection || k.Unique != w.unique || strings.Join(k.Ranges, " ") != w.ranges ||
			strings.Join(k.Filters, " ") != w.filters {
			t.Errorf("kind %s = %+v, want %+v", k.Name, *k, w)
		}
	}
	// The key a combatant of no kind keeps its hit points under is the
	// system's to name (core.RangeLister), once for both kinds.
	if got := s.HitPointRanges(); strings.Join(got, " ") != "hit_points" {
		t.Errorf("HitPointRanges = %v, want [hit_points]", got)
	}
	body, etag := s.Document()
	if etag == "" {
		t.Error("document has no ETag")
	}
	var doc struct {
		ID          string
		Definitions struct {
			Entities map[string]any
			Types    map[string][]map[string]any
		}
	}
	if err := json.Unmarshal(body, &doc); err != nil {
		t.Fatal(err)
	}
	if doc.ID != "dnd5e" {
		t.Errorf("id %q", doc.ID)
	}
	for name, n := range map[string]int{"sizes": 6, "creature_types": 14, "schools": 8, "damage_types": 13, "conditions": 15, "rarities": 7} {
		if got := len(doc.Definitions.Types[name]); got != n {
			t.Errorf("types.%s has %d options, want %d", name, got, n)
		}
	}
	if got := doc.Definitions.Types["schools"][4]; got["index"] != "evocation" || got["name"] != "Evocation" {
		t.Errorf("types.schools[4] = %v", got)
	}
}

// TestListRowsCopyFilterData checks that list rows carry the filter keys as
// stored (school stays the SRD reference object) and basic rows do not.
func TestListRowsCopyFilterData(t *testing.T) {
	s := loadSystem(t)
	ctx := context.Background()
	e := goldenEntity(t, "spell-third-level-material")
	row, err := s.ListRow(ctx, e, false)
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	if err := json.Unmarshal(row, &got); err != nil {
		t.Fatal(err)
	}
	school, _ := got["school"].(map[string]any)
	if got["level"] != float64(3) || school["index"] != "evocation" {
		t.Errorf("list row %s", row)
	}
	basic, err := s.ListRow(ctx, e, true)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(basic), "school") {
		t.Errorf("basic row carries filter keys: %s", basic)
	}
}

// TestGoldenCases runs the golden cases of tests/ (also run for every
// example system by the tests/ package): regenerate them with
// `companion system test examples/dnd5e -update` and read the diff.
func TestGoldenCases(t *testing.T) {
	var out strings.Builder
	failed, err := systems.RunGolden(".", false, &out)
	if err != nil {
		t.Fatal(err)
	}
	if failed > 0 {
		t.Errorf("%d golden cases differ:\n%s", failed, out.String())
	}
	if n := strings.Count(out.String(), "\n"); n == 0 {
		t.Errorf("golden runner printed nothing")
	}
}

// TestViewsSurviveOddData replaces each data field of a few full entities,
// one at a time, by values of every other JSON type (and by nested junk)
// and checks the view and the page still render: hand-written or
// half-imported content must never make a reference page fail.
func TestViewsSurviveOddData(t *testing.T) {
	s := loadSystem(t)
	ctx := context.Background()
	odd := []any{nil, "", "text", 0.0, -3.5, true, []any{}, []any{"x", 1.0, nil}, map[string]any{},
		map[string]any{"name": 5.0, "value": "x", "type": []any{}}, []any{map[string]any{"desc": 1.0, "usage": "x"}}}
	for _, file := range []string{"monster-legendary-dragon", "monster-ac-dex-and-spell", "spell-third-level-material",
		"item-weapon-versatile", "item-magic-table-variants", "character-cleric"} {
		base := goldenEntity(t, file)
		empty := *base
		empty.Data = nil
		if _, err := s.RenderPage(ctx, &empty); err != nil {
			t.Errorf("%s without data: %v", file, err)
		}
		for key := range base.Data {
			for _, value := range odd {
				e := *base
				e.Data = map[string]any{}
				for k, v := range base.Data {
					e.Data[k] = v
				}
				e.Data[key] = value
				if _, err := s.RenderPage(ctx, &e); err != nil {
					t.Errorf("%s with data.%s = %#v: %v", file, key, value, err)
				}
			}
		}
	}
}
