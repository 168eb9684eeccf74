package engine_test

import (
	"testing"
	"time"

	"github.com/vttapp/companion/core"
)

// A client's PUT or PATCH never moves what the server owns: an entity's
// kind, owner and creation time, a token's map, a combatant's campaign and
// rank; a player's write also keeps hidden (and a combatant's notes).
func TestWritesKeepServerOwnedFields(t *testing.T) {
	f := newSvcFixture(t, true)
	before, err := f.svc.Entity(svcCtx, "character", svcHero)
	if err != nil {
		t.Fatal(err)
	}
	lie := &core.Entity{ID: svcHero, Name: "Hero", Owner: "elsewhere", Created: time.Unix(0, 0), Revision: 99}
	e, err := f.svc.PutEntity(svcCtx, "character", svcHero, lie)
	if err != nil {
		t.Fatal(err)
	}
	if e.Owner != svcCampaign || e.Kind != "character" || !e.Created.Equal(before.Created) || e.Revision != before.Revision+1 {
		t.Errorf("PUT entity moved server-owned fields: owner %q kind %q created %v revision %d", e.Owner, e.Kind, e.Created, e.Revision)
	}
	e, err = f.svc.PatchEntity(svcCtx, "character", svcHero, core.Object{"created": "2000-01-01T00:00:00Z", "kind": "character"})
	if err != nil {
		t.Fatal(err)
	}
	if !e.Created.Equal(before.Created) || e.Owner != svcCampaign {
		t.Errorf("PATCH entity moved server-owned fields: created %v owner %q", e.Created, e.Owner)
	}

	tok, err := f.svc.PutToken(svcCtx, svcTokenA, &core.Token{ID: svcTokenA, Name: "A", MapID: "another-map", Revision: 99})
	if err != nil {
		t.Fatal(err)
	}
	if tok.MapID != svcMap || tok.Revision == 99 {
		t.Errorf("PUT token moved to map %q, revision %d", tok.MapID, tok.Revision)
	}
	players := f.svc.Players()
	tok, err = players.PutToken(svcCtx, svcTokenA, &core.Token{ID: svcTokenA, Name: "A", Hidden: true})
	if err != nil {
		t.Fatal(err)
	}
	if tok.Hidden {
		t.Error("a player's PUT hid a token")
	}
	tok, err = players.PatchToken(svcCtx, svcTokenA, core.Object{"hidden": true})
	if err != nil {
		t.Fatal(err)
	}
	if tok.Hidden {
		t.Error("a player's PATCH hid a token")
	}

	hero, err := f.svc.PatchCombatant(svcCtx, svcHeroCombatant, core.Object{"notes": "secret"})
	if err != nil {
		t.Fatal(err)
	}
	c, err := f.svc.PutCombatant(svcCtx, svcHeroCombatant, &core.Combatant{ID: svcHeroCombatant, Name: "Hero", Campaign: "elsewhere", Rank: 42})
	if err != nil {
		t.Fatal(err)
	}
	if c.Campaign != svcCampaign || c.Rank != hero.Rank {
		t.Errorf("PUT combatant moved to campaign %q rank %d", c.Campaign, c.Rank)
	}
	c, err = players.PatchCombatant(svcCtx, svcHeroCombatant, core.Object{"hidden": true, "notes": "mine"})
	if err != nil {
		t.Fatal(err)
	}
	if c.Hidden || c.Notes != "" {
		t.Errorf("a player's PATCH changed hidden %v or notes %q", c.Hidden, c.Notes)
	}
	if _, err := f.svc.PatchCombatant(svcCtx, svcHeroCombatant, core.Object{"notes": "secret"}); err != nil {
		t.Fatal(err)
	}
	if _, err = players.PutCombatant(svcCtx, svcHeroCombatant, &core.Combatant{ID: svcHeroCombatant, Name: "Hero", Notes: "mine"}); err != nil {
		t.Fatal(err)
	}
	if c, _ = f.svc.Combatant(svcCtx, svcHeroCombatant); c.Notes != "secret" {
		t.Errorf("a player's PUT replaced the notes: %q", c.Notes)
	}
	g, err := f.svc.PatchCombatantInGame(svcCtx, svcHeroCombatant, core.Object{"name": "Hero II"})
	if err != nil {
		t.Fatal(err)
	}
	if g.Campaign != svcCampaign || g.ID != svcHeroCombatant || g.Name != "Hero II" {
		t.Errorf("PatchCombatantInGame: %+v", g)
	}
}
