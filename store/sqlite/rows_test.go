package sqlite

import (
	"strings"
	"testing"

	"github.com/vttapp/companion/core"
)

// Every list read goes through queryAll: a damaged document in any table
// is an internal error that names the object, never a panic or a short
// list, and the rows come back in the query's order.
func TestListsReportADamagedDocument(t *testing.T) {
	s := newStore(t)
	update(t, s, func(tx core.Tx) error {
		for _, id := range []string{"m2", "m1"} {
			if err := tx.PutModule(&core.Module{ID: id, Name: "Module " + id}); err != nil {
				return err
			}
		}
		if err := tx.PutCampaign(&core.Campaign{ID: "c1", Name: "Camp", System: "dnd5e"}); err != nil {
			return err
		}
		if err := tx.PutEntity(&core.Entity{ID: "e1", Kind: "monster", Name: "Goblin"}); err != nil {
			return err
		}
		if err := tx.PutMap(&core.Map{ID: "map1", Name: "Cave", Tokens: []*core.Token{{ID: "t1", Name: "T"}}}); err != nil {
			return err
		}
		if err := tx.PutCombatant(&core.Combatant{ID: "b1", Name: "B", Campaign: "c1"}); err != nil {
			return err
		}
		return tx.AddMessage(&core.Message{ID: "msg1", Campaign: "c1", Text: "hi"})
	})
	view(t, s, func(tx core.Tx) error {
		list, err := tx.Modules()
		if err != nil || len(list) != 2 || list[0].ID != "m1" || list[1].ID != "m2" {
			t.Fatalf("Modules = %v, %v; want m1 then m2", list, err)
		}
		return nil
	})
	reads := []struct {
		table, id string
		read      func(tx core.Tx) error
	}{
		{"modules", "m1", func(tx core.Tx) error { _, err := tx.Modules(); return err }},
		{"campaigns", "c1", func(tx core.Tx) error { _, err := tx.Campaigns(); return err }},
		{"entities", "e1", func(tx core.Tx) error { _, err := tx.Entities(core.EntityQuery{}); return err }},
		{"maps", "map1", func(tx core.Tx) error { _, err := tx.Maps(""); return err }},
		{"tokens", "t1", func(tx core.Tx) error { _, err := tx.Tokens("map1"); return err }},
		{"combatants", "b1", func(tx core.Tx) error { _, err := tx.Combatants("c1"); return err }},
		{"messages", "msg1", func(tx core.Tx) error { _, err := tx.RecentMessages("c1", 10); return err }},
	}
	for _, r := range reads {
		if _, err := s.writer.Exec("UPDATE "+r.table+" SET doc = '{not json' WHERE id = ?", r.id); err != nil {
			t.Fatalf("damage %s: %v", r.table, err)
		}
		err := s.View(bg, r.read)
		var cause string
		if e, ok := err.(*core.Error); ok && e.Err != nil {
			cause = e.Err.Error()
		}
		if core.KindOf(err) != core.KindInternal || !strings.Contains(cause, r.id+" is damaged") {
			t.Errorf("list of %s with a damaged document: %v (%s)", r.table, err, cause)
		}
	}
}
