package legacyxml

import (
	"archive/zip"
	"encoding/json"
	"errors"
	"io"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/vttapp/companion/internal/shareddata"
)

func readFixture(t *testing.T, name string) string {
	t.Helper()
	data, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func TestCompendiumEntriesOfEveryKind(t *testing.T) {
	entries, err := readAll(readFixture(t, "compendium.xml"), Limits{})
	if err != nil {
		t.Fatal(err)
	}
	var kinds []string
	for _, e := range entries {
		kinds = append(kinds, e.Kind)
	}
	if want := CompendiumKinds; !reflect.DeepEqual(kinds, want) {
		t.Fatalf("kinds %v, want %v", kinds, want)
	}
	monster := entries[0].Element
	if monster.Attr("id") != "0E1B9E1C-5A77-4F0B-9D5B-2D5F6A7C8B01" || monster.Line != 4 || monster.Path() != "compendium/monster" {
		t.Errorf("monster id %q line %d path %q", monster.Attr("id"), monster.Line, monster.Path())
	}
	if p := entries[2].Element.Path(); p != "compendium/item" {
		t.Errorf("item path %q", p)
	}
}

// The table an import hook receives: text as strings, repeated children as
// lists in document order, attributes under _attr, mixed text under _text.
func TestElementTable(t *testing.T) {
	entries, err := readAll(readFixture(t, "compendium.xml"), Limits{})
	if err != nil {
		t.Fatal(err)
	}
	monster := entries[0].Element.Table().(map[string]any)
	checks := map[string]any{
		"name":      "Reed Stalker",
		"immune":    "",
		"_attr":     map[string]any{"id": "0E1B9E1C-5A77-4F0B-9D5B-2D5F6A7C8B01"},
		"reaction":  map[string]any{"name": "Slip Away", "text": "When a creature the stalker can see hits it, the stalker moves half its speed."},
		"legendary": map[string]any{"name": "Lurk", "text": "The stalker hides."},
	}
	for key, want := range checks {
		if got := monster[key]; !reflect.DeepEqual(got, want) {
			t.Errorf("monster[%q] = %#v, want %#v", key, got, want)
		}
	}
	traits, ok := monster["trait"].([]any)
	if !ok || len(traits) != 2 || traits[1].(map[string]any)["name"] != "Hold Breath" {
		t.Errorf("traits %#v", monster["trait"])
	}
	bite := monster["action"].([]any)[1].(map[string]any)
	if texts, ok := bite["text"].([]any); !ok || len(texts) != 2 || !strings.HasPrefix(texts[1].(string), "If the target") {
		t.Errorf("bite text %#v", bite["text"])
	}
	if bite["attack"] != "Bite|+4|1d10+2" {
		t.Errorf("attack %#v", bite["attack"])
	}
	spell := entries[1].Element.Table().(map[string]any)
	// Paragraphs and a continuation line's tab are kept; the ends are trimmed.
	if want := "A bolt of sucking mud strikes one creature in range.\n\nOn a hit the target takes 2d6 bludgeoning damage.\n\tIts speed is halved until the end of its next turn."; spell["text"] != want {
		t.Errorf("spell text %q", spell["text"])
	}
	rolls := spell["roll"].([]any)
	if want := (map[string]any{"_attr": map[string]any{"description": "Bludgeoning Damage", "level": "2"}, "_text": "3d6"}); !reflect.DeepEqual(rolls[1], want) {
		t.Errorf("roll %#v", rolls[1])
	}
	class := entries[4].Element.Table().(map[string]any)
	levels := class["autolevel"].([]any)
	second := levels[1].(map[string]any)
	if !reflect.DeepEqual(second["_attr"], map[string]any{"level": "2", "scoreImprovement": "YES"}) {
		t.Errorf("autolevel attributes %#v", second["_attr"])
	}
	if _, hasText := second["_text"]; hasText {
		t.Errorf("white space between children became _text: %#v", second)
	}
	// The table is plain JSON.
	if _, err := json.Marshal(class); err != nil {
		t.Fatal(err)
	}
}

// Three repeated children stay one flat list.
func TestElementTableThreeRepeats(t *testing.T) {
	root, err := ReadDocument(strings.NewReader("<a><t>1</t><t>2</t><u/><t>3</t></a>"), "a.xml", Limits{})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"t": []any{"1", "2", "3"}, "u": ""}
	if got := root.Table(); !reflect.DeepEqual(got, want) {
		t.Errorf("table %#v", got)
	}
	if p := root.Children[3].Path(); p != "a/t[3]" {
		t.Errorf("path %q", p)
	}
	if p := root.Children[0].Path(); p != "a/t[1]" {
		t.Errorf("path %q", p)
	}
}

// The sample's bare compendium: 24 spells and 22 items, read one at a time.
func TestSharedSRDCompendium(t *testing.T) {
	f, err := os.Open(shareddata.Path(t, "legacy/srd-spells-items.compendium.xml"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	cr, err := NewCompendiumReader(f, "srd-spells-items.compendium.xml", Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if cr.Root().Attr("version") != "5" {
		t.Errorf("root %#v", cr.Root().Attrs)
	}
	counts := map[string]int{}
	for {
		e, err := cr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		counts[e.Kind]++
		if e.Element.ChildText("name") == "" {
			t.Errorf("%s without a name at line %d", e.Kind, e.Element.Line)
		}
	}
	if counts["spell"] != 24 || counts["item"] != 22 || len(counts) != 2 {
		t.Errorf("counts %v", counts)
	}
	info, _ := f.Stat()
	if cr.Offset() != info.Size() || cr.Entries() != 46 {
		t.Errorf("offset %d of %d, %d entries", cr.Offset(), info.Size(), cr.Entries())
	}
}

// The documentation's compendium example, zipped: a monster, a player, an
// item and a spell.
func TestSharedDocsCompendium(t *testing.T) {
	zr, err := zip.OpenReader(shareddata.Path(t, "legacy/docs-example.compendium"))
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	rc, err := zr.Open(CompendiumFile)
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	cr, err := NewCompendiumReader(rc, CompendiumFile, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	var kinds []string
	var monster map[string]any
	for {
		e, err := cr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		kinds = append(kinds, e.Kind)
		if e.Kind == KindMonster {
			monster = e.Element.Table().(map[string]any)
		}
	}
	if !reflect.DeepEqual(kinds, []string{"monster", "player", "item", "spell"}) {
		t.Errorf("kinds %v", kinds)
	}
	// The example repeats <save>: both are kept, as a list.
	if saves, ok := monster["save"].([]any); !ok || len(saves) != 2 {
		t.Errorf("save %#v", monster["save"])
	}
	if len(monster["legendary"].([]any)) != 3 || len(monster["action"].([]any)) != 4 {
		t.Errorf("legendary %d actions %d", len(monster["legendary"].([]any)), len(monster["action"].([]any)))
	}
}
