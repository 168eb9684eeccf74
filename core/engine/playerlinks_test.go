package engine_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/core/engine"
	"github.com/vttapp/companion/core/engine/internal/kernel"
	"github.com/vttapp/companion/core/mapobjects"
	"github.com/vttapp/companion/core/redact"
)

const svcOgre = "b0000000-0000-0000-0000-0000000000f0"

// gmOgre stores, as the game master, a hostile combatant with exact hit
// points, standing on token A.
func gmOgre(t *testing.T, f *svcFixture) *core.Combatant {
	t.Helper()
	tok := svcTokenA
	c := &core.Combatant{ID: svcOgre, Name: "Ogre", Role: core.RoleHostile, Campaign: svcCampaign,
		EntityType: "monster", EntityID: svcGoblin, Reference: "/monster/goblin", TokenID: &tok,
		Data: core.Object{"hit_points": 59.0}}
	c.Normalize()
	if err := f.store.Update(svcCtx, func(tx core.Tx) error { return tx.PutCombatant(c) }); err != nil {
		t.Fatal(err)
	}
	return c
}

// Links between combatants, entities and tokens are the game master's: a
// player's PATCH or PUT of a combatant keeps its entityId, entityType,
// reference and tokenId.
func TestPlayerWritesKeepCombatantLinks(t *testing.T) {
	f := newSvcFixture(t, true)
	gmOgre(t, f)
	players := f.svc.Players()
	if _, err := players.PatchCombatant(svcCtx, svcOgre, core.Object{
		"entityId": svcHero, "entityType": "character", "reference": "/character/hero", "tokenId": svcHiddenToken,
	}); err != nil {
		t.Fatal(err)
	}
	if _, err := players.PutCombatant(svcCtx, svcOgre, &core.Combatant{ID: svcOgre, Name: "Ogre", EntityID: svcHero,
		EntityType: "character", Reference: "/character/hero", TokenID: ptr(svcHiddenToken)}); err != nil {
		t.Fatal(err)
	}
	c, _ := f.svc.Combatant(svcCtx, svcOgre)
	if c.EntityID != svcGoblin || c.EntityType != "monster" || c.Reference != "/monster/goblin" || c.TokenID == nil || *c.TokenID != svcTokenA {
		t.Fatalf("a player's writes relinked the combatant: entity %q %q, reference %q, token %v", c.EntityID, c.EntityType, c.Reference, c.TokenID)
	}
	// The game master relinks as before.
	if c, err := f.svc.PatchCombatant(svcCtx, svcOgre, core.Object{"tokenId": svcTokenB}); err != nil || *c.TokenID != svcTokenB {
		t.Fatalf("the game master's relink: %v %v", c, err)
	}
}

// The attack: a foe pointed at a character would share its hit points with
// the character's public data, both ways.
func TestPlayerCannotShareAFoesHitPointsThroughACharacter(t *testing.T) {
	f := newSvcFixture(t, true)
	gmOgre(t, f)
	if _, err := f.svc.Players().PatchCombatant(svcCtx, svcOgre, core.Object{"entityId": svcHero}); err != nil {
		t.Fatal(err)
	}
	hero, err := f.svc.Entity(svcCtx, "character", svcHero)
	if err != nil {
		t.Fatal(err)
	}
	if hero.Data["hit_points"] != 30.0 {
		t.Fatalf("the character's public data took the foe's hit points: %v", hero.Data["hit_points"])
	}
	if _, err := f.svc.PatchEntity(svcCtx, "character", svcHero, core.Object{"data": map[string]any{"hit_points": 0.0}}); err != nil {
		t.Fatal(err)
	}
	if c, _ := f.svc.Combatant(svcCtx, svcOgre); c.Data["hit_points"] != 59.0 {
		t.Fatalf("a player's write of the character set the foe's hit points to %v", c.Data["hit_points"])
	}
}

// In mode token a hostile token is the game master's: a player's write
// keeps a token's role (and whether it is a player character's, and its
// entity links), so it cannot turn a foe friendly and then drag it.
func TestPlayerWritesKeepTokenRoleAndLinks(t *testing.T) {
	f := newLiveFixture(t)
	ctx := svcCtx
	if _, err := f.svc.PatchToken(ctx, liveTokenID, core.Object{"role": core.RoleHostile, "entityId": liveEntityID, "reference": "/monster/ogre"}); err != nil {
		t.Fatal(err)
	}
	if _, err := f.svc.UpdateSettings(ctx, kernel.SettingsPatch{Interaction: ptr(core.InteractionToken)}); err != nil {
		t.Fatal(err)
	}
	if _, err := f.svc.Players().PatchToken(ctx, liveTokenID, core.Object{"role": core.RoleFriendly, "player": true, "entityId": nil, "reference": "/character/x", "name": "Pet"}); err != nil {
		t.Fatal(err)
	}
	tok := f.token(t, liveTokenID)
	if tok.Role != core.RoleHostile || tok.Player || tok.EntityID == nil || *tok.EntityID != liveEntityID || tok.Reference != "/monster/ogre" || tok.Name != "Pet" {
		t.Fatalf("after a player's PATCH: role %q player %v entity %v reference %q name %q", tok.Role, tok.Player, tok.EntityID, tok.Reference, tok.Name)
	}
	f.events.take()
	block, err := engine.NewDrags(f.svc).Move(ctx, alice, core.Movement{ID: liveTokenID, X: 90, Y: 90, State: core.DragStart})
	if err != nil || block == nil || block.State != core.DragBlock {
		t.Fatalf("a player dragged a foe in mode token: %+v %v", block, err)
	}
}

// A foe's effects say what they do to its numbers: players get their
// names and durations, never their data, attributes or modifiers; a
// player's write keeps them.
func TestFoeEffectsLoseTheirNumbersForPlayers(t *testing.T) {
	f := newSvcFixture(t, true)
	gmOgre(t, f)
	secret := core.StatusEffect{ID: "fx-rage", Name: "Rage", Duration: 3, Data: core.Object{"bonus_damage": 7.0},
		Attributes: core.Object{"resistance": "slashing"}, Modifiers: []core.Modifier{{ID: "m", Enabled: true, Attribute: "data.ac", Value: "-2"}}}
	if _, err := f.svc.PatchCombatant(svcCtx, svcOgre, core.Object{"effects": []any{secret}}); err != nil {
		t.Fatal(err)
	}
	stored, _ := f.svc.Combatant(svcCtx, svcOgre)
	seen, err := f.svc.Players().Combatant(svcCtx, svcOgre)
	if err != nil {
		t.Fatal(err)
	}
	snap, err := f.svc.Snapshot(svcCtx)
	if err != nil {
		t.Fatal(err)
	}
	var tok *core.Token
	for _, t := range snap.Map.Tokens {
		if t.ID == svcTokenA {
			tok = t
		}
	}
	for what, v := range map[string]any{"the combatant": redact.CombatantForPlayers(stored), "a player's read": seen,
		"a token stored with it": redact.TokenForPlayers(&core.Token{ID: svcTokenA, Combatant: stored}), "its token in GET /api": tok} {
		b, _ := json.Marshal(v)
		for _, leak := range []string{"bonus_damage", "slashing", "data.ac"} {
			if strings.Contains(string(b), leak) {
				t.Errorf("%s carries the effect's %s to players: %s", what, leak, b)
			}
		}
		if !strings.Contains(string(b), `"name":"Rage"`) {
			t.Errorf("%s lost the effect itself: %s", what, b)
		}
	}
	// Writing back what they read loses nothing.
	if _, err := f.svc.Players().PutCombatant(svcCtx, svcOgre, seen); err != nil {
		t.Fatal(err)
	}
	after, _ := f.svc.Combatant(svcCtx, svcOgre)
	if e := after.Effects[0]; e.Data["bonus_damage"] != 7.0 || e.Attributes["resistance"] != "slashing" || len(e.Modifiers) != 1 {
		t.Fatalf("a player's write of what they read lost the effect's numbers: %+v", e)
	}
	// A friend's effects keep theirs: the party's numbers are the players'.
	if _, err := f.svc.PatchCombatant(svcCtx, svcOgre, core.Object{"role": core.RoleFriendly}); err != nil {
		t.Fatal(err)
	}
	if got, _ := f.svc.Players().Combatant(svcCtx, svcOgre); got.Effects[0].Data["bonus_damage"] != 7.0 {
		t.Fatalf("a friend's effect lost its data: %+v", got.Effects[0])
	}
}

// A visible combatant standing on a hidden token names it to no player:
// its tokenId is null in GET /api's game.combatants and game.creatures, in
// combatantUpdated and in /api/combatants/{id}.
func TestVisibleCombatantNamesNoHiddenToken(t *testing.T) {
	f := newSvcFixture(t, true)
	hidden := svcHiddenToken
	if _, err := f.svc.PatchCombatant(svcCtx, svcHeroCombatant, core.Object{"tokenId": hidden}); err != nil {
		t.Fatal(err)
	}
	check := func(what string, v any) {
		t.Helper()
		if b, _ := json.Marshal(v); strings.Contains(string(b), svcHiddenToken) {
			t.Errorf("%s names the hidden token: %s", what, b)
		}
	}
	var updated any
	for _, e := range f.rec.events {
		if e.Name == core.EventCombatantUpdated {
			updated = redact.PlayersView(e.Data)
		}
	}
	if updated == nil {
		t.Fatal("no combatantUpdated for players")
	}
	check("combatantUpdated", updated)
	snap, err := f.svc.Snapshot(svcCtx)
	if err != nil {
		t.Fatal(err)
	}
	check("GET /api's game", snap.Game)
	c, err := f.svc.Players().Combatant(svcCtx, svcHeroCombatant)
	if err != nil {
		t.Fatal(err)
	}
	check("GET /api/combatants/{id}", c)
	// The game master still sees the link; a visible token is named.
	if c, _ := f.svc.Combatant(svcCtx, svcHeroCombatant); c.TokenID == nil || *c.TokenID != hidden {
		t.Fatal("the stored link was dropped")
	}
	if _, err := f.svc.PatchCombatant(svcCtx, svcHeroCombatant, core.Object{"tokenId": svcTokenB}); err != nil {
		t.Fatal(err)
	}
	snap, _ = f.svc.Snapshot(svcCtx)
	if got := snap.Game.Creatures[0].TokenID; got == nil || *got != svcTokenB {
		t.Fatalf("a visible token's id was dropped: %v", got)
	}
}

// One rule for hiding: hiding a token hides the combatant standing on it
// (players' initiative loses it in the same change), and revealing the
// token shows it again.
func TestHidingATokenHidesItsCombatant(t *testing.T) {
	f := newSvcFixture(t, true)
	gmOgre(t, f)
	playersSeeOgre := func() bool {
		t.Helper()
		f.rec.mu.Lock()
		defer f.rec.mu.Unlock()
		for i := len(f.rec.events) - 1; i >= 0; i-- {
			if e := f.rec.events[i]; e.Name == core.EventGameUpdated {
				b, _ := json.Marshal(redact.PlayersView(e.Data))
				return strings.Contains(string(b), svcOgre)
			}
		}
		t.Fatal("no gameUpdated went out")
		return false
	}
	if _, err := f.svc.PatchToken(svcCtx, svcTokenA, core.Object{"hidden": true}); err != nil {
		t.Fatal(err)
	}
	if c, _ := f.svc.Combatant(svcCtx, svcOgre); !c.Hidden {
		t.Fatal("the token is hidden but its combatant is not")
	}
	if playersSeeOgre() {
		t.Fatal("players' initiative still names the combatant of a hidden token")
	}
	if _, err := f.svc.PatchToken(svcCtx, svcTokenA, core.Object{"hidden": false}); err != nil {
		t.Fatal(err)
	}
	if c, _ := f.svc.Combatant(svcCtx, svcOgre); c.Hidden {
		t.Fatal("the token is shown again but its combatant stays hidden")
	}
	if !playersSeeOgre() {
		t.Fatal("players' initiative lacks the combatant of a revealed token")
	}
}

// A token stands on the map's plane: a coordinate past ±MaxMapCoordinate
// is refused (400) and nothing changes; one on its edge is kept.
func TestTokenCoordinatesStayOnTheMapsPlane(t *testing.T) {
	f := newSvcFixture(t, true)
	for _, patch := range []core.Object{{"x": 1e12}, {"y": -1e7}, {"x": 5, "y": mapobjects.MaxMapCoordinate + 1}} {
		if _, err := f.svc.PatchToken(svcCtx, svcTokenA, patch); core.KindOf(err) != core.KindInvalid || !strings.Contains(err.Error(), "map pixels") {
			t.Errorf("PatchToken(%v) = %v, want a 400 naming the bound", patch, err)
		}
	}
	if _, err := f.svc.Players().PutToken(svcCtx, svcTokenA, &core.Token{ID: svcTokenA, X: -2e6}); core.KindOf(err) != core.KindInvalid {
		t.Errorf("a player's PUT far off the map: %v", err)
	}
	tok, err := f.svc.PatchToken(svcCtx, svcTokenA, core.Object{"x": float64(mapobjects.MaxMapCoordinate), "y": -3.5})
	if err != nil || tok.X != mapobjects.MaxMapCoordinate || tok.Y != -3.5 {
		t.Fatalf("a token on the plane's edge: %+v %v", tok, err)
	}
}
