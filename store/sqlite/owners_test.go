package sqlite

import (
	"reflect"
	"testing"

	"github.com/vttapp/companion/core"
)

func TestModuleRoundTrip(t *testing.T) {
	s := newStore(t)
	m := testModule("m1")
	m.Descr = "Monsters of the SRD"
	m.Data = core.Object{"nested": core.Object{"list": []any{1.0, "two", true}}}
	m.Attributes = core.Object{"color": "red"}
	put(t, s, m)
	view(t, s, func(tx core.Tx) error {
		got, err := tx.Module("m1")
		if err != nil {
			return err
		}
		if !reflect.DeepEqual(got, m) {
			t.Fatalf("read %+v\nwant %+v", got, m)
		}
		return nil
	})
}

func TestModuleNotFound(t *testing.T) {
	s := newStore(t)
	view(t, s, func(tx core.Tx) error {
		_, err := tx.Module("nope")
		wantNotFound(t, err, "no module with id 'nope'")
		return nil
	})
	err := s.Update(bg, func(tx core.Tx) error { return tx.DeleteModule("nope") })
	wantNotFound(t, err, "no module with id 'nope'")
}

func TestModulesOrderedByNameThenID(t *testing.T) {
	s := newStore(t)
	b, a2, a1, lower := testModule("b"), testModule("a2"), testModule("a1"), testModule("c")
	b.Name, a2.Name, a1.Name, lower.Name = "Beta", "Alpha", "Alpha", "alpha"
	put(t, s, b, a2, lower, a1)
	view(t, s, func(tx core.Tx) error {
		list, err := tx.Modules()
		if err != nil {
			return err
		}
		if got, want := moduleIDs(list), []string{"a1", "a2", "c", "b"}; !reflect.DeepEqual(got, want) {
			t.Fatalf("Modules order %v, want %v (name ignoring case, then id)", got, want)
		}
		return nil
	})
}

func TestModulesEmptyIsEmptySlice(t *testing.T) {
	s := newStore(t)
	view(t, s, func(tx core.Tx) error {
		list, err := tx.Modules()
		if err != nil || list == nil || len(list) != 0 {
			t.Fatalf("Modules on an empty store = %#v, %v; want an empty non-nil slice", list, err)
		}
		return nil
	})
}

func TestPutModuleReplaces(t *testing.T) {
	s := newStore(t)
	m := testModule("m1")
	put(t, s, m)
	m.Name = "Renamed"
	put(t, s, m)
	view(t, s, func(tx core.Tx) error {
		got, err := tx.Module("m1")
		if err != nil {
			return err
		}
		if got.Name != "Renamed" {
			t.Fatalf("name %q after replace", got.Name)
		}
		list, _ := tx.Modules()
		if len(list) != 1 {
			t.Fatalf("%d modules after replacing one", len(list))
		}
		return nil
	})
	var revision int
	s.writer.QueryRow("SELECT revision FROM modules WHERE id = 'm1'").Scan(&revision)
	if revision != 2 {
		t.Fatalf("module row revision %d after two writes, want 2", revision)
	}
}

func TestPutRejectsMissingIDAndNil(t *testing.T) {
	s := newStore(t)
	cases := map[string]func(tx core.Tx) error{
		"module id":    func(tx core.Tx) error { return tx.PutModule(&core.Module{Name: "x"}) },
		"module nil":   func(tx core.Tx) error { return tx.PutModule(nil) },
		"campaign id":  func(tx core.Tx) error { return tx.PutCampaign(&core.Campaign{Name: "x"}) },
		"campaign nil": func(tx core.Tx) error { return tx.PutCampaign(nil) },
		"entity id":    func(tx core.Tx) error { return tx.PutEntity(&core.Entity{Name: "x"}) },
		"entity nil":   func(tx core.Tx) error { return tx.PutEntity(nil) },
		"combatant id": func(tx core.Tx) error { return tx.PutCombatant(&core.Combatant{Campaign: "c"}) },
		"map id":       func(tx core.Tx) error { return tx.PutMap(&core.Map{Name: "x"}) },
		"token id":     func(tx core.Tx) error { return tx.PutToken(&core.Token{MapID: "m"}) },
		"message nil":  func(tx core.Tx) error { return tx.AddMessage(nil) },
		"game nil":     func(tx core.Tx) error { return tx.PutGame("c", nil) },
		"screen nil":   func(tx core.Tx) error { return tx.PutScreen("c", nil) },
	}
	for name, fn := range cases {
		err := s.Update(bg, fn)
		if core.KindOf(err) != core.KindInvalid {
			t.Errorf("%s: got %v, want an invalid error", name, err)
		}
	}
}

func TestPutRejectsValuesJSONCannotHold(t *testing.T) {
	s := newStore(t)
	e := testEntity("e1", "monster", "Goblin", "")
	e.Data["broken"] = make(chan int)
	err := s.Update(bg, func(tx core.Tx) error { return tx.PutEntity(e) })
	wantKind(t, err, core.KindInvalid, "entity 'e1' cannot be stored")
}

func TestCampaignRoundTripKeepsPrimary(t *testing.T) {
	s := newStore(t)
	c := testCampaign("c1")
	c.Primary = true
	c.References = []string{"m1"}
	c.Data = core.Object{"party": []any{"Ann", "Bo"}}
	put(t, s, c)
	view(t, s, func(tx core.Tx) error {
		got, err := tx.Campaign("c1")
		if err != nil {
			return err
		}
		if !reflect.DeepEqual(got, c) {
			t.Fatalf("read %+v\nwant %+v", got, c)
		}
		_, err = tx.Campaign("nope")
		wantNotFound(t, err, "no campaign with id 'nope'")
		return nil
	})
}

func TestPrimaryCampaignIsUniquePerSystem(t *testing.T) {
	s := newStore(t)
	c1, c2, other := testCampaign("c1"), testCampaign("c2"), testCampaign("c3")
	other.System = "pf2e"
	c1.Primary, other.Primary = true, true
	put(t, s, c1, c2, other)

	primaryOf := func(system string) string {
		var id string
		view(t, s, func(tx core.Tx) error {
			c, err := tx.PrimaryCampaign(system)
			if err != nil {
				return err
			}
			if !c.Primary {
				t.Fatalf("PrimaryCampaign returned %s with Primary false", c.ID)
			}
			id = c.ID
			return nil
		})
		return id
	}
	if got := primaryOf("dnd5e"); got != "c1" {
		t.Fatalf("primary of dnd5e is %s, want c1", got)
	}
	c2.Primary = true
	put(t, s, c2)
	if got := primaryOf("dnd5e"); got != "c2" {
		t.Fatalf("primary of dnd5e is %s after promoting c2", got)
	}
	if got := primaryOf("pf2e"); got != "c3" {
		t.Fatalf("another system's primary changed: %s", got)
	}
	view(t, s, func(tx core.Tx) error {
		list, err := tx.Campaigns()
		if err != nil {
			return err
		}
		primaries := map[string]bool{}
		for _, c := range list {
			primaries[c.ID] = c.Primary
		}
		if want := map[string]bool{"c1": false, "c2": true, "c3": true}; !reflect.DeepEqual(primaries, want) {
			t.Fatalf("Campaigns primaries %v, want %v", primaries, want)
		}
		_, err = tx.PrimaryCampaign("none")
		wantNotFound(t, err, "no primary campaign for system 'none'")
		return nil
	})
	// The schema itself refuses two primaries of one system.
	if _, err := s.writer.Exec("UPDATE campaigns SET is_primary = 1 WHERE id = 'c1'"); err == nil {
		t.Fatal("the database accepted a second primary campaign")
	}
	// Storing the primary again keeps it primary.
	put(t, s, c2)
	if got := primaryOf("dnd5e"); got != "c2" {
		t.Fatalf("primary of dnd5e is %s after re-storing c2", got)
	}
}

func TestDeleteCampaignNotFound(t *testing.T) {
	s := newStore(t)
	err := s.Update(bg, func(tx core.Tx) error { return tx.DeleteCampaign("nope") })
	wantNotFound(t, err, "no campaign with id 'nope'")
}

func moduleIDs(list []*core.Module) []string {
	out := []string{}
	for _, m := range list {
		out = append(out, m.ID)
	}
	return out
}
