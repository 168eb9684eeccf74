package engine_test

import (
	"context"
	"testing"

	"github.com/vttapp/companion/core"
)

// The cost of a hit point change in a fight of 20 on the map, against its
// floor, a patch of the same combatant (one stored write and its event,
// without the game's lists): ChangeHitPoints also reads the players' lists
// before the change, to send the turn alone when they did not change
// (core/engine/internal/kernel/gamelists.go), and gives unordered slots their place among
// explicit orders (turnorder.go). Report the ratio of the two ns/op:
//
//	go test -run '^$' -bench 'BenchmarkCombatWrite' ./core/
func BenchmarkCombatWrite(b *testing.B) {
	f := newCombatFixture(b)
	ctx := context.Background()
	var ids []string
	for i := range 20 {
		tok, err := f.svc.PlaceToken(ctx, cbMap, core.PlaceToken{EntityID: cbImp, X: 35 + 70*float64(i%10), Y: 35 + 70*float64(i/10)})
		if err != nil {
			b.Fatal(err)
		}
		added, err := f.svc.AddCombatants(ctx, []core.NewCombatant{{TokenID: tok.ID}})
		if err != nil {
			b.Fatal(err)
		}
		ids = append(ids, added[0].ID)
	}
	if _, err := f.svc.RollInitiative(ctx, nil); err != nil {
		b.Fatal(err)
	}
	id := ids[7]
	b.Run("floor=patch", func(b *testing.B) {
		for i := 0; b.Loop(); i++ {
			if _, err := f.svc.PatchCombatant(ctx, id, core.Object{"notes": string(rune('a' + i%26))}); err != nil {
				b.Fatal(err)
			}
			f.events.take()
		}
	})
	b.Run("hitpoints", func(b *testing.B) {
		one := 1.0
		for i := 0; b.Loop(); i++ {
			ch := core.HitPointChange{Damage: &one}
			if i%2 == 1 {
				ch = core.HitPointChange{Healing: &one}
			}
			if _, err := f.svc.ChangeHitPoints(ctx, id, ch); err != nil {
				b.Fatal(err)
			}
			f.events.take()
		}
	})
}
