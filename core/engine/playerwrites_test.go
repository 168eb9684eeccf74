package engine_test

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/core/redact"
)

// gmFoe stores, as the game master, a foe with everything players are not
// shown: notes, an effect's notes, data, attributes and modifiers. It
// returns the stored combatant.
func gmFoe(t *testing.T, f *svcFixture, role string) *core.Combatant {
	t.Helper()
	c, err := f.svc.PutCombatant(svcCtx, svcHeroCombatant, &core.Combatant{
		ID: svcHeroCombatant, Name: "Ogre", Role: role, Notes: "GM: flees at 10",
		Data:       core.Object{"hit_points": 59.0},
		Attributes: core.Object{"ac": 11.0},
		Modifiers:  []core.Modifier{{ID: "m1", Enabled: true, Attribute: "data.ac", Mode: "add", Value: "2"}},
		Effects: []core.StatusEffect{
			{ID: "fx1", Name: "Poisoned", Notes: "GM: ends on a DC 12 save"},
			{ID: "fx2", Name: "Prone"},
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// asPlayersReceive is a combatant as a player's client holds it: the
// redacted view, through JSON.
func asPlayersReceive(t *testing.T, c *core.Combatant) *core.Combatant {
	t.Helper()
	b, err := json.Marshal(redact.CombatantForPlayers(c))
	if err != nil {
		t.Fatal(err)
	}
	var out core.Combatant
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return &out
}

// sameExceptName compares the published shapes of two combatants, the
// name left out.
func sameExceptName(t *testing.T, what string, got, want *core.Combatant) {
	t.Helper()
	g, w := *got, *want
	g.Name, w.Name, g.Revision, w.Revision = "", "", 0, 0
	gb, _ := json.Marshal(g)
	wb, _ := json.Marshal(w)
	if string(gb) != string(wb) {
		t.Errorf("%s:\n got %s\nwant %s", what, gb, wb)
	}
}

// A player who reads a foe, renames it and writes it back (PUT) loses
// none of what they were not shown.
func TestPlayerPutOfRedactedCombatantKeepsWhatTheyCannotSee(t *testing.T) {
	f := newSvcFixture(t, true)
	stored := gmFoe(t, f, core.RoleHostile)
	seen, err := f.svc.Players().Combatant(svcCtx, svcHeroCombatant)
	if err != nil {
		t.Fatal(err)
	}
	edited := asPlayersReceive(t, seen)
	if edited.Notes != "" || edited.Data != nil || len(edited.Attributes) != 0 || len(edited.Modifiers) != 0 || edited.Effects[0].Notes != "" {
		t.Fatalf("the player's view carries the game master's fields: %+v", edited)
	}
	edited.Name = "Big Ogre"
	out, err := f.svc.Players().PutCombatant(svcCtx, svcHeroCombatant, edited)
	if err != nil {
		t.Fatal(err)
	}
	if out.Name != "Big Ogre" {
		t.Fatalf("the player's rename was lost: %q", out.Name)
	}
	after, err := f.svc.Combatant(svcCtx, svcHeroCombatant)
	if err != nil {
		t.Fatal(err)
	}
	sameExceptName(t, "stored after a player's PUT of what they read", after, stored)
}

// The same through merge patches (PATCH and updateCombatant): an effects
// list without notes keeps the stored notes, and what players cannot see
// cannot be set or cleared either.
func TestPlayerPatchCannotSetOrClearWhatTheyCannotSee(t *testing.T) {
	f := newSvcFixture(t, true)
	stored := gmFoe(t, f, core.RoleNeutral)
	players := f.svc.Players()
	_, err := players.PatchCombatant(svcCtx, svcHeroCombatant, core.Object{
		"name":       "Ogre?",
		"effects":    []any{map[string]any{"id": "fx1", "name": "Poisoned"}, map[string]any{"id": "fx2", "name": "Prone"}},
		"data":       map[string]any{"hit_points": 1.0},
		"attributes": nil,
		"modifiers":  []any{},
		"notes":      nil,
		"role":       core.RoleFriendly,
	})
	if err != nil {
		t.Fatal(err)
	}
	after, _ := f.svc.Combatant(svcCtx, svcHeroCombatant)
	sameExceptName(t, "stored after a player's PATCH", after, stored)

	// A new effect a player adds carries no notes of theirs; one they
	// remove is gone (they can see it).
	_, err = players.PatchCombatant(svcCtx, svcHeroCombatant, core.Object{
		"effects": []any{map[string]any{"id": "fx1", "name": "Poisoned", "notes": "mine"}, map[string]any{"id": "fx3", "name": "Blessed", "notes": "mine"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	after, _ = f.svc.Combatant(svcCtx, svcHeroCombatant)
	if len(after.Effects) != 2 || after.Effects[0].Notes != "GM: ends on a DC 12 save" || after.Effects[1].Name != "Blessed" || after.Effects[1].Notes != "" {
		t.Errorf("effects after a player's PATCH: %+v", after.Effects)
	}
}

// A friend's numbers are the players' to see and so to change; its notes
// stay the game master's.
func TestPlayerWritesAFriendsNumbersNotItsNotes(t *testing.T) {
	f := newSvcFixture(t, true)
	gmFoe(t, f, core.RoleFriendly)
	out, err := f.svc.Players().PatchCombatant(svcCtx, svcHeroCombatant, core.Object{
		"data": map[string]any{"hit_points": 12.0}, "attributes": map[string]any{"ac": 13.0}, "modifiers": []any{}, "notes": "mine",
	})
	if err != nil {
		t.Fatal(err)
	}
	if out.Data["hit_points"] != 12.0 || out.Attributes["ac"] != 13.0 || len(out.Modifiers) != 0 {
		t.Errorf("a player's change of a friend's numbers was lost: %+v", out)
	}
	if out.Notes != "" {
		t.Errorf("a player's PATCH answered the notes: %q", out.Notes)
	}
	if stored, _ := f.svc.Combatant(svcCtx, svcHeroCombatant); stored.Notes != "GM: flees at 10" {
		t.Errorf("a player's PATCH changed a friend's notes: %q", stored.Notes)
	}
}

// The game master (the Service's own methods, the host console) keeps
// full control of the same fields.
func TestGMWritesChangeWhatPlayersCannotSee(t *testing.T) {
	f := newSvcFixture(t, true)
	gmFoe(t, f, core.RoleHostile)
	out, err := f.svc.PatchCombatant(svcCtx, svcHeroCombatant, core.Object{
		"notes": "new", "data": map[string]any{"hit_points": 40.0}, "attributes": map[string]any{"ac": nil},
		"modifiers": []any{}, "effects": []any{map[string]any{"id": "fx1", "name": "Poisoned", "notes": "GM: new"}},
		"role": core.RoleNeutral,
	})
	if err != nil {
		t.Fatal(err)
	}
	if out.Notes != "new" || out.Data["hit_points"] != 40.0 || len(out.Attributes) != 0 || len(out.Modifiers) != 0 ||
		len(out.Effects) != 1 || out.Effects[0].Notes != "GM: new" || out.Role != core.RoleNeutral {
		t.Errorf("the game master's PATCH: %+v", out)
	}
	out, err = f.svc.PutCombatant(svcCtx, svcHeroCombatant, &core.Combatant{ID: svcHeroCombatant, Name: "Ogre"})
	if err != nil {
		t.Fatal(err)
	}
	if out.Notes != "" || out.Data != nil || len(out.Effects) != 0 || out.Role != "" {
		t.Errorf("the game master's PUT did not clear: %+v", out)
	}
}

// A combatant stored with a token reaches players stripped
// (TokenForPlayers); a player's write of the token keeps it whole, and
// the game master's replaces it.
func TestTokenCombatantKeptFromPlayers(t *testing.T) {
	f := newSvcFixture(t, true)
	secret := &core.Combatant{ID: "tc", Name: "Ogre", Notes: "GM-NOTE", Data: core.Object{"hit_points": 59.0},
		Attributes: core.Object{"ac": 11.0}, Effects: []core.StatusEffect{{ID: "fx", Name: "Prone", Notes: "GM-FX"}}}
	if _, err := f.svc.PatchToken(svcCtx, svcTokenA, core.Object{"combatant": secret}); err != nil {
		t.Fatal(err)
	}
	gm, _ := f.svc.Token(svcCtx, svcTokenA)
	players := f.svc.Players()
	seen, err := players.Token(svcCtx, svcTokenA)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(redact.TokenForPlayers(seen))
	var edited core.Token
	if err := json.Unmarshal(b, &edited); err != nil {
		t.Fatal(err)
	}
	if c := edited.Combatant; c == nil || c.Notes != "" || c.Data != nil || len(c.Attributes) != 0 || c.Effects[0].Notes != "" || c.Effects[0].Name != "Prone" {
		t.Fatalf("the token's combatant as players see it: %s", b)
	}
	edited.X = 7
	if _, err := players.PutToken(svcCtx, svcTokenA, &edited); err != nil {
		t.Fatal(err)
	}
	if _, err := players.PatchToken(svcCtx, svcTokenA, core.Object{"combatant": nil}); err != nil {
		t.Fatal(err)
	}
	after, _ := f.svc.Token(svcCtx, svcTokenA)
	if after.X != 7 || !reflect.DeepEqual(after.Combatant, gm.Combatant) {
		t.Errorf("after a player's PUT and PATCH: x %v, combatant %+v (want %+v)", after.X, after.Combatant, gm.Combatant)
	}
	out, err := f.svc.PatchToken(svcCtx, svcTokenA, core.Object{"combatant": nil})
	if err != nil || out.Combatant != nil {
		t.Errorf("the game master's PATCH kept the combatant: %+v %v", out, err)
	}
}
