package sqlite

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/vttapp/companion/core"
)

func TestEntityRoundTripKeepsEverything(t *testing.T) {
	s := newStore(t)
	e := testEntity("e1", "monster", "Goblin", "m1")
	e.Data = core.Object{
		"hp":        core.Object{"value": 7.0, "max": 7.0},
		"actions":   []any{core.Object{"name": "Scimitar", "attack": "+4"}},
		"unicode":   "Gobelin — é",
		"nothing":   nil,
		"flag":      true,
		"bigNumber": 1234567890123.0,
	}
	e.Attributes = core.Object{"challenge": 0.25, "tags": []any{"humanoid"}}
	e.Modifiers = []core.Modifier{{ID: "mod1", Enabled: true, Attribute: "ac", Value: "+1"}}
	e.Sources = []core.Source{{Name: "SRD", Page: 166}}
	e.Tags = []string{"goblinoid"}
	e.Meta = core.Object{"imported": "2026"}
	e.Combatant = &core.Combatant{ID: "k", Initiative: []core.Initiative{}, Attributes: core.Object{}}
	put(t, s, e)

	view(t, s, func(tx core.Tx) error {
		got, err := tx.Entity("e1")
		if err != nil {
			return err
		}
		if got.Owner != "m1" || got.Revision != 1 {
			t.Fatalf("columns not restored: owner %q revision %d", got.Owner, got.Revision)
		}
		if !got.Created.Equal(e.Created) || !got.Modified.Equal(e.Modified) {
			t.Fatalf("times %v %v, want %v", got.Created, got.Modified, e.Created)
		}
		got.Created, got.Modified = e.Created, e.Modified
		if !reflect.DeepEqual(got, e) {
			a, _ := json.Marshal(got)
			b, _ := json.Marshal(e)
			t.Fatalf("read  %s\nwant %s", a, b)
		}
		return nil
	})
}

func TestEntityNotFound(t *testing.T) {
	s := newStore(t)
	put(t, s, testEntity("e1", "monster", "Goblin", ""))
	view(t, s, func(tx core.Tx) error {
		_, err := tx.Entity("x")
		wantNotFound(t, err, "no entity with id 'x'")
		_, err = tx.EntityBySlug("spell", "goblin")
		wantNotFound(t, err, "no spell with slug 'goblin'")
		_, err = tx.EntityBySlug("", "orc")
		wantNotFound(t, err, "no entity with slug 'orc'")
		return nil
	})
	err := s.Update(bg, func(tx core.Tx) error { return tx.DeleteEntity("x") })
	wantNotFound(t, err, "no entity with id 'x'")
}

func TestEntityRevisionCountsWrites(t *testing.T) {
	s := newStore(t)
	e := testEntity("e1", "monster", "Goblin", "")
	e.Revision = 41 // what the caller holds does not matter: the store counts
	put(t, s, e)
	if e.Revision != 1 {
		t.Fatalf("first write set Revision %d, want 1", e.Revision)
	}
	update(t, s, func(tx core.Tx) error {
		for i := 0; i < 3; i++ {
			if err := tx.PutEntity(e); err != nil {
				return err
			}
		}
		return nil
	})
	if e.Revision != 4 {
		t.Fatalf("fourth write set Revision %d, want 4", e.Revision)
	}
	view(t, s, func(tx core.Tx) error {
		got, err := tx.Entity("e1")
		if err == nil && got.Revision != 4 {
			t.Fatalf("stored revision %d, want 4", got.Revision)
		}
		return err
	})
	// A rolled-back write does not count.
	s.Update(bg, func(tx core.Tx) error {
		tx.PutEntity(e)
		return core.Conflictf("no")
	})
	view(t, s, func(tx core.Tx) error {
		got, err := tx.Entity("e1")
		if err == nil && got.Revision != 4 {
			t.Fatalf("revision %d after a rolled-back write, want 4", got.Revision)
		}
		return err
	})
	// Deleting and re-creating starts again at 1.
	update(t, s, func(tx core.Tx) error { return tx.DeleteEntity("e1") })
	put(t, s, e)
	if e.Revision != 1 {
		t.Fatalf("re-created entity has Revision %d, want 1", e.Revision)
	}
}

func TestEntityBySlug(t *testing.T) {
	s := newStore(t)
	goblin := testEntity("e2", "monster", "Goblin", "m1")
	goblinAgain := testEntity("e1", "monster", "Goblin", "m2") // same slug, another module
	spell := testEntity("e3", "spell", "Goblin", "m1")
	put(t, s, goblin, goblinAgain, spell)
	view(t, s, func(tx core.Tx) error {
		got, err := tx.EntityBySlug("monster", "goblin")
		if err != nil {
			return err
		}
		if got.ID != "e1" || got.Owner != "m2" || got.Revision != 1 {
			t.Fatalf("EntityBySlug(monster, goblin) = %s owned by %s, want e1 (smallest id) owned by m2", got.ID, got.Owner)
		}
		got, err = tx.EntityBySlug("spell", "goblin")
		if err != nil {
			return err
		}
		if got.ID != "e3" {
			t.Fatalf("EntityBySlug(spell, goblin) = %s, want e3", got.ID)
		}
		got, err = tx.EntityBySlug("", "goblin")
		if err != nil {
			return err
		}
		if got.ID != "e1" {
			t.Fatalf("EntityBySlug(any kind, goblin) = %s, want e1", got.ID)
		}
		return nil
	})
}

func TestEntitiesFilterAndOrder(t *testing.T) {
	s := newStore(t)
	zed := testEntity("z", "monster", "Zombie", "m1")
	b := testEntity("b", "monster", "aboleth", "m1") // lower case sorts with A
	a := testEntity("a", "monster", "Aboleth", "m2")
	spell := testEntity("s", "spell", "Bless", "m1")
	other := testEntity("o", "monster", "Owlbear", "m1")
	other.System = "pf2e"
	put(t, s, zed, b, a, spell, other)

	cases := []struct {
		q    core.EntityQuery
		want []string
	}{
		{core.EntityQuery{}, []string{"a", "b", "s", "o", "z"}},
		{core.EntityQuery{Kind: "monster"}, []string{"a", "b", "o", "z"}},
		{core.EntityQuery{Owner: "m1"}, []string{"b", "s", "o", "z"}},
		{core.EntityQuery{System: "dnd5e"}, []string{"a", "b", "s", "z"}},
		{core.EntityQuery{Kind: "monster", Owner: "m1", System: "dnd5e"}, []string{"b", "z"}},
		{core.EntityQuery{Kind: "item"}, []string{}},
	}
	view(t, s, func(tx core.Tx) error {
		for _, c := range cases {
			list, err := tx.Entities(c.q)
			if err != nil {
				return err
			}
			got := []string{}
			for _, e := range list {
				got = append(got, e.ID)
				if e.Revision != 1 || e.Owner == "" {
					t.Fatalf("Entities(%+v): %s lost its columns (owner %q, revision %d)", c.q, e.ID, e.Owner, e.Revision)
				}
			}
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("Entities(%+v) = %v, want %v", c.q, got, c.want)
			}
			if list == nil {
				t.Errorf("Entities(%+v) returned nil, want an empty slice", c.q)
			}
		}
		return nil
	})
}

func TestPutEntityMovesOwnerAndKind(t *testing.T) {
	s := newStore(t)
	e := testEntity("e1", "monster", "Goblin", "m1")
	put(t, s, e)
	e.Owner, e.Kind, e.Slug = "c1", "npc", "gob"
	put(t, s, e)
	view(t, s, func(tx core.Tx) error {
		if list, _ := tx.Entities(core.EntityQuery{Owner: "m1"}); len(list) != 0 {
			t.Fatalf("the old owner still lists %d entities", len(list))
		}
		if list, _ := tx.Entities(core.EntityQuery{Owner: "c1", Kind: "npc"}); len(list) != 1 {
			t.Fatalf("the new owner lists %d entities, want 1", len(list))
		}
		if _, err := tx.EntityBySlug("npc", "gob"); err != nil {
			t.Fatalf("slug column not updated: %v", err)
		}
		return nil
	})
}

func TestDeleteEntity(t *testing.T) {
	s := newStore(t)
	put(t, s, testEntity("e1", "monster", "Goblin", ""), testEntity("e2", "monster", "Orc", ""))
	update(t, s, func(tx core.Tx) error { return tx.DeleteEntity("e1") })
	view(t, s, func(tx core.Tx) error {
		_, err := tx.Entity("e1")
		wantNotFound(t, err)
		_, err = tx.Entity("e2")
		return err
	})
}
