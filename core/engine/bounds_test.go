package engine_test

import (
	"context"
	"testing"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/internal/testkit"
)

// The attack of issue 32 (its lows): a seated player set max_hit_points
// to -50, temporary hit points to 1e18 and dealt half a point of damage.
// The system's bounds (D&D 5e: whole hit points, 0 to 9999, a maximum of
// at least 1) hold on every way a player writes them, and nothing of a
// refused change is stored.
func TestAPlayersHealthValuesStayWithinTheSystemsBounds(t *testing.T) {
	g := newSeatGame(t)
	ctx := context.Background()
	ann := g.take(t, testkit.HeroID, "Ann")
	refused := func(what string, err error) {
		t.Helper()
		if core.KindOf(err) != core.KindInvalid {
			t.Errorf("%s: %v, want refused as invalid", what, err)
		}
	}
	_, err := g.svc.PatchOwnCharacter(ctx, ann, core.Object{"data": core.Object{"max_hit_points": -50.0}})
	refused("max_hit_points -50", err)
	_, err = g.svc.PatchOwnCharacter(ctx, ann, core.Object{"data": core.Object{"max_hit_points": 30.5}})
	refused("max_hit_points 30.5", err)
	_, err = g.svc.PatchOwnCharacter(ctx, ann, core.Object{"data": core.Object{"max_hit_points": "lots"}})
	refused("max_hit_points as text", err)
	_, err = g.svc.ChangeOwnHitPoints(ctx, ann, core.HitPointChange{Temp: ptr(1e18)})
	refused("temp 1e18", err)
	_, err = g.svc.ChangeOwnHitPoints(ctx, ann, core.HitPointChange{Damage: ptr(0.5)})
	refused("half a point of damage", err)
	_, err = g.svc.ChangeOwnHitPoints(ctx, ann, core.HitPointChange{Healing: ptr(1e9)})
	refused("healing of a billion", err)

	// With the join key on, the contract's write of the character is held
	// to the same bounds.
	if _, err := g.svc.SetJoinKey(ctx, true); err != nil {
		t.Fatal(err)
	}
	_, err = g.svc.PlayerAs(ann).PatchEntity(ctx, "", testkit.HeroID, core.Object{"data": core.Object{"max_hit_points": -50.0}})
	refused("PATCH max_hit_points -50", err)

	hero, err := g.svc.Entity(ctx, "", testkit.HeroID)
	if err != nil {
		t.Fatal(err)
	}
	if hero.Data["max_hit_points"] != 30.0 || hero.Data["hit_points"] != 20.0 || hero.Data["temp_hit_points"] != nil {
		t.Fatalf("a refused change was stored: %v", hero.Data)
	}
	// Within the bounds, all of it works.
	if _, err := g.svc.PatchOwnCharacter(ctx, ann, core.Object{"data": core.Object{"max_hit_points": 32.0}}); err != nil {
		t.Fatal(err)
	}
	for _, ch := range []core.HitPointChange{{Damage: ptr(3.0)}, {Healing: ptr(1.0)}, {Temp: ptr(5.0)}} {
		if _, err := g.svc.ChangeOwnHitPoints(ctx, ann, ch); err != nil {
			t.Fatalf("%+v: %v", ch, err)
		}
	}
}
