package engine_test

import (
	"context"
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/core/engine"
	"github.com/vttapp/companion/core/redact"
	"github.com/vttapp/companion/core/turns"
	"github.com/vttapp/companion/store/sqlite"
)

// combatRules is a system with monsters and unique characters keeping
// "hp" in step, a token hook and an initiative hook (bonus 2, the
// creature's "dex" as tie-break), rolling "1d20".
type combatRules struct{}

func (combatRules) SystemID() string            { return "test" }
func (combatRules) IsUnique(kind string) bool   { return kind == "character" }
func (combatRules) Ranges(kind string) []string { return []string{"hp"} }

func (combatRules) TokenFor(_ context.Context, e *core.Entity) (*core.TokenTemplate, error) {
	return &core.TokenTemplate{Width: 2, Height: 2, Role: core.RoleHostile,
		Vision: &core.Vision{Dark: true, DarkRadiusMax: 60}}, nil
}

func (combatRules) InitiativeFor(_ context.Context, e *core.Entity) (*core.InitiativeRule, error) {
	rule := &core.InitiativeRule{Formula: "1d20", Bonus: 2}
	if e != nil {
		rule.Tiebreak, _ = e.Data["dex"].(float64)
	}
	return rule, nil
}

// seqRoller rolls the next of its totals (and 10 when they run out).
type seqRoller struct{ totals []float64 }

func (r *seqRoller) Total(string) (float64, error) {
	if len(r.totals) == 0 {
		return 10, nil
	}
	v := r.totals[0]
	r.totals = r.totals[1:]
	return v, nil
}

const (
	cbCampaign = "cb-camp"
	cbMap      = "cb-map"
	cbOgre     = "cb-ogre"
	cbImp      = "cb-imp"
)

type combatFixture struct {
	svc    *engine.Service
	events *liveRecorder
	roller *seqRoller
}

func newCombatFixture(t testing.TB) *combatFixture {
	t.Helper()
	st, err := sqlite.Open(filepath.Join(t.TempDir(), "companion.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	f := &combatFixture{events: &liveRecorder{}, roller: &seqRoller{}}
	bus := core.NewBus()
	bus.Subscribe(f.events.record)
	f.svc = engine.NewService(engine.ServiceConfig{Store: st, Events: bus, Rules: combatRules{}, Roller: roller{f.roller}})
	err = st.Update(context.Background(), func(tx core.Tx) error {
		if err := tx.PutCampaign(&core.Campaign{ID: cbCampaign, Name: "C", Slug: "c", System: "test", Primary: true,
			Tags: []string{}, References: []string{}, Attributes: core.Object{}}); err != nil {
			return err
		}
		m := &core.Map{ID: cbMap, Name: "Cave", Owner: cbCampaign, Width: 700, Height: 350, GridSize: 70}
		m.Normalize()
		if err := tx.PutMap(m); err != nil {
			return err
		}
		for _, e := range []*core.Entity{
			{ID: cbOgre, Kind: "monster", System: "test", Name: "Ogre", Slug: "ogre", Image: "/ogre.png", Data: core.Object{"hp": 7.0, "dex": 8.0}},
			{ID: cbImp, Kind: "monster", System: "test", Name: "Imp", Slug: "imp", Data: core.Object{"hp": 10.0, "dex": 17.0}},
		} {
			e.Normalize(e.Created)
			if err := tx.PutEntity(e); err != nil {
				return err
			}
		}
		return tx.PutScreen(cbCampaign, &core.Screen{MapID: cbMap})
	})
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// roller adapts seqRoller to core.Roller (RollText's signature).
type roller struct{ *seqRoller }

func (r roller) RollText(text string) (string, []json.RawMessage, bool, error) {
	return text, nil, false, nil
}

func TestPlaceTokenTakesTheSystemsShape(t *testing.T) {
	f := newCombatFixture(t)
	ctx := context.Background()
	tok, err := f.svc.PlaceToken(ctx, cbMap, core.PlaceToken{Reference: "/monster/ogre", X: 140, Y: 70, Hidden: true})
	if err != nil {
		t.Fatal(err)
	}
	if tok.Width != 2 || tok.Height != 2 || tok.Name != "Ogre" || tok.Reference != "/monster/ogre" || !tok.Hidden ||
		tok.Image == nil || *tok.Image != "/ogre.png" || tok.EntityID == nil || *tok.EntityID != cbOgre ||
		tok.Vision == nil || tok.Vision.DarkRadiusMax != 60 || tok.Vision.ID == "" {
		t.Fatalf("placed token = %+v", tok)
	}
	if names := eventNames(f.events.take()); !slices.Equal(names, []string{core.EventTokenUpdated}) {
		t.Fatalf("events %v", names)
	}
	for _, bad := range []core.PlaceToken{{}, {Reference: "ogre"}, {Reference: "/monster/nobody"}, {EntityID: "nope"}} {
		if _, err := f.svc.PlaceToken(ctx, cbMap, bad); err == nil {
			t.Errorf("PlaceToken(%+v) succeeded", bad)
		}
	}
	if _, err := f.svc.PlaceToken(ctx, "no-map", core.PlaceToken{EntityID: cbOgre}); !core.IsNotFound(err) {
		t.Fatalf("unknown map: %v", err)
	}

	// Deleting it tells the host and, the map being on screen, players.
	if err := f.svc.DeleteToken(ctx, tok.ID); err != nil {
		t.Fatal(err)
	}
	events := f.events.take()
	v, ok := events[0].Data.(redact.Views)
	if len(events) != 1 || events[0].Name != core.EventTokensUpdated || !ok || v.Players == nil || v.Host == nil {
		t.Fatalf("delete events %+v", events)
	}
	if _, err := f.svc.Token(ctx, tok.ID); !core.IsNotFound(err) {
		t.Fatalf("token still there: %v", err)
	}
}

func TestHitPointsDamageHealingAndTemporary(t *testing.T) {
	f := newCombatFixture(t)
	ctx := context.Background()
	tok, err := f.svc.PlaceToken(ctx, cbMap, core.PlaceToken{EntityID: cbOgre, X: 70, Y: 70})
	if err != nil {
		t.Fatal(err)
	}
	added, err := f.svc.AddCombatants(ctx, []core.NewCombatant{{TokenID: tok.ID}})
	if err != nil {
		t.Fatal(err)
	}
	c := added[0]
	if c.Name != "Ogre" || c.EntityID != cbOgre || c.Data["hp"] != 7.0 || c.Data["max_hp"] != 7.0 || c.TokenID == nil || *c.TokenID != tok.ID {
		t.Fatalf("combatant = %+v", c)
	}
	// autoRoll is not set by combatRules: no initiative yet.
	if len(c.Initiative) != 0 {
		t.Fatalf("initiative rolled without autoRoll: %+v", c.Initiative)
	}
	f.events.take()
	n := func(v float64) *float64 { return &v }
	steps := []struct {
		change             core.HitPointChange
		hp, temp           float64
		bloodied, defeated bool
	}{
		{core.HitPointChange{Damage: n(3)}, 4, 0, false, false},
		{core.HitPointChange{Damage: n(1)}, 3, 0, true, false},
		{core.HitPointChange{Temp: n(5)}, 3, 5, true, false},
		{core.HitPointChange{Damage: n(6)}, 2, 0, true, false},
		{core.HitPointChange{Healing: n(100)}, 7, 0, false, false},
		{core.HitPointChange{Damage: n(50)}, 0, 0, false, true},
		{core.HitPointChange{Healing: n(1)}, 1, 0, true, false},
	}
	for i, s := range steps {
		c, err = f.svc.ChangeHitPoints(ctx, c.ID, s.change)
		if err != nil {
			t.Fatalf("step %d: %v", i, err)
		}
		temp, _ := c.Data["temp_hp"].(float64)
		if c.Data["hp"] != s.hp || temp != s.temp || c.Bloodied != s.bloodied || c.Defeated != s.defeated {
			t.Fatalf("step %d: hp %v temp %v bloodied %v defeated %v; want %v %v %v %v", i, c.Data["hp"], temp,
				c.Bloodied, c.Defeated, s.hp, s.temp, s.bloodied, s.defeated)
		}
	}
	names := eventNames(f.events.take())
	if !slices.Contains(names, core.EventCombatantUpdated) || !slices.Contains(names, core.EventGameUpdated) || !slices.Contains(names, core.EventTokenUpdated) {
		t.Fatalf("events %v: want combatantUpdated, gameUpdated and the token's tokenUpdated", names)
	}
	for _, bad := range []core.HitPointChange{{}, {Damage: n(1), Healing: n(1)}, {Damage: n(-1)}} {
		if _, err := f.svc.ChangeHitPoints(ctx, c.ID, bad); core.KindOf(err) != core.KindInvalid {
			t.Errorf("%+v: err %v, want invalid", bad, err)
		}
	}
}

func TestRollInitiativeSettlesTiesByTheSystem(t *testing.T) {
	f := newCombatFixture(t)
	ctx := context.Background()
	added, err := f.svc.AddCombatants(ctx, []core.NewCombatant{{EntityID: cbOgre}, {EntityID: cbImp}})
	if err != nil {
		t.Fatal(err)
	}
	// Both roll 12 (+2): the Imp's Dexterity 17 beats the Ogre's 8, though
	// the Ogre was added first.
	f.roller.totals = []float64{12, 12}
	if _, err := f.svc.RollInitiative(ctx, nil); err != nil {
		t.Fatal(err)
	}
	view, err := f.svc.HostCampaign(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(view.TurnOrder) != 2 || view.TurnOrder[0].Name != "Imp" || view.TurnOrder[0].Value != 14.0 || view.TurnOrder[1].Value != 14.0 {
		t.Fatalf("turn order %+v: want the Imp first on a tie at 14", view.TurnOrder)
	}
	// Rolling one alone leaves the other's value.
	f.roller.totals = []float64{1}
	if _, err := f.svc.RollInitiative(ctx, []string{added[0].ID}); err != nil {
		t.Fatal(err)
	}
	view, _ = f.svc.HostCampaign(ctx)
	if view.TurnOrder[0].Name != "Imp" || view.TurnOrder[1].Value != 3.0 {
		t.Fatalf("after rolling the Ogre again: %+v", view.TurnOrder)
	}
	if _, err := f.svc.RollInitiative(ctx, []string{"nobody"}); !core.IsNotFound(err) {
		t.Fatalf("unknown combatant: %v", err)
	}
	// The game master's edit wins.
	v := 30.0
	if _, err := f.svc.SetInitiative(ctx, added[0].ID, &v); err != nil {
		t.Fatal(err)
	}
	view, _ = f.svc.HostCampaign(ctx)
	if view.TurnOrder[0].Name != "Ogre" {
		t.Fatalf("after setting 30: %+v", view.TurnOrder)
	}
}

func TestEffectsExpireOnTheRightTurn(t *testing.T) {
	f := newCombatFixture(t)
	ctx := context.Background()
	var ids []string
	for i, name := range []string{"A", "B", "C"} {
		added, err := f.svc.AddCombatants(ctx, []core.NewCombatant{{EntityID: cbImp, Name: name}})
		if err != nil {
			t.Fatal(err)
		}
		v := float64(30 - 10*i)
		if _, err := f.svc.SetInitiative(ctx, added[0].ID, &v); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, added[0].ID)
	}
	a, b, c := ids[0], ids[1], ids[2]
	if _, err := f.svc.ControlCombat(ctx, turns.CombatStart); err != nil { // round 1, A acts
		t.Fatal(err)
	}
	add := func(on string, e core.StatusEffect) {
		t.Helper()
		if _, err := f.svc.AddEffect(ctx, on, e); err != nil {
			t.Fatal(err)
		}
	}
	add(b, core.StatusEffect{ID: "round", Name: "Blessed", Duration: 1, DurationUnit: "round"})                         // applied at round 1 turn 1: gone at round 2 turn 1
	add(c, core.StatusEffect{ID: "end", Name: "Dodging", Duration: 1, DurationType: "targetEndNextTurn"})               // gone when C's turn ends
	add(b, core.StatusEffect{ID: "start", Name: "Marked", Duration: 1, DurationType: "sourceStartNextTurn", Source: a}) // gone when A's next turn starts
	add(a, core.StatusEffect{ID: "forever", Name: "Poisoned"})

	effects := func(id string) []string {
		cb, err := f.svc.Combatant(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, e := range cb.Effects {
			out = append(out, e.ID)
		}
		return out
	}
	next := func() {
		t.Helper()
		if _, err := f.svc.ControlCombat(ctx, turns.CombatNext); err != nil {
			t.Fatal(err)
		}
	}
	next() // B acts
	if got := strings.Join(effects(b), ","); got != "round,start" {
		t.Fatalf("B's turn: B has %s", got)
	}
	next() // C acts
	if got := strings.Join(effects(c), ","); got != "end" {
		t.Fatalf("C's turn: C has %s", got)
	}
	next() // round 2, A acts: C's turn ended, A's began, a round passed
	if got := effects(c); len(got) != 0 {
		t.Fatalf("after C's turn: C has %v", got)
	}
	if got := effects(b); len(got) != 0 {
		t.Fatalf("round 2, A's turn: B has %v; want both gone", got)
	}
	if got := strings.Join(effects(a), ","); got != "forever" {
		t.Fatalf("A has %s; an effect without duration stays", got)
	}
	if _, err := f.svc.RemoveEffect(ctx, a, "forever"); err != nil {
		t.Fatal(err)
	}
	if _, err := f.svc.RemoveEffect(ctx, a, "forever"); !core.IsNotFound(err) {
		t.Fatalf("removing twice: %v", err)
	}
}

func TestPrivateRollsNeverReachPlayers(t *testing.T) {
	f := newCombatFixture(t)
	ctx := context.Background()
	if _, err := f.svc.CreateMessage(ctx, &core.Message{Text: "secret 20", Private: true}); err != nil {
		t.Fatal(err)
	}
	if _, err := f.svc.CreateMessage(ctx, &core.Message{Text: "hello"}); err != nil {
		t.Fatal(err)
	}
	events := f.events.take()
	if v, ok := events[0].Data.(redact.Views); !ok || v.Players != nil || v.Host == nil {
		t.Fatalf("private message event = %#v: want host only", events[0].Data)
	}
	snap, err := f.svc.Snapshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(snap.Messages) != 1 || snap.Messages[0].Text != "hello" {
		t.Fatalf("players' messages %+v", snap.Messages)
	}
	host, err := f.svc.HostMessages(ctx, 10)
	if err != nil {
		t.Fatal(err)
	}
	if len(host) != 2 || !host[0].Private {
		t.Fatalf("host messages %+v", host)
	}
}

// Rolling initiative again mid-fight keeps the acting combatant and moves
// game.turn to its new place (Next then goes on from there); rolling right
// after Start, before anyone has passed a turn, starts the new order from
// its top instead of silently skipping the turns above the acting one.
func TestRerollingInitiativeKeepsTheTurnRight(t *testing.T) {
	f := newCombatFixture(t)
	ctx := context.Background()
	var ids []string
	for range 4 {
		added, err := f.svc.AddCombatants(ctx, []core.NewCombatant{{EntityID: cbImp}})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, added[0].ID)
	}
	// 20, 15, 10, 5 (+2): the order is ids[0..3].
	f.roller.totals = []float64{20, 15, 10, 5}
	if _, err := f.svc.RollInitiative(ctx, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := f.svc.ControlCombat(ctx, turns.CombatStart); err != nil {
		t.Fatal(err)
	}
	// Right after Start the order is rolled again, reversed: the new first acts.
	f.roller.totals = []float64{5, 10, 15, 20}
	if _, err := f.svc.RollInitiative(ctx, nil); err != nil {
		t.Fatal(err)
	}
	view, _ := f.svc.HostCampaign(ctx)
	if g := view.Game; g.Turn != 1 || g.CombatantID != ids[3] || g.Round != 1 {
		t.Fatalf("after a roll right after Start: round %d turn %d acting %s, want round 1 turn 1 acting %s", g.Round, g.Turn, g.CombatantID, ids[3])
	}
	// Two turns on: ids[1] (15+2) acts third.
	for range 2 {
		if _, err := f.svc.ControlCombat(ctx, turns.CombatNext); err != nil {
			t.Fatal(err)
		}
	}
	view, _ = f.svc.HostCampaign(ctx)
	if g := view.Game; g.Turn != 3 || g.CombatantID != ids[1] {
		t.Fatalf("two turns on: turn %d acting %s, want 3 and %s", g.Turn, g.CombatantID, ids[1])
	}
	// Mid-fight the order is rolled again (dice go to the combatants in
	// their current order, ids[3] to ids[0]): ids[1] still acts, now fourth.
	f.roller.totals = []float64{20, 15, 1, 10}
	if _, err := f.svc.RollInitiative(ctx, nil); err != nil {
		t.Fatal(err)
	}
	view, _ = f.svc.HostCampaign(ctx)
	if g := view.Game; g.Turn != 4 || g.CombatantID != ids[1] || g.Round != 1 {
		t.Fatalf("after a mid-fight roll: round %d turn %d acting %s, want round 1 turn 4 acting %s", g.Round, g.Turn, g.CombatantID, ids[1])
	}
	if view.TurnOrder[3].CombatantID != ids[1] {
		t.Fatalf("turn 4 is %s in the order, want the acting %s", view.TurnOrder[3].CombatantID, ids[1])
	}
	// Next goes on to a new round, not back to the stale position.
	g, err := f.svc.ControlCombat(ctx, turns.CombatNext)
	if err != nil {
		t.Fatal(err)
	}
	if g.Round != 2 || g.Turn != 1 || g.CombatantID != ids[3] {
		t.Fatalf("next after the mid-fight roll: round %d turn %d acting %s, want round 2 turn 1 acting %s", g.Round, g.Turn, g.CombatantID, ids[3])
	}
	// The game master's edit moves the acting one too: turn follows it.
	v := 30.0
	if _, err := f.svc.SetInitiative(ctx, ids[0], &v); err != nil {
		t.Fatal(err)
	}
	view, _ = f.svc.HostCampaign(ctx)
	if g := view.Game; g.Turn != 2 || g.CombatantID != ids[3] {
		t.Fatalf("after an edit put another first: turn %d acting %s, want 2 and %s", g.Turn, g.CombatantID, ids[3])
	}
}
