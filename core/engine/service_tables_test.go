package engine_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/internal/testkit"
)

// The game master's tables: stored in the campaign, rolled from the chat
// (/table, private by default; /table public for everyone) and from the
// service, a noRepeat table's history kept in the campaign across rolls;
// a player cannot roll one nor read its rows through the chat.
func TestTablesRollFromTheChat(t *testing.T) {
	g := newSeatGame(t)
	ctx := context.Background()
	frames := &messageFrames{}
	frames.watch(g.bus)
	ann := g.take(t, testkit.HeroID, "Ann")
	if _, err := g.svc.PutTable(ctx, &core.Table{Name: "Wilderness Encounters", Columns: []core.TableColumn{{Name: "d20"}, {Name: "Encounter"}},
		Rows: core.TableRows{{"1-10", "wolves"}, {"11-20", "a lost [merchant](/table/merchants)"}}}, ""); err != nil {
		t.Fatal(err)
	}
	if _, err := g.svc.PutTable(ctx, &core.Table{Name: "Merchants", RollMode: core.RollNoRepeat, Columns: []core.TableColumn{{Name: "Who"}},
		Rows: core.TableRows{{"Odo"}, {"Pia"}, {"Rask"}}}, ""); err != nil {
		t.Fatal(err)
	}
	if _, err := g.svc.PutTable(ctx, &core.Table{Name: "merchants"}, ""); core.KindOf(err) != core.KindInvalid {
		t.Fatalf("a table without columns: %v", err)
	}
	if _, err := g.svc.PutTable(ctx, &core.Table{Name: "Merchants", Columns: []core.TableColumn{{Name: "x"}}, Rows: core.TableRows{{"y"}}}, ""); core.KindOf(err) != core.KindConflict {
		t.Fatalf("a second table of the same slug: %v", err)
	}
	frames.take()

	g.faces.next = []int{15, 1} // d20 15: the merchant; then the merchant's d3
	m, err := g.svc.PostMessage(ctx, &core.Message{Text: "/table wilderness encounters"})
	if err != nil {
		t.Fatal(err)
	}
	var roll core.TableRoll
	if err := json.Unmarshal([]byte(m.Text), &roll); err != nil {
		t.Fatal(err)
	}
	if m.Type != core.MessageTableRoll || !m.Private || roll.Name != "Wilderness Encounters" || roll.Result != 15 || roll.Formula != "1d20" ||
		len(roll.Details) != 1 || len(roll.Details[0].Rolls) != 1 || roll.Details[0].Rolls[0].Details[0].Value != "Odo" {
		t.Fatalf("the roll: %+v %+v", m, roll)
	}
	if got := frames.take(); len(got) != 1 || got[0].players {
		t.Fatalf("a private table roll reached players: %+v", got)
	}
	// noRepeat across rolls: the merchants' d3 gives 1 again, the table another.
	seen := map[string]bool{"Odo": true}
	for range 2 {
		g.faces.next = []int{1, 1}
		rolled, err := g.svc.RollTable(ctx, "merchants", false)
		if err != nil {
			t.Fatal(err)
		}
		who := rolled.Roll.Details[0].Value
		if seen[who] {
			t.Fatalf("%s came twice before every merchant did", who)
		}
		seen[who] = true
	}
	if got := frames.take(); len(got) != 2 || !got[0].players || got[0].seats != nil {
		t.Fatalf("a public table roll: %+v", got)
	}
	m, err = g.svc.PostMessage(ctx, &core.Message{Text: "/table public merchants"})
	if err != nil || m.Private {
		t.Fatalf("/table public: %v %+v", err, m)
	}
	if _, err := g.svc.PlayerAs(ann).PostMessage(ctx, &core.Message{Text: "/table merchants"}); core.KindOf(err) != core.KindForbidden {
		t.Fatalf("a player rolled a table: %v", err)
	}
	if _, err := g.svc.PostMessage(ctx, &core.Message{Text: "/table nothing like it"}); core.KindOf(err) != core.KindNotFound {
		t.Fatalf("/table of no table: %v", err)
	}
}
