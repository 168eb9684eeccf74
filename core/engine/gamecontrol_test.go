package engine_test

import (
	"context"
	"path/filepath"
	"reflect"
	"sync"
	"testing"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/core/engine"
	"github.com/vttapp/companion/core/redact"
	"github.com/vttapp/companion/core/turns"
	"github.com/vttapp/companion/store/sqlite"
)

const (
	gcCampaign = "gc000000-0000-4000-8000-000000000001"
	gcCave     = "gc000000-0000-4000-8000-0000000000a1"
	gcHall     = "gc000000-0000-4000-8000-0000000000a2"
	gcModMap   = "gc000000-0000-4000-8000-0000000000a3"
	gcWren     = "gc000000-0000-4000-8000-0000000000c1"
	gcGoblin   = "gc000000-0000-4000-8000-0000000000c2"
	gcLurker   = "gc000000-0000-4000-8000-0000000000c3"
	gcBat      = "gc000000-0000-4000-8000-0000000000c4"
)

// gcPublisher records events and, on every publish, reads the stored game
// and screen: what it sees is what was committed before the events went out.
type gcPublisher struct {
	mu      sync.Mutex
	store   core.Store
	events  []core.Event
	games   []*core.Game
	screens []*core.Screen
}

func (p *gcPublisher) Publish(events ...core.Event) {
	if len(events) == 0 {
		return
	}
	var g *core.Game
	var s *core.Screen
	p.store.View(context.Background(), func(tx core.Tx) error {
		g, _ = tx.Game(gcCampaign)
		s, _ = tx.Screen(gcCampaign)
		return nil
	})
	p.mu.Lock()
	defer p.mu.Unlock()
	p.events = append(p.events, events...)
	p.games = append(p.games, g)
	p.screens = append(p.screens, s)
}

func (p *gcPublisher) take() []core.Event {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := p.events
	p.events = nil
	return out
}

type gcFixture struct {
	svc   *engine.Service
	store *sqlite.Store
	pub   *gcPublisher
}

// newGCFixture: a primary campaign with two maps (one with a hidden token),
// a module map, and four combatants: Wren (initiative 12), Goblin (18),
// a hidden Lurker (15) and an unrolled Bat.
func newGCFixture(t *testing.T) *gcFixture {
	t.Helper()
	return newGCFixtureWithRules(t, svcRules{})
}

// ascendingRules is a system whose lowest initiative acts first.
type ascendingRules struct{ svcRules }

func (ascendingRules) InitiativeAscending() bool { return true }

func newGCFixtureWithRules(t *testing.T, rules core.Rules) *gcFixture {
	t.Helper()
	store, err := sqlite.Open(filepath.Join(t.TempDir(), "companion.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	pub := &gcPublisher{store: store}
	svc := engine.NewService(engine.ServiceConfig{Store: store, Events: pub, Rules: rules})
	err = store.Update(context.Background(), func(tx core.Tx) error {
		c := &core.Campaign{ID: gcCampaign, System: "dnd5e", Name: "Demo", Primary: true}
		if err := c.Normalize(); err != nil {
			return err
		}
		if err := tx.PutCampaign(c); err != nil {
			return err
		}
		if err := tx.PutModule(&core.Module{ID: "mod", Name: "Maps", Version: "1.0.0", System: "dnd5e"}); err != nil {
			return err
		}
		for _, m := range []*core.Map{
			{ID: gcCave, Name: "Cave", Owner: gcCampaign, Width: 800, Height: 600, GridSize: 50},
			{ID: gcHall, Name: "Hall", Owner: gcCampaign},
			{ID: gcModMap, Name: "Module map", Owner: "mod"},
		} {
			m.Normalize()
			if err := tx.PutMap(m); err != nil {
				return err
			}
		}
		for _, tk := range []*core.Token{
			{ID: "tok-visible", Name: "Wren", MapID: gcCave},
			{ID: "tok-hidden", Name: "Lurker", MapID: gcCave, Hidden: true},
		} {
			tk.Normalize()
			if err := tx.PutToken(tk); err != nil {
				return err
			}
		}
		for i, cb := range []*core.Combatant{
			{ID: gcWren, Name: "Wren", Role: core.RoleFriendly, Initiative: []core.Initiative{{ID: "i-wren", Value: 12.0}}},
			{ID: gcGoblin, Name: "Goblin", Initiative: []core.Initiative{{ID: "i-goblin", Value: 18.0}}},
			{ID: gcLurker, Name: "Lurker", Hidden: true, Initiative: []core.Initiative{{ID: "i-lurker", Value: 15.0}}},
			{ID: gcBat, Name: "Bat", Initiative: []core.Initiative{{ID: "i-bat", Value: nil}}},
		} {
			cb.Campaign, cb.Rank = gcCampaign, i
			cb.Normalize()
			if err := tx.PutCombatant(cb); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return &gcFixture{svc: svc, store: store, pub: pub}
}

// turn is the part of a game the tests compare.
type turn struct {
	Started    bool
	Round      int
	Turn       int
	Combatant  string
	Initiative string
}

func turnOf(g *core.Game) turn {
	return turn{g.Started, g.Round, g.Turn, g.CombatantID, g.InitiativeID}
}

// wantGameUpdate checks that exactly one gameUpdated went out, carrying the
// game as players see it (no hidden combatant; the turn as players see it,
// players), after it was committed (want).
func (f *gcFixture) wantGameUpdate(t *testing.T, want, players turn) {
	t.Helper()
	events := f.pub.take()
	if len(events) != 1 || events[0].Name != core.EventGameUpdated {
		t.Fatalf("events = %v, want one gameUpdated", gcEventNames(events))
	}
	// Players get the turn alone (the lists did not change: core.GameTurn).
	pt, ok := redact.PlayersView(events[0].Data).(*core.GameTurn)
	if !ok {
		t.Fatalf("gameUpdated for players is %T, want the turn alone (*core.GameTurn)", redact.PlayersView(events[0].Data))
	}
	if got := (turn{pt.Started, pt.Round, pt.Turn, pt.CombatantID, pt.InitiativeID}); got != players {
		t.Fatalf("gameUpdated for players = %+v, want %+v", got, players)
	}
	host := redact.HostView(events[0].Data).(*core.Game)
	if got := turnOf(host); got != want {
		t.Fatalf("gameUpdated for the host = %+v, want %+v", got, want)
	}
	var names []string
	for _, c := range host.Combatants {
		names = append(names, c.Name)
	}
	if !reflect.DeepEqual(names, []string{"Wren", "Goblin", "Lurker", "Bat"}) {
		t.Fatalf("the host's gameUpdated combatants = %v, want all four", names)
	}
	f.pub.mu.Lock()
	committed := f.pub.games[len(f.pub.games)-1]
	f.pub.mu.Unlock()
	if got := turnOf(committed); got != want {
		t.Fatalf("store at publish time = %+v, want the committed %+v", got, want)
	}
}

func gcEventNames(events []core.Event) []string {
	var out []string
	for _, e := range events {
		out = append(out, e.Name)
	}
	return out
}

func TestCombatRunsThroughRoundsInInitiativeOrder(t *testing.T) {
	f := newGCFixture(t)
	ctx := context.Background()
	g, err := f.svc.ControlCombat(ctx, turns.CombatStart)
	if err != nil {
		t.Fatal(err)
	}
	// Goblin 18, hidden Lurker 15 (the host's monsters act too), Wren 12;
	// the unrolled Bat takes no turn.
	goblin := turn{true, 1, 1, gcGoblin, "i-goblin"}
	if got := turnOf(g); got != goblin {
		t.Fatalf("start = %+v, want %+v", got, goblin)
	}
	if len(g.Combatants) != 4 {
		t.Fatalf("the host's game has %d combatants, want all 4", len(g.Combatants))
	}
	f.wantGameUpdate(t, goblin, goblin)

	// Players see the game as if the hidden Lurker did not exist: its turn
	// shows as the Goblin's, and Wren acts second.
	steps := []struct {
		action        string
		want, players turn
	}{
		{turns.CombatNext, turn{true, 1, 2, gcLurker, "i-lurker"}, goblin},
		{turns.CombatNext, turn{true, 1, 3, gcWren, "i-wren"}, turn{true, 1, 2, gcWren, "i-wren"}},
		{turns.CombatNext, turn{true, 2, 1, gcGoblin, "i-goblin"}, turn{true, 2, 1, gcGoblin, "i-goblin"}},
		{turns.CombatPrevious, turn{true, 1, 3, gcWren, "i-wren"}, turn{true, 1, 2, gcWren, "i-wren"}},
		{turns.CombatPrevious, turn{true, 1, 2, gcLurker, "i-lurker"}, goblin},
		{turns.CombatNext, turn{true, 1, 3, gcWren, "i-wren"}, turn{true, 1, 2, gcWren, "i-wren"}},
		{turns.CombatEnd, turn{false, 1, 1, "", ""}, turn{false, 1, 1, "", ""}},
	}
	for _, s := range steps {
		g, err := f.svc.ControlCombat(ctx, s.action)
		if err != nil {
			t.Fatalf("%s: %v", s.action, err)
		}
		if got := turnOf(g); got != s.want {
			t.Fatalf("%s = %+v, want %+v", s.action, got, s.want)
		}
		f.wantGameUpdate(t, s.want, s.players)
	}
	view, err := f.svc.HostCampaign(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if view.Game.Started {
		t.Fatal("the stored game is still started after end")
	}
}

func TestCombatRefusalsChangeAndTellNothing(t *testing.T) {
	f := newGCFixture(t)
	ctx := context.Background()
	_, err := f.svc.ControlCombat(ctx, turns.CombatNext)
	svcWantErr(t, err, core.KindConflict, "combat has not started")
	_, err = f.svc.ControlCombat(ctx, turns.CombatPrevious)
	svcWantErr(t, err, core.KindConflict, "combat has not started")
	_, err = f.svc.ControlCombat(ctx, "restart")
	svcWantErr(t, err, core.KindInvalid, "unknown combat action 'restart'")
	// Ending a combat that is not running is harmless and silent.
	if g, err := f.svc.ControlCombat(ctx, turns.CombatEnd); err != nil || g.Started {
		t.Fatalf("end when not started = %+v, %v", g, err)
	}
	if events := f.pub.take(); len(events) != 0 {
		t.Fatalf("events after refused or empty actions: %v", gcEventNames(events))
	}

	if _, err := f.svc.ControlCombat(ctx, turns.CombatStart); err != nil {
		t.Fatal(err)
	}
	f.pub.take()
	_, err = f.svc.ControlCombat(ctx, turns.CombatStart)
	svcWantErr(t, err, core.KindConflict, "combat has already started")
	_, err = f.svc.ControlCombat(ctx, turns.CombatPrevious)
	svcWantErr(t, err, core.KindConflict, "already at the first turn of the first round")
	if events := f.pub.take(); len(events) != 0 {
		t.Fatalf("events after refusals: %v", gcEventNames(events))
	}
	view, _ := f.svc.HostCampaign(ctx)
	if got, want := turnOf(view.Game), (turn{true, 1, 1, gcGoblin, "i-goblin"}); got != want {
		t.Fatalf("stored game after refusals = %+v, want %+v", got, want)
	}
}

func TestStartCombatWithoutInitiativeIsRefused(t *testing.T) {
	f := newGCFixture(t)
	ctx := context.Background()
	err := f.store.Update(ctx, func(tx core.Tx) error {
		cbs, err := tx.Combatants(gcCampaign)
		if err != nil {
			return err
		}
		for _, c := range cbs {
			c.Initiative = []core.Initiative{{ID: "x-" + c.ID, Value: ""}}
			if err := tx.PutCombatant(c); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	_, err = f.svc.ControlCombat(ctx, turns.CombatStart)
	svcWantErr(t, err, core.KindInvalid, "roll initiative before starting combat")
	if events := f.pub.take(); len(events) != 0 {
		t.Fatalf("events after a refused start: %v", gcEventNames(events))
	}
}

// A combatant defeated on its own turn leaves the order; the next turn goes
// to the one that moved into its place, and the round still wraps.
func TestNextTurnAfterTheActingCombatantIsDefeated(t *testing.T) {
	f := newGCFixture(t)
	ctx := context.Background()
	if _, err := f.svc.ControlCombat(ctx, turns.CombatStart); err != nil {
		t.Fatal(err)
	}
	if _, err := f.svc.ControlCombat(ctx, turns.CombatNext); err != nil { // Lurker acts
		t.Fatal(err)
	}
	defeat := func(id string) {
		t.Helper()
		if _, err := f.svc.PatchCombatant(ctx, id, core.Object{"defeated": true}); err != nil {
			t.Fatal(err)
		}
	}
	defeat(gcLurker)
	f.pub.take()
	g, err := f.svc.ControlCombat(ctx, turns.CombatNext)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := turnOf(g), (turn{true, 1, 2, gcWren, "i-wren"}); got != want {
		t.Fatalf("next after the acting combatant fell = %+v, want %+v", got, want)
	}
	defeat(gcWren) // the last slot falls on its turn: a new round begins
	g, err = f.svc.ControlCombat(ctx, turns.CombatNext)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := turnOf(g), (turn{true, 2, 1, gcGoblin, "i-goblin"}); got != want {
		t.Fatalf("next after the last combatant fell = %+v, want %+v", got, want)
	}
	defeat(gcGoblin)
	_, err = f.svc.ControlCombat(ctx, turns.CombatNext)
	svcWantErr(t, err, core.KindConflict, "no combatant is left in the turn order")
}

func TestTurnOrderRules(t *testing.T) {
	combatants := []*core.Combatant{
		{ID: "a", Name: "Alpha", Initiative: []core.Initiative{{ID: "a1", Value: 10.0}}},
		{ID: "b", Name: "Bravo", Label: "B1", Initiative: []core.Initiative{{ID: "b1", Value: 10.0}, {ID: "b2", Name: "Lair", Value: 20.0}}},
		{ID: "c", Name: "Card", Initiative: []core.Initiative{{ID: "c1", Value: "Queen"}}},
		{ID: "d", Name: "Dead", Defeated: true, Initiative: []core.Initiative{{ID: "d1", Value: 30.0}}},
		{ID: "e", Name: "Echo", Initiative: []core.Initiative{{ID: "e1", Value: 1.0, Order: 2}}},
		{ID: "f", Name: "Fox", Initiative: []core.Initiative{{ID: "f1", Value: 2.0, Order: 1}}},
		{ID: "g", Name: "Golf", Initiative: []core.Initiative{{ID: "g1"}}},
		{ID: "h", Name: "Hotel", Initiative: []core.Initiative{{ID: "h1", Value: "15"}}},
	}
	var got []string
	for _, s := range turns.TurnOrder(combatants, false) {
		got = append(got, s.InitiativeID+":"+s.Name)
	}
	want := []string{
		"f1:Fox", "e1:Echo", // explicit order first
		"b2:Bravo B1 (Lair)", "h1:Hotel", // then by value, highest first ("15" is a number)
		"a1:Alpha", "b1:Bravo B1", // ties keep the combatants' rank
		"c1:Card", // values that are not numbers last
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("TurnOrder =\n%v\nwant\n%v", got, want)
	}
	got = got[:0]
	for _, s := range turns.TurnOrder(combatants, true) {
		got = append(got, s.InitiativeID+":"+s.Name)
	}
	want = []string{
		"f1:Fox", "e1:Echo", // explicit order still first
		"a1:Alpha", "b1:Bravo B1", // then lowest first, ties in rank order
		"h1:Hotel", "b2:Bravo B1 (Lair)",
		"c1:Card", // values that are not numbers still last
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("ascending TurnOrder =\n%v\nwant\n%v", got, want)
	}
}

// A system whose config says sortOrder "asc" runs its combat lowest
// initiative first, in the game controls and the host's turn order alike.
func TestCombatFollowsTheSystemsSortOrder(t *testing.T) {
	f := newGCFixtureWithRules(t, ascendingRules{})
	ctx := context.Background()
	want := []turn{
		{true, 1, 1, gcWren, "i-wren"},
		{true, 1, 2, gcLurker, "i-lurker"},
		{true, 1, 3, gcGoblin, "i-goblin"},
		{true, 2, 1, gcWren, "i-wren"},
	}
	for i, w := range want {
		action := turns.CombatNext
		if i == 0 {
			action = turns.CombatStart
		}
		g, err := f.svc.ControlCombat(ctx, action)
		if err != nil {
			t.Fatalf("%s: %v", action, err)
		}
		if got := turnOf(g); got != w {
			t.Fatalf("%s = %+v, want %+v", action, got, w)
		}
	}
	view, err := f.svc.HostCampaign(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var order []string
	for _, s := range view.TurnOrder {
		order = append(order, s.InitiativeID)
	}
	if !reflect.DeepEqual(order, []string{"i-wren", "i-lurker", "i-goblin"}) {
		t.Fatalf("host turn order = %v, want lowest first", order)
	}
}

func TestShowMapPutsItOnThePlayerScreen(t *testing.T) {
	f := newGCFixture(t)
	ctx := context.Background()
	screen, err := f.svc.ShowMap(ctx, gcCave)
	if err != nil {
		t.Fatal(err)
	}
	if screen.MapID != gcCave || !screen.RemoteInteraction {
		t.Fatalf("screen = %+v", screen)
	}
	events := f.pub.take()
	if got := gcEventNames(events); !reflect.DeepEqual(got, []string{core.EventScreenUpdated, core.EventMapLoaded}) {
		t.Fatalf("events = %v, want [screenUpdated mapLoaded]", got)
	}
	if s := events[0].Data.(*core.Screen); s.MapID != gcCave {
		t.Fatalf("screenUpdated mapId = %q", s.MapID)
	}
	m := redact.PlayersView(events[1].Data).(*core.Map)
	if m.ID != gcCave || m.Name != "Cave" || len(m.Tokens) != 1 || m.Tokens[0].ID != "tok-visible" {
		t.Fatalf("mapLoaded = %s with %d tokens, want Cave with the visible token only", m.Name, len(m.Tokens))
	}
	f.pub.mu.Lock()
	committed := f.pub.screens[len(f.pub.screens)-1]
	f.pub.mu.Unlock()
	if committed.MapID != gcCave {
		t.Fatalf("the screen was not committed before the events went out: %+v", committed)
	}
	snap, err := f.svc.Snapshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if snap.Map == nil || snap.Map.ID != gcCave {
		t.Fatalf("GET /api map after ShowMap = %v", snap.Map)
	}

	// A module's map can be shown too.
	if _, err := f.svc.ShowMap(ctx, gcModMap); err != nil {
		t.Fatal(err)
	}
	f.pub.take()

	// An unknown map changes nothing.
	_, err = f.svc.ShowMap(ctx, "missing")
	svcWantErr(t, err, core.KindNotFound, "no map with id 'missing'")
	if events := f.pub.take(); len(events) != 0 {
		t.Fatalf("events after a refused ShowMap: %v", gcEventNames(events))
	}
	view, err := f.svc.HostCampaign(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if view.Screen.MapID != gcModMap {
		t.Fatalf("screen after a refused ShowMap = %q, want the module map", view.Screen.MapID)
	}

	// An empty id clears the screen.
	screen, err = f.svc.ShowMap(ctx, "")
	if err != nil || screen.MapID != "" {
		t.Fatalf("clearing = %+v, %v", screen, err)
	}
	if got := gcEventNames(f.pub.take()); !reflect.DeepEqual(got, []string{core.EventScreenUpdated}) {
		t.Fatalf("events after clearing = %v, want [screenUpdated]", got)
	}
}

func TestHostCampaignView(t *testing.T) {
	f := newGCFixture(t)
	ctx := context.Background()
	if _, err := f.svc.ShowMap(ctx, gcHall); err != nil {
		t.Fatal(err)
	}
	view, err := f.svc.HostCampaign(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if view.Campaign.ID != gcCampaign || view.Campaign.Name != "Demo" {
		t.Fatalf("campaign = %+v", view.Campaign)
	}
	var maps []string
	for _, m := range view.Maps {
		maps = append(maps, m.Name)
		if m.OnScreen != (m.ID == gcHall) {
			t.Fatalf("map %s onScreen = %v", m.Name, m.OnScreen)
		}
		if m.ID == gcCave && (m.Tokens != 2 || m.Width != 800 || m.GridSize != 50) {
			t.Fatalf("cave row = %+v", m)
		}
	}
	if !reflect.DeepEqual(maps, []string{"Cave", "Hall"}) {
		t.Fatalf("maps = %v, want the campaign's own [Cave Hall]", maps)
	}
	if sm := view.ScreenMap; sm == nil || sm.ID != gcHall || sm.Name != "Hall" || !sm.OnScreen || sm.Library != "" {
		t.Fatalf("screenMap = %+v, want the campaign's Hall", sm)
	}
	if len(view.Game.Combatants) != 4 {
		t.Fatalf("the host sees %d combatants, want 4 (hidden included)", len(view.Game.Combatants))
	}
	var order []string
	for _, s := range view.TurnOrder {
		order = append(order, s.Name)
	}
	if !reflect.DeepEqual(order, []string{"Goblin", "Lurker", "Wren"}) {
		t.Fatalf("turn order = %v", order)
	}
	if !view.TurnOrder[1].Hidden {
		t.Fatal("the hidden Lurker's slot is not marked hidden")
	}
}

func TestGameControlsWithoutPrimaryCampaign(t *testing.T) {
	store, err := sqlite.Open(filepath.Join(t.TempDir(), "companion.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	svc := engine.NewService(engine.ServiceConfig{Store: store, Rules: svcRules{}})
	ctx := context.Background()
	_, err = svc.ControlCombat(ctx, turns.CombatStart)
	svcWantErr(t, err, core.KindNotFound, "no primary campaign for system 'dnd5e'")
	_, err = svc.ShowMap(ctx, gcCave)
	svcWantErr(t, err, core.KindNotFound, "no primary campaign")
	_, err = svc.HostCampaign(ctx)
	svcWantErr(t, err, core.KindNotFound, "no primary campaign")
}
