package sqlite

import (
	"context"
	"testing"

	"github.com/vttapp/companion/core"
)

// Staged entities are seen by no read until one transaction adopts them
// all; an id another entity has stops the adoption whole; dropping a
// stage forgets it, and an empty stage name forgets every stage.
func TestStagedEntitiesAreAdoptedAllAtOnce(t *testing.T) {
	s := newStore(t)
	ctx := context.Background()
	ent := func(id, name string) *core.Entity {
		return &core.Entity{ID: id, Kind: "monster", System: "dnd5e", Name: name, Slug: name}
	}
	update := func(fn func(tx core.Tx) error) error { return s.Update(ctx, fn) }
	if err := update(func(tx core.Tx) error {
		if err := tx.PutEntity(ent("taken", "taken")); err != nil {
			return err
		}
		for _, e := range []*core.Entity{ent("a", "a"), ent("b", "b")} {
			if err := tx.StageEntity("one", e); err != nil {
				return err
			}
		}
		if err := tx.StageEntity("one", ent("a", "again")); core.KindOf(err) != core.KindConflict {
			t.Errorf("the same id twice in a stage: %v", err)
		}
		return tx.StageEntity("two", ent("taken", "clash"))
	}); err != nil {
		t.Fatal(err)
	}
	count := func() int {
		n := 0
		s.View(ctx, func(tx core.Tx) error {
			list, err := tx.Entities(core.EntityQuery{})
			n = len(list)
			return err
		})
		return n
	}
	if n := count(); n != 1 {
		t.Fatalf("%d entities seen before the adoption, want the 1 stored", n)
	}
	if err := update(func(tx core.Tx) error {
		_, err := tx.AdoptStaged("two", "mod")
		return err
	}); core.KindOf(err) != core.KindConflict {
		t.Fatalf("adopting an id another entity has: %v", err)
	}
	if err := update(func(tx core.Tx) error {
		n, err := tx.AdoptStaged("one", "mod")
		if err == nil && n != 2 {
			t.Errorf("adopted %d, want 2", n)
		}
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if n := count(); n != 3 {
		t.Fatalf("%d entities after the adoption, want 3", n)
	}
	s.View(ctx, func(tx core.Tx) error {
		e, err := tx.Entity("a")
		if err != nil || e.Owner != "mod" || e.Revision != 1 {
			t.Errorf("adopted entity %+v %v", e, err)
		}
		return nil
	})
	var left int
	if err := update(func(tx core.Tx) error {
		if err := tx.DropStaged(""); err != nil {
			return err
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	s.writer.QueryRow("SELECT count(*) FROM staged_entities").Scan(&left)
	if left != 0 {
		t.Fatalf("%d staged rows left after dropping every stage", left)
	}
}
