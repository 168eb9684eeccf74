package redact

import (
	"testing"

	"github.com/vttapp/companion/core"
)

// CombatantForPlayers leaves out notes, effects' notes and a foe's
// numbers (data, attributes, modifiers); the token's combatant leaves out
// effects' notes too. The stored combatant is never changed.
func TestCombatantForPlayers(t *testing.T) {
	fx := []core.StatusEffect{{ID: "fx", Name: "Poisoned", Notes: "gm"}}
	mods := []core.Modifier{{ID: "m", Enabled: true, Attribute: "data.ac", Value: "2"}}
	foe := &core.Combatant{ID: "c1", Role: core.RoleHostile, Notes: "gm", Data: core.Object{"hit_points": 15.0}, Effects: fx,
		Attributes: core.Object{"ac": 13.0}, Modifiers: mods}
	got := CombatantForPlayers(foe)
	if got.Notes != "" || got.Data != nil || got.Effects[0].Notes != "" || got.Effects[0].Name != "Poisoned" {
		t.Fatalf("foe for players: %+v", got)
	}
	if got.Attributes == nil || len(got.Attributes) != 0 || got.Modifiers == nil || len(got.Modifiers) != 0 {
		t.Fatalf("foe's attributes and modifiers for players (want {} and []): %+v %+v", got.Attributes, got.Modifiers)
	}
	if foe.Notes != "gm" || foe.Data == nil || foe.Effects[0].Notes != "gm" || foe.Attributes["ac"] != 13.0 || len(foe.Modifiers) != 1 {
		t.Fatalf("the stored combatant changed: %+v", foe)
	}
	// A foe with nothing but attributes or modifiers is copied too.
	for _, bare := range []*core.Combatant{{ID: "a", Attributes: core.Object{"ac": 1.0}}, {ID: "m", Role: core.RoleNeutral, Modifiers: mods}} {
		if got := CombatantForPlayers(bare); got == bare || len(got.Attributes) != 0 || len(got.Modifiers) != 0 {
			t.Fatalf("%s for players: %+v", bare.ID, got)
		}
	}
	friend := &core.Combatant{ID: "c2", Role: core.RoleFriendly, Notes: "gm", Data: core.Object{"hit_points": 30.0}, Attributes: core.Object{"ac": 16.0}, Modifiers: mods}
	if got := CombatantForPlayers(friend); got.Notes != "" || got.Data["hit_points"] != 30.0 || got.Attributes["ac"] != 16.0 || len(got.Modifiers) != 1 {
		t.Fatalf("friend for players: %+v", got)
	}
	clean := &core.Combatant{ID: "c3", Role: core.RoleFriendly, Data: core.Object{"hit_points": 1.0}}
	if CombatantForPlayers(clean) != clean {
		t.Fatal("a combatant with nothing to leave out is copied")
	}
	if tc := PlayerCombatant(foe, ""); tc.Effects[0].Notes != "" || tc.Data != nil || tc.Notes != "" {
		t.Fatalf("token's combatant: %+v", tc)
	}
	tok := &core.Token{ID: "t", Combatant: foe}
	if tt := TokenForPlayers(tok); tt.Combatant.Notes != "" || tt.Combatant.Data != nil || len(tt.Combatant.Attributes) != 0 || tok.Combatant != foe {
		t.Fatalf("TokenForPlayers: %+v", tt.Combatant)
	}
	if tt := TokenForPlayers(&core.Token{ID: "t", Combatant: &core.Combatant{ID: "h", Hidden: true}}); tt.Combatant != nil {
		t.Fatalf("TokenForPlayers sent a hidden combatant: %+v", tt.Combatant)
	}
	g := PlayerGame(&core.Game{Combatants: []*core.Combatant{foe, {ID: "h", Hidden: true}}}, func() []core.TurnSlot { return nil })
	if len(g.Combatants) != 1 || g.Combatants[0].Notes != "" || g.Combatants[0].Data != nil {
		t.Fatalf("playerGame: %+v", g.Combatants)
	}
}

// Tiles, drawings, markers, area effects and measurements on the dm layer
// are the game master's whatever their hidden flag says.
func TestPlayerMapDropsDMLayer(t *testing.T) {
	m := &core.Map{ID: "m",
		Tiles:    []core.Object{{"id": "T-DM", "layer": "dm", "hidden": false}, {"id": "T-OBJ", "layer": "object"}},
		Drawings: []core.Object{{"id": "D-DM", "layer": "DM"}, {"id": "D-MAP", "layer": "map"}, {"id": "D-NONE"}},
		Markers:  []core.Object{{"id": "M-DM", "layer": "dm", "hidden": false}, {"id": "M-SHOWN", "hidden": false}},
	}
	got := PlayerMap(m)
	if got == m {
		t.Fatal("a map with dm-layer objects is not copied")
	}
	ids := func(list []core.Object) (out []string) {
		for _, o := range list {
			out = append(out, o["id"].(string))
		}
		return out
	}
	if s := ids(got.Tiles); len(s) != 1 || s[0] != "T-OBJ" {
		t.Fatalf("tiles: %v", s)
	}
	if s := ids(got.Drawings); len(s) != 2 || s[0] != "D-MAP" || s[1] != "D-NONE" {
		t.Fatalf("drawings: %v", s)
	}
	if s := ids(got.Markers); len(s) != 1 || s[0] != "M-SHOWN" {
		t.Fatalf("markers: %v", s)
	}
	if len(m.Tiles) != 2 || len(m.Drawings) != 3 {
		t.Fatal("the stored map changed")
	}
}
