package sqlite

import (
	"testing"

	"github.com/vttapp/companion/core"
)

// fillOwner stores, under owner (a module or campaign) and with ids prefixed
// by it, two entities and two maps with tokens; for a campaign also its
// game, screen, combatants and messages.
func fillOwner(t *testing.T, s *Store, owner string, campaign bool) {
	t.Helper()
	objects := []any{
		testEntity(owner+"-e1", "monster", "Goblin", owner),
		testEntity(owner+"-e2", "spell", "Bless", owner),
		testMap(owner+"-map1", owner, owner+"-t1", owner+"-t2"),
		testMap(owner+"-map2", owner, owner+"-t3"),
		&core.Page{ID: owner + "-page1", Name: "Intro", Slug: "intro", Format: "html", Content: "<p>hi</p>", Owner: owner},
		&core.Encounter{ID: owner + "-enc1", Name: "Ambush", Slug: "ambush", Combatants: []core.EncounterCreature{}, Owner: owner},
		&core.Group{ID: owner + "-grp1", Name: "Chapter 1", Slug: "chapter-1", Owner: owner},
		&core.Asset{ID: owner + "-asset1", Name: "Tent", Slug: "tent", Owner: owner},
	}
	if campaign {
		objects = append(objects,
			testCombatant(owner+"-k1", owner, owner+"-e1", 1),
			testCombatant(owner+"-k2", owner, "", 2),
			testMessage(owner+"-msg1", owner, "hello"),
			testMessage(owner+"-msg2", owner, "again"))
	}
	put(t, s, objects...)
	if campaign {
		update(t, s, func(tx core.Tx) error {
			if err := tx.PutGame(owner, &core.Game{Started: true, Round: 2, Turn: 1}); err != nil {
				return err
			}
			if err := tx.PutScreen(owner, &core.Screen{Fog: true}); err != nil {
				return err
			}
			return tx.AddPageShow(owner, owner+"-page1", "")
		})
	}
}

// rowsOf counts, table by table, the rows that belong to owner.
func rowsOf(t *testing.T, s *Store, owner string) map[string]int {
	t.Helper()
	counts := map[string]int{}
	for table, where := range map[string]string{
		"modules":        "id = ?",
		"campaigns":      "id = ?",
		"entities":       "owner = ?",
		"maps":           "owner = ?",
		"tokens":         "id LIKE ? || '-%'",
		"combatants":     "campaign = ?",
		"messages":       "campaign = ?",
		"games":          "campaign = ?",
		"screens":        "campaign = ?",
		"pages":          "owner = ?",
		"encounters":     "owner = ?",
		"library_groups": "owner = ?",
		"assets":         "owner = ?",
		"page_shows":     "campaign = ?",
	} {
		var n int
		if err := s.writer.QueryRow("SELECT count(*) FROM "+table+" WHERE "+where, owner).Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n > 0 {
			counts[table] = n
		}
	}
	return counts
}

// checkNoOrphans fails when a row points at a parent that is gone.
func checkNoOrphans(t *testing.T, s *Store) {
	t.Helper()
	rows, err := s.writer.Query("PRAGMA foreign_key_check")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	if rows.Next() {
		t.Fatal("PRAGMA foreign_key_check reports rows whose parent is gone")
	}
	var n int
	s.writer.QueryRow(`SELECT count(*) FROM entities WHERE owner <> '' AND owner NOT IN
		(SELECT id FROM modules UNION SELECT id FROM campaigns)`).Scan(&n)
	if n > 0 {
		t.Fatalf("%d entities outlived their owner", n)
	}
	s.writer.QueryRow(`SELECT count(*) FROM maps WHERE owner <> '' AND owner NOT IN
		(SELECT id FROM modules UNION SELECT id FROM campaigns)`).Scan(&n)
	if n > 0 {
		t.Fatalf("%d maps outlived their owner", n)
	}
}

func TestDeleteModuleDeletesWhatItOwns(t *testing.T) {
	s := newStore(t)
	put(t, s, testModule("m1"), testModule("m2"), testCampaign("c1"))
	fillOwner(t, s, "m1", false)
	fillOwner(t, s, "m2", false)
	fillOwner(t, s, "c1", true)
	keptM2, keptC1 := rowsOf(t, s, "m2"), rowsOf(t, s, "c1")
	if want := 1 + 2 + 2 + 3 + 4; sum(rowsOf(t, s, "m1")) != want {
		t.Fatalf("fixture: m1 owns %v, want %d rows", rowsOf(t, s, "m1"), want)
	}

	update(t, s, func(tx core.Tx) error { return tx.DeleteModule("m1") })

	if left := rowsOf(t, s, "m1"); len(left) != 0 {
		t.Fatalf("rows of m1 left after DeleteModule: %v", left)
	}
	if got := rowsOf(t, s, "m2"); !equalCounts(got, keptM2) {
		t.Fatalf("m2 changed: %v, want %v", got, keptM2)
	}
	if got := rowsOf(t, s, "c1"); !equalCounts(got, keptC1) {
		t.Fatalf("c1 changed: %v, want %v", got, keptC1)
	}
	checkNoOrphans(t, s)
	view(t, s, func(tx core.Tx) error {
		_, err := tx.Entity("m1-e1")
		wantNotFound(t, err)
		_, err = tx.Token("m1-t1")
		wantNotFound(t, err)
		return nil
	})
}

func TestDeleteCampaignDeletesWhatItOwns(t *testing.T) {
	s := newStore(t)
	c1 := testCampaign("c1")
	c1.Primary = true
	put(t, s, c1, testCampaign("c2"), testModule("m1"))
	fillOwner(t, s, "c1", true)
	fillOwner(t, s, "c2", true)
	fillOwner(t, s, "m1", false)
	keptC2, keptM1 := rowsOf(t, s, "c2"), rowsOf(t, s, "m1")
	if want := 1 + 2 + 2 + 3 + 2 + 2 + 1 + 1 + 4 + 1; sum(rowsOf(t, s, "c1")) != want {
		t.Fatalf("fixture: c1 owns %v, want %d rows", rowsOf(t, s, "c1"), want)
	}

	update(t, s, func(tx core.Tx) error { return tx.DeleteCampaign("c1") })

	if left := rowsOf(t, s, "c1"); len(left) != 0 {
		t.Fatalf("rows of c1 left after DeleteCampaign: %v", left)
	}
	if got := rowsOf(t, s, "c2"); !equalCounts(got, keptC2) {
		t.Fatalf("c2 changed: %v, want %v", got, keptC2)
	}
	if got := rowsOf(t, s, "m1"); !equalCounts(got, keptM1) {
		t.Fatalf("m1 changed: %v, want %v", got, keptM1)
	}
	checkNoOrphans(t, s)
	view(t, s, func(tx core.Tx) error {
		_, err := tx.PrimaryCampaign("dnd5e")
		wantNotFound(t, err)
		return nil
	})
}

func TestDeleteRolledBackKeepsEverything(t *testing.T) {
	s := newStore(t)
	put(t, s, testCampaign("c1"))
	fillOwner(t, s, "c1", true)
	before := rowsOf(t, s, "c1")
	s.Update(bg, func(tx core.Tx) error {
		if err := tx.DeleteCampaign("c1"); err != nil {
			t.Fatal(err)
		}
		return core.Conflictf("changed my mind")
	})
	if got := rowsOf(t, s, "c1"); !equalCounts(got, before) {
		t.Fatalf("after a rolled-back delete: %v, want %v", got, before)
	}
}

func sum(counts map[string]int) int {
	n := 0
	for _, c := range counts {
		n += c
	}
	return n
}

func equalCounts(a, b map[string]int) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}
