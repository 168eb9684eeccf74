package dnd5e

import (
	"bytes"
	"context"
	"encoding/json"
	"io/fs"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/vttapp/companion/core"
)

var slugPattern = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)

// decodeStrict decodes one sample file into v, rejecting unknown fields so
// that the sample keeps to the published shapes.
func decodeStrict(t *testing.T, fsys fs.FS, name string, v any) {
	t.Helper()
	raw, err := fs.ReadFile(fsys, name)
	if err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
}

// TestSampleCompendium checks the module and renders every entity of the
// compendium through its kind.
func TestSampleCompendium(t *testing.T) {
	s := loadSystem(t)
	sample := s.Sample()
	if sample == nil {
		t.Fatal("the system has no sample folder")
	}
	raw, err := fs.ReadFile(sample, "compendium/module.json")
	if err != nil {
		t.Fatal(err)
	}
	m, err := core.DecodeModule(raw)
	if err != nil {
		t.Fatalf("module.json: %v", err)
	}
	if m.System != "dnd5e" || m.Category != "compendium" {
		t.Errorf("module %+v", m)
	}
	total := 0
	for file, kind := range map[string]string{"monsters.json": "monster", "spells.json": "spell", "items.json": "item"} {
		var entities []*core.Entity
		decodeStrict(t, sample, "compendium/"+file, &entities)
		if len(entities) < 4 {
			t.Errorf("%s has %d entities, want at least 4", file, len(entities))
		}
		for _, e := range entities {
			total++
			if e.Kind != kind || e.ID == "" || !slugPattern.MatchString(e.Slug) {
				t.Errorf("%s: %q has kind %q, id %q, slug %q", file, e.Name, e.Kind, e.ID, e.Slug)
			}
			if err := e.Normalize(time.Now()); err != nil {
				t.Fatal(err)
			}
			if _, err := s.RenderPage(context.Background(), e); err != nil {
				t.Errorf("%s: %q: %v", file, e.Name, err)
			}
		}
	}
	if total < 12 {
		t.Errorf("the compendium has %d entries, want a dozen", total)
	}
}

// TestSampleCampaign checks that the demo campaign's pieces point at each
// other: combatants at tokens and entities, the game at a combatant, the
// screen at the map, and that the map has walls, a door and a light.
func TestSampleCampaign(t *testing.T) {
	s := loadSystem(t)
	sample := s.Sample()
	var campaign core.Campaign
	decodeStrict(t, sample, "campaign/campaign.json", &campaign)
	if err := campaign.Normalize(); err != nil {
		t.Fatal(err)
	}
	var characters, monsters []*core.Entity
	decodeStrict(t, sample, "campaign/characters.json", &characters)
	decodeStrict(t, sample, "compendium/monsters.json", &monsters)
	if len(characters) != 3 {
		t.Errorf("%d characters, want 3", len(characters))
	}
	entities := map[string]*core.Entity{}
	for _, e := range append(characters, monsters...) {
		entities[e.ID] = e
	}
	for _, c := range characters {
		if c.Kind != "character" {
			t.Errorf("%s: kind %q", c.Name, c.Kind)
		}
		c.Normalize(time.Now())
		v, err := s.ViewValue(context.Background(), c)
		if err != nil {
			t.Fatalf("%s: %v", c.Name, err)
		}
		for _, key := range []string{"subtitle", "armor_class", "hit_points", "speed", "player"} {
			if v[key] == "" {
				t.Errorf("%s: view %s is empty", c.Name, key)
			}
		}
	}

	var maps []*core.Map
	decodeStrict(t, sample, "campaign/maps.json", &maps)
	if len(maps) != 1 {
		t.Fatalf("%d maps, want 1", len(maps))
	}
	m := maps[0]
	if err := m.Normalize(); err != nil {
		t.Fatal(err)
	}
	if _, err := fs.Stat(sample, "campaign/"+m.Image); m.Image == "" || err != nil {
		t.Errorf("map image %q is not in the sample: %v", m.Image, err)
	}
	doors := 0
	for _, w := range m.Walls {
		if w.IsDoor() {
			doors++
		}
	}
	if len(m.Walls) < 2 || doors != 1 || len(m.Lights) != 1 {
		t.Errorf("map has %d walls, %d doors, %d lights", len(m.Walls), doors, len(m.Lights))
	}
	tokens := map[string]*core.Token{}
	for _, tk := range m.Tokens {
		tokens[tk.ID] = tk
		if tk.EntityID == nil || entities[*tk.EntityID] == nil {
			t.Errorf("token %s points at no sample entity", tk.Name)
		}
		if tk.X < 0 || tk.Y < 0 || tk.X > float64(m.Width) || tk.Y > float64(m.Height) {
			t.Errorf("token %s stands off the map", tk.Name)
		}
	}
	if len(tokens) != 5 {
		t.Errorf("%d tokens, want 3 characters and 2 monsters", len(tokens))
	}

	var combatants []*core.Combatant
	decodeStrict(t, sample, "campaign/combatants.json", &combatants)
	ids := map[string]bool{}
	for _, c := range combatants {
		ids[c.ID] = true
		if c.TokenID == nil || tokens[*c.TokenID] == nil {
			t.Errorf("combatant %s has no token on the map", c.Name)
		} else if tk := tokens[*c.TokenID]; tk.EntityID == nil || *tk.EntityID != c.EntityID {
			t.Errorf("combatant %s and its token point at different entities", c.Name)
		}
		e := entities[c.EntityID]
		if e == nil {
			t.Errorf("combatant %s points at no sample entity", c.Name)
			continue
		}
		if c.Reference != "/"+e.Kind+"/"+e.Slug {
			t.Errorf("combatant %s reference %q", c.Name, c.Reference)
		}
		if _, ok := c.Data["hit_points"]; !ok {
			t.Errorf("combatant %s carries no hit_points range", c.Name)
		}
	}
	var game core.Game
	decodeStrict(t, sample, "campaign/game.json", &game)
	if !ids[game.CombatantID] {
		t.Errorf("game.combatantId %q is no combatant", game.CombatantID)
	}
	var screen core.Screen
	decodeStrict(t, sample, "campaign/screen.json", &screen)
	if screen.MapID != m.ID {
		t.Errorf("screen.mapId %q, map %q", screen.MapID, m.ID)
	}
	for _, ref := range campaign.References {
		if !strings.HasPrefix(ref, "/") {
			t.Errorf("campaign reference %q is not an app URL", ref)
		}
	}
}

// The demo's own monsters answer the links people write (/monster/goblin),
// have no id another sample entry uses (a later file would replace them),
// and each token art they name is in the sample.
func TestSampleMonstersLinksAndArt(t *testing.T) {
	s := loadSystem(t)
	sample := s.Sample()
	if sample == nil {
		t.Fatal("the system has no sample folder")
	}
	ids := map[string]string{}
	var monsters []*core.Entity
	for _, file := range []string{"monsters.json", "spells.json", "items.json"} {
		var entities []*core.Entity
		decodeStrict(t, sample, "compendium/"+file, &entities)
		for _, e := range entities {
			if other, dup := ids[e.ID]; dup {
				t.Errorf("%s in %s has the id of %s", e.Name, file, other)
			}
			ids[e.ID] = e.Name
		}
		if file == "monsters.json" {
			monsters = entities
		}
	}
	slugs := map[string]bool{}
	art := 0
	for _, e := range monsters {
		slugs[e.Slug] = true
		if e.Token == "" {
			continue
		}
		art++
		b, err := fs.ReadFile(sample, "compendium/monsters/"+e.Token)
		if err != nil || !strings.Contains(string(b), "<svg") {
			t.Errorf("%s: token art %q is not an SVG in the sample: %v", e.Name, e.Token, err)
		}
	}
	if !slugs["goblin"] || art < 3 {
		t.Errorf("the demo's monsters: goblin %v, %d with token art; want /monster/goblin and art for the new ones", slugs["goblin"], art)
	}
}
