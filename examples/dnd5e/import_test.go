package dnd5e

import (
	"archive/zip"
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/imports/legacyxml"
	"github.com/vttapp/companion/internal/shareddata"
	"github.com/vttapp/companion/systems"
)

// imported maps every entry of a compendium document through the system's
// import hook, as the importer does, and returns the entities with the
// views they render.
type imported struct {
	entity *core.Entity
	view   map[string]any
}

func importCompendium(t *testing.T, s *systems.System, r io.Reader, file string) map[string]imported {
	t.Helper()
	cr, err := legacyxml.NewCompendiumReader(r, file, legacyxml.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]imported{}
	ctx := context.Background()
	for {
		entry, err := cr.Next()
		if errors.Is(err, io.EOF) {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		table, _ := entry.Element.Table().(map[string]any)
		entities, err := s.MapCompendium(ctx, entry.Kind, table)
		if err != nil {
			t.Fatalf("%s line %d: %v", entry.Kind, entry.Element.Line, err)
		}
		for _, e := range entities {
			// As stored: JSON in and out.
			raw, _ := json.Marshal(e)
			var stored core.Entity
			if err := json.Unmarshal(raw, &stored); err != nil {
				t.Fatal(err)
			}
			if err := stored.Normalize(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)); err != nil {
				t.Fatal(err)
			}
			stored.Kind = e.Kind
			view, err := s.ViewValue(ctx, &stored)
			if err != nil {
				t.Fatalf("view of %s %q: %v", stored.Kind, stored.Name, err)
			}
			if _, err := s.RenderPage(ctx, &stored); err != nil {
				t.Fatalf("page of %s %q: %v", stored.Kind, stored.Name, err)
			}
			key := stored.Name
			if _, dup := out[key]; dup { // a spell and an item may share a name
				key += " (" + stored.Kind + ")"
			}
			out[key] = imported{entity: &stored, view: view}
		}
	}
}

// fixtureCompendium is the legacy XML readers' own fixture: one entry of
// every kind, written for the tests.
const fixtureCompendium = "../../imports/legacyxml/testdata/compendium.xml"

func openFile(t *testing.T, path string) *os.File {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

// wantView checks view keys (dotted paths into lists by index: "actions.1.rolls.0.text").
func wantView(t *testing.T, name string, view map[string]any, want map[string]any) {
	t.Helper()
	for path, w := range want {
		var v any = view
		for _, part := range strings.Split(path, ".") {
			switch x := v.(type) {
			case map[string]any:
				v = x[part]
			case []any:
				i, err := strconv.Atoi(part)
				if err != nil || i >= len(x) {
					v = nil
				} else {
					v = x[i]
				}
			default:
				v = nil
			}
		}
		if !reflect.DeepEqual(v, w) {
			t.Errorf("%s: view %s = %#v, want %#v", name, path, v, w)
		}
	}
}

// Every kind of the fixture imports into the shape its view reads, and the
// view shows every field the issue lists.
func TestImportEveryKind(t *testing.T) {
	s := loadSystem(t)
	got := importCompendium(t, s, openFile(t, fixtureCompendium), "compendium.xml")
	if len(got) != 8 {
		t.Fatalf("%d entities", len(got))
	}
	stalker := got["Reed Stalker"]
	wantView(t, "monster", stalker.view, map[string]any{
		"subtitle":                 "Medium monstrosity (amphibian), unaligned",
		"armor_class":              "14 (natural armor)",
		"hit_points":               "33 (6d8 + 6)",
		"speed":                    "30 ft., swim 40 ft.",
		"abilities.0":              "STR 15 (+2)",
		"abilities.5":              "CHA 5 (-3)",
		"saving_throws":            "Dex +4, Wis +3",
		"skills":                   "Perception +3, Stealth +6",
		"damage_resistances":       "cold",
		"condition_immunities":     "frightened",
		"senses":                   "darkvision 60 ft., passive Perception 13",
		"languages":                "—",
		"challenge":                "2 (450 XP)",
		"special_abilities.1.name": "Hold Breath",
		"actions.1.name":           "Bite",
		"actions.1.blocks.0.text":  "If the target is Medium or smaller, it is grappled (escape DC 12).",
		"actions.1.rolls.0.text":   "+4 to hit, 1d10 + 2",
		"reactions.0.name":         "Slip Away",
		"legendary_actions.0.name": "Lurk",
	})
	if stalker.entity.Image != "reed-stalker.png" || stalker.entity.Data["environments"] == nil {
		t.Errorf("monster %+v", stalker.entity)
	}
	// What it did not map is kept: here only the source's id.
	if !reflect.DeepEqual(stalker.entity.Data["unmapped"], map[string]any{"_attr": map[string]any{"id": "0E1B9E1C-5A77-4F0B-9D5B-2D5F6A7C8B01"}}) {
		t.Errorf("unmapped %#v", stalker.entity.Data["unmapped"])
	}
	wantView(t, "spell", got["Mire Bolt"].view, map[string]any{
		"level_line":   "1st-level evocation",
		"school":       "Evocation",
		"ritual":       false,
		"components":   "V, S, M (a pinch of wet clay)",
		"classes":      "Druid, Wizard",
		"casting_time": "1 action",
		"details.1":    map[string]any{"label": "Bludgeoning Damage", "value": "2d6 at 1st level; 3d6 at 2nd level"},
		// Paragraphs stay paragraphs.
		"description.1.text": "On a hit the target takes 2d6 bludgeoning damage.",
	})
	wantView(t, "item", got["Heron Spear"].view, map[string]any{
		"subtitle":          "Weapon (heron spear), uncommon",
		"rarity":            "Uncommon",
		"weight":            "3 lb.",
		"cost":              "150 gp",
		"weapon_properties": "Thrown (range 20/60), versatile (1d8)",
		"damage":            "1d6 piercing",
		"two_handed_damage": "1d8 piercing",
	})
	wantView(t, "race", got["Marsh Folk"].view, map[string]any{
		"subtitle": "Small race", "ability_scores": "Dex +2, Wis +1", "speed": "25 ft.", "traits.0.name": "Web Feet",
	})
	wantView(t, "class", got["Warden"].view, map[string]any{
		"subtitle": "Class, d10 hit die", "levels.0.title": "Level 1", "levels.0.features.0.name": "Watchful",
		"levels.0.notes": "Vigil: 2 per long rest", "levels.1.notes": "Ability Score Improvement",
		"details.2": map[string]any{"label": "Skills", "value": "choose 2"},
	})
	wantView(t, "feat", got["Reedwalker"].view, map[string]any{
		"subtitle": "Feat", "prerequisite": "Dexterity 13 or higher",
		"description.0.text": "Difficult terrain made of plants costs you no extra movement.",
	})
	wantView(t, "background", got["Ferryman"].view, map[string]any{
		"subtitle": "Background", "traits.0.name": "Feature: Safe Passage",
		"details.0": map[string]any{"label": "Skill Proficiencies", "value": "Athletics, Insight"},
	})
	wantView(t, "character", got["Wren Tallow"].view, map[string]any{
		"subtitle": "Marsh Folk Warden 3", "armor_class": "15", "hit_points": "28 / 28", "speed": "25 ft.",
	})
}

// The sample: 24 spells and 22 items of the SRD in Fight Club's
// format. Every entry maps with nothing left over (every field is read),
// and renders.
func TestImportSharedSRDCompendium(t *testing.T) {
	s := loadSystem(t)
	got := importCompendium(t, s, openFile(t, shareddata.Path(t, "legacy/srd-spells-items.compendium.xml")), "srd.xml")
	if len(got) != 46 {
		t.Fatalf("%d entities", len(got))
	}
	for name, im := range got {
		if u := im.entity.Data["unmapped"]; u != nil {
			t.Errorf("%s kept unmapped %v: a field the mapper does not read", name, u)
		}
		if len(im.entity.Sources) != 1 || im.entity.Sources[0].Name != "System Reference Document 5.0" {
			t.Errorf("%s sources %v", name, im.entity.Sources)
		}
	}
	for name, want := range map[string]map[string]any{
		"Alarm":                {"level_line": "1st-level abjuration (ritual)", "classes": "Ranger, Wizard", "components": "V, S, M (a tiny bell and a piece of fine silver wire)"},
		"Fire Bolt":            {"level_line": "Evocation cantrip", "details.1.value": "1d10; 2d10 at 5th level; 3d10 at 11th level; 4d10 at 17th level"},
		"Hold Person":          {"duration": "Concentration, up to 1 minute", "higher_level.0.lead": "At Higher Levels."},
		"Cure Wounds":          {"details.1.value": "1d8 + mod at 1st level; 2d8 + mod at 2nd level; 3d8 + mod at 3rd level; 4d8 + mod at 4th level; 5d8 + mod at 5th level; 6d8 + mod at 6th level; 7d8 + mod at 7th level; 8d8 + mod at 8th level; 9d8 + mod at 9th level"},
		"Longsword":            {"subtitle": "Martial melee weapon", "cost": "15 gp", "weight": "3 lb.", "damage": "1d8 slashing", "weapon_properties": "Versatile (1d10)"},
		"Shortbow":             {"subtitle": "Simple ranged weapon", "range": "80/320 ft.", "weapon_properties": "Ammunition (range 80/320), two-handed"},
		"Chain Mail":           {"subtitle": "Heavy armor", "armor_class": "16", "strength": "Str 13", "stealth": "Disadvantage"},
		"Leather Armor":        {"armor_class": "11 + Dex modifier"},
		"Torch":                {"cost": "1 cp"},
		"Staff of Healing":     {"subtitle": "Staff, rare (requires attunement by a bard, cleric, or druid)", "rarity": "Rare", "attunement": true},
		"Ring of Invisibility": {"subtitle": "Ring, legendary (requires attunement)", "magic": true},
		"Potion of Healing":    {"subtitle": "Potion, common", "weight": "1/2 lb."},
	} {
		im, ok := got[name]
		if !ok {
			t.Errorf("no %s", name)
			continue
		}
		wantView(t, name, im.view, want)
	}
	// A bulleted paragraph becomes a list.
	if items := got["Prestidigitation"].view["description"].([]any)[1].(map[string]any); items["type"] != "list" || len(items["items"].([]any)) != 6 {
		t.Errorf("Prestidigitation's bullets: %#v", items)
	}
}

// The original application's documentation example: its monster (with a
// repeated <save>), player, item (with a heading) and spell.
func TestImportSharedDocsCompendium(t *testing.T) {
	s := loadSystem(t)
	zr, err := zip.OpenReader(shareddata.Path(t, "legacy/docs-example.compendium"))
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	rc, err := zr.Open("compendium.xml")
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	got := importCompendium(t, s, rc, "compendium.xml")
	wantView(t, "Aboleth", got["Aboleth"].view, map[string]any{
		"subtitle": "Large aberration, lawful evil", "armor_class": "17", "hit_points": "135 (18d10 + 36)",
		"speed": "10 ft., swim 40 ft.", "saving_throws": "Con +6, Int +8, Wis +6", "skills": "History +12, Perception +10",
		"senses": "darkvision 120 ft., passive Perception 20", "languages": "Deep Speech, telepathy 120 ft.",
		"challenge": "10 (5,900 XP)", "legendary_actions.2.name": "Psychic Drain (Costs 2 Actions)",
		"actions.3.blocks.0.type": "p",
	})
	// The deprecated role is not mapped: kept.
	if u, _ := got["Aboleth"].entity.Data["unmapped"].(map[string]any); u["role"] != "enemy" {
		t.Errorf("unmapped %#v", got["Aboleth"].entity.Data["unmapped"])
	}
	wantView(t, "Thorin", got["Thorin Stoneheart"].view, map[string]any{"subtitle": "Dwarf Fighter 1", "speed": "30 ft."})
	wantView(t, "Adamantine Armor", got["Adamantine Armor"].view, map[string]any{"subtitle": "Armor (medium or heavy, but not hide), uncommon"})
	wantView(t, "Acid Arrow", got["Acid Arrow"].view, map[string]any{"level_line": "2nd-level evocation",
		"description.1.text": "When you cast this spell using a spell slot of 3rd level or higher, the damage (both initial and later) increases by 1d4 for each slot level above 2nd."})
}

// Odd values in every field: the hook maps what it can and never fails.
func TestImportOddValues(t *testing.T) {
	s := loadSystem(t)
	doc := `<compendium>
<monster><name>Odd</name><size>Q</size><type>(weird</type><ac>lots</ac><hp>many (d)</hp><speed>fast, fly</speed>
<str>x</str><save>none</save><skill>+3</skill><senses>keen</senses><cr>1/0</cr><passive>?</passive>
<trait>just text</trait><action><name/></action><action><attack>||</attack><roll>1d4</roll></action>
<legendary category="lair"><name>Lair</name><text>Shakes.</text></legendary><slots>a,b</slots><spells>,,</spells></monster>
<spell><name>Odd Spell</name><level>high</level><school>ZZ</school><components></components><duration>Concentration</duration><roll description="x" level="y">d</roll></spell>
<item><name>Odd Item</name><type>??</type><value>a lot</value><weight>heavy</weight><range>far</range><property>Z</property><detail>(requires attunement)</detail><magic>YES</magic></item>
<race><name>Odd Race</name><ability>Str</ability></race>
<class><name>Odd Class</name><autolevel>no level</autolevel><autolevel level="x"><slots>1</slots></autolevel></class>
<feat><name>Odd Feat</name></feat><background><name>Odd Background</name></background><player><name>Odd Player</name><level>x</level></player>
</compendium>`
	got := importCompendium(t, s, strings.NewReader(doc), "odd.xml")
	if len(got) != 8 {
		t.Errorf("%d entities", len(got))
	}
	wantView(t, "Odd", got["Odd"].view, map[string]any{"lair_actions.0.name": "Lair", "armor_class": ""})
}

// The compendium example of docs/content-format.md maps as it says.
func TestImportDocumentedExample(t *testing.T) {
	doc, err := os.ReadFile("../../docs/content-format.md")
	if err != nil {
		t.Fatal(err)
	}
	_, after, ok := strings.Cut(string(doc), "<!-- example: compendium -->\n```xml\n")
	if !ok {
		t.Fatal("the example is not in the document")
	}
	example, _, _ := strings.Cut(after, "```")
	s := loadSystem(t)
	got := importCompendium(t, s, strings.NewReader(example), "example.xml")
	wantView(t, "Cave Bat", got["Cave Bat"].view, map[string]any{
		"armor_class": "12", "hit_points": "4 (1d6 + 1)", "speed": "5 ft., fly 30 ft.",
		"senses": "blindsight 60 ft., passive Perception 11", "challenge": "1/8 (25 XP)",
		"actions.0.rolls.0.text": "+4 to hit, 1d4 + 2",
	})
	for _, quoted := range []string{`"armor_class": "12"`, `"hit_points": "4 (1d6 + 1)"`, `"speed": "5 ft., fly 30 ft."`,
		`"senses": "blindsight 60 ft., passive Perception 11"`, `"challenge": "1/8 (25 XP)"`, `"+4 to hit, 1d4 + 2"`} {
		if !strings.Contains(after, quoted) {
			t.Errorf("the document no longer quotes %s", quoted)
		}
	}
	if got["Glimmer"].view["level_line"] != "Evocation cantrip" {
		t.Errorf("spell %v", got["Glimmer"].view)
	}
}
