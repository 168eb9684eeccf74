package engine_test

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/core/engine"
	"github.com/vttapp/companion/core/redact"
	"github.com/vttapp/companion/core/turns"
	"github.com/vttapp/companion/dice"
	"github.com/vttapp/companion/store/sqlite"
)

// What a new game master's first session tripped on in combat and chat
// (issue 33).

// seedOrdered stores combatants as a seeded or imported game has them:
// each slot with its explicit order (1, 2, ...) and value.
func seedOrdered(t *testing.T, f *combatFixture, names []string, values []float64) []string {
	t.Helper()
	var ids []string
	err := f.svc.ChangeContent(context.Background(), func(tx core.Tx) (core.Object, error) {
		for i, name := range names {
			c := &core.Combatant{ID: "seed-" + name, Name: name, Campaign: cbCampaign, Rank: i + 1, Role: core.RoleFriendly,
				Initiative: []core.Initiative{{ID: "slot-" + name, Value: values[i], Order: i + 1}}}
			c.Normalize()
			if err := tx.PutCombatant(c); err != nil {
				return nil, err
			}
			ids = append(ids, c.ID)
		}
		return core.Object{"seeded": true}, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return ids
}

func turnNames(t *testing.T, svc *engine.Service) []string {
	t.Helper()
	view, err := svc.HostCampaign(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, s := range view.TurnOrder {
		names = append(names, s.Name)
	}
	return names
}

// A combatant added to a seeded fight (whose slots carry explicit orders)
// takes the place its initiative gives it, not the last; so does one
// whose initiative the game master sets; the acting one keeps acting.
func TestAddedCombatantTakesItsPlaceInASeededOrder(t *testing.T) {
	f := newCombatFixture(t)
	ctx := context.Background()
	ids := seedOrdered(t, f, []string{"Ilsa", "Hound", "Brannoc"}, []float64{19, 14, 7})
	if _, err := f.svc.ControlCombat(ctx, turns.CombatStart); err != nil {
		t.Fatal(err)
	}
	added, err := f.svc.AddCombatants(ctx, []core.NewCombatant{{EntityID: cbOgre}})
	if err != nil {
		t.Fatal(err)
	}
	f.roller.totals = []float64{9} // +2: 11
	if _, err := f.svc.RollInitiative(ctx, []string{added[0].ID}); err != nil {
		t.Fatal(err)
	}
	if got, want := strings.Join(turnNames(t, f.svc), ","), "Ilsa,Hound,Ogre,Brannoc"; got != want {
		t.Fatalf("turn order %s, want %s: the Ogre's 11 goes between the Hound's 14 and Brannoc's 7", got, want)
	}
	// Its place is stored: the players' initiative list (which reads the
	// slots' orders) shows it there too.
	view, _ := f.svc.HostCampaign(ctx)
	orders := map[string]int{}
	for _, c := range view.Game.Combatants {
		orders[c.Name] = c.Initiative[0].Order
	}
	if orders["Ilsa"] != 1 || orders["Hound"] != 2 || orders["Ogre"] != 3 || orders["Brannoc"] != 4 {
		t.Fatalf("stored orders %v", orders)
	}
	// The game master sets Brannoc's initiative to 20: he acts first now,
	// Ilsa still acts (turn 2).
	v := 20.0
	if _, err := f.svc.SetInitiative(ctx, ids[2], &v); err != nil {
		t.Fatal(err)
	}
	if got, want := strings.Join(turnNames(t, f.svc), ","), "Brannoc,Ilsa,Hound,Ogre"; got != want {
		t.Fatalf("after setting 20: %s, want %s", got, want)
	}
	view, _ = f.svc.HostCampaign(ctx)
	if view.Game.CombatantID != ids[0] || view.Game.Turn != 2 {
		t.Fatalf("acting %s turn %d, want Ilsa (%s) at turn 2", view.Game.CombatantID, view.Game.Turn, ids[0])
	}
}

// A token already in combat is refused (409) rather than given a second
// combatant, alone or twice in one request; nothing is added.
func TestSameTokenJoinsCombatOnce(t *testing.T) {
	f := newCombatFixture(t)
	ctx := context.Background()
	tok, err := f.svc.PlaceToken(ctx, cbMap, core.PlaceToken{EntityID: cbOgre, X: 70, Y: 70})
	if err != nil {
		t.Fatal(err)
	}
	other, err := f.svc.PlaceToken(ctx, cbMap, core.PlaceToken{EntityID: cbImp, X: 140, Y: 70})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.svc.AddCombatants(ctx, []core.NewCombatant{{TokenID: tok.ID}}); err != nil {
		t.Fatal(err)
	}
	_, err = f.svc.AddCombatants(ctx, []core.NewCombatant{{TokenID: tok.ID}})
	if core.KindOf(err) != core.KindConflict || !strings.Contains(err.Error(), "'Ogre' is in combat already") {
		t.Fatalf("adding the Ogre's token again: %v, want a conflict saying it is in combat", err)
	}
	_, err = f.svc.AddCombatants(ctx, []core.NewCombatant{{TokenID: other.ID}, {TokenID: other.ID}})
	if core.KindOf(err) != core.KindConflict {
		t.Fatalf("the Imp's token twice in one request: %v, want a conflict", err)
	}
	view, _ := f.svc.HostCampaign(ctx)
	if n := len(view.Game.Combatants); n != 1 {
		t.Fatalf("%d combatants, want the Ogre alone", n)
	}
}

// A combatant made without a maximum (seeded or imported; an SRD monster
// carries its hit points alone) takes its entity's full hit points as the
// maximum, as one added from the entity does: 10 -> 7 -> 4 is bloodied,
// healing stops at 10, not at the value before the first blow.
func TestHitPointMaximumOfAMonsterSeededWithoutOne(t *testing.T) {
	f := newCombatFixture(t)
	ctx := context.Background()
	err := f.svc.ChangeContent(ctx, func(tx core.Tx) (core.Object, error) {
		c := &core.Combatant{ID: "imp-1", Name: "Imp", Campaign: cbCampaign, Rank: 1, Role: core.RoleHostile,
			EntityID: cbImp, EntityType: "monster", Data: core.Object{"hp": 10.0}}
		c.Normalize()
		return core.Object{"seeded": true}, tx.PutCombatant(c)
	})
	if err != nil {
		t.Fatal(err)
	}
	n := func(v float64) *float64 { return &v }
	for i, s := range []struct {
		change   core.HitPointChange
		hp       float64
		bloodied bool
	}{
		{core.HitPointChange{Damage: n(3)}, 7, false},
		{core.HitPointChange{Damage: n(3)}, 4, true},
		{core.HitPointChange{Healing: n(20)}, 10, false},
	} {
		c, err := f.svc.ChangeHitPoints(ctx, "imp-1", s.change)
		if err != nil {
			t.Fatal(err)
		}
		if c.Data["hp"] != s.hp || c.Bloodied != s.bloodied || c.Data["max_hp"] != 10.0 {
			t.Fatalf("step %d: hp %v of %v bloodied %v; want %v of 10, bloodied %v", i, c.Data["hp"], c.Data["max_hp"], c.Bloodied, s.hp, s.bloodied)
		}
	}
}

// listsOf returns whether the players' payload of a gameUpdated carries
// the lists (false: the turn alone).
func gameLists(t *testing.T, events []core.Event) []bool {
	t.Helper()
	var out []bool
	for _, e := range events {
		if e.Name != core.EventGameUpdated {
			continue
		}
		p, ok := redact.PlayersPayload(e.Data)
		if !ok {
			continue
		}
		data, _ := json.Marshal(p)
		out = append(out, strings.Contains(string(data), `"creatures"`))
		if host, _ := json.Marshal(redact.HostPayload(e.Data)); !strings.Contains(string(host), `"combatants"`) {
			t.Errorf("the game master's gameUpdated lacks the lists: %s", host)
		}
	}
	return out
}

// A change to combatants that leaves the lists players receive byte for
// byte as they were carries players the turn alone (the Encounter+ web
// client rebuilds its tokens on lists and loses the acting token's ring);
// the game master gets the whole game; lists that changed go out.
func TestUnchangedListsReachPlayersAsTheTurn(t *testing.T) {
	f := newCombatFixture(t)
	ctx := context.Background()
	added, err := f.svc.AddCombatants(ctx, []core.NewCombatant{{EntityID: cbImp}}) // 10 hit points
	if err != nil {
		t.Fatal(err)
	}
	id := added[0].ID
	if got := gameLists(t, f.events.take()); len(got) != 1 || !got[0] {
		t.Fatalf("a combatant added: lists sent %v, want the lists", got)
	}
	damage := func(v float64) []bool {
		t.Helper()
		if _, err := f.svc.ChangeHitPoints(ctx, id, core.HitPointChange{Damage: &v}); err != nil {
			t.Fatal(err)
		}
		return gameLists(t, f.events.take())
	}
	// Players see a foe's health only as bloodied: 1 damage changes nothing
	// they read.
	if got := damage(1); len(got) != 1 || got[0] {
		t.Fatalf("1 damage to a foe at full health: lists sent %v, want the turn alone", got)
	}
	if got := damage(5); len(got) != 1 || !got[0] {
		t.Fatalf("bloodied: lists sent %v, want the lists", got)
	}
	if got := damage(1); len(got) != 1 || got[0] {
		t.Fatalf("1 more damage: lists sent %v, want the turn alone", got)
	}
	v := 12.0
	if _, err := f.svc.SetInitiative(ctx, id, &v); err != nil {
		t.Fatal(err)
	}
	if got := gameLists(t, f.events.take()); len(got) != 1 || !got[0] {
		t.Fatalf("initiative set: lists sent %v, want the lists", got)
	}
}

// A player's message is text: markup in it never reaches a client as
// markup (the Encounter+ client renders messages as HTML), while dice
// comparisons still roll and the rolls' places in the text stay right; the
// game master's links stay links.
func TestPlayerMarkupIsText(t *testing.T) {
	store, err := sqlite.Open(filepath.Join(t.TempDir(), "companion.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	if err := store.Update(svcCtx, func(tx core.Tx) error {
		c := &core.Campaign{ID: svcCampaign, System: "dnd5e", Name: "Demo", Primary: true}
		c.Normalize()
		return tx.PutCampaign(c)
	}); err != nil {
		t.Fatal(err)
	}
	svc := engine.NewService(engine.ServiceConfig{Store: store, Events: &svcRecorder{}, Rules: svcRules{}, Roller: dice.NewRoller()})
	player := svc.PlayerAs(core.Actor{Role: core.ClientPlayer, Name: "Ann"})

	for _, post := range []func(context.Context, *core.Message) (*core.Message, error){player.PostMessage, player.CreateMessage} {
		m, err := post(svcCtx, &core.Message{Text: `look <img src="http://tracker.example/p.png" onerror="alert(1)"> and <b>this</b> [[1d20+2]] <!-- x -->`, Source: "Ann"})
		if err != nil {
			t.Fatal(err)
		}
		wire, _ := json.Marshal(m)
		for _, tag := range []string{"<img", "<b>", "</b>", "<!--"} {
			if strings.Contains(wire2text(t, wire), tag) {
				t.Errorf("a player's message reaches clients with %q: %s", tag, wire)
			}
		}
		if !strings.HasPrefix(m.Text, "look &lt;img src=") || len(m.Rolls) != 1 || m.Rolls[0].Total == nil {
			t.Fatalf("stored %q with rolls %+v", m.Text, m.Rolls)
		}
		// The roll's place (UTF-16 start and end) is where its total stands.
		var place struct{ Start, End int }
		raw, _ := json.Marshal(m.Rolls[0])
		json.Unmarshal(raw, &place)
		units := utf16.Encode([]rune(m.Text))
		if got := string(utf16.Decode(units[place.Start:place.End])); got != formatTotal(*m.Rolls[0].Total) {
			t.Fatalf("the roll's place holds %q, want its total %v", got, *m.Rolls[0].Total)
		}
	}
	// A comparison is no markup: it rolls.
	m, err := player.PostMessage(svcCtx, &core.Message{Text: "/r 4d6>3", Source: "Ann"})
	if err != nil || len(m.Rolls) != 1 || m.Rolls[0].Error != "" {
		t.Fatalf("/r 4d6>3: %v %+v", err, m)
	}
	// The game master's link is a link.
	m, err = svc.CreateMessage(svcCtx, &core.Message{Text: `The <a href="/monster/goblin">goblin</a> waits.`})
	if err != nil || !strings.Contains(m.Text, `<a href="/monster/goblin">`) {
		t.Fatalf("the game master's link: %v %q", err, m.Text)
	}
}

// wire2text is a message's JSON with its strings decoded, so that an
// escaped "\u003c" counts as the "<" a client reads.
func wire2text(t *testing.T, wire []byte) string {
	t.Helper()
	var v map[string]any
	if err := json.Unmarshal(wire, &v); err != nil {
		t.Fatal(err)
	}
	return v["text"].(string) + "\n" + strings.Join(contentStrings(v["content"]), "\n")
}

func contentStrings(v any) []string {
	switch x := v.(type) {
	case string:
		return []string{x}
	case map[string]any:
		var out []string
		for _, y := range x {
			out = append(out, contentStrings(y)...)
		}
		return out
	}
	return nil
}

func formatTotal(v float64) string {
	data, _ := json.Marshal(v)
	return string(data)
}
