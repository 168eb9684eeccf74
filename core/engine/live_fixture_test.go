package engine_test

import (
	"context"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/core/engine"
	"github.com/vttapp/companion/core/engine/internal/kernel"
	"github.com/vttapp/companion/store/sqlite"
)

// liveRules is a tiny game system: characters are unique and keep hp in
// step with their combatant.
type liveRules struct{}

func (liveRules) SystemID() string            { return "test" }
func (liveRules) IsUnique(kind string) bool   { return kind == "characters" }
func (liveRules) Ranges(kind string) []string { return []string{"hp"} }

// liveFixture is a service over a real SQLite store holding one primary
// campaign with a map (walls, a door, tokens) and a character, plus a
// recorder of every published event.
type liveFixture struct {
	svc    *engine.Service
	store  *sqlite.Store
	events *liveRecorder
	now    time.Time
	mu     sync.Mutex
}

const (
	liveMapID     = "map-1"
	liveTokenID   = "tok-free"
	liveLockedID  = "tok-locked"
	liveHiddenID  = "tok-hidden"
	liveDoorID    = "w-door"
	liveWallID    = "w-wall"
	liveWindowID  = "w-window"
	liveEntityID  = "ent-hero"
	liveCampaign  = "camp-1"
	liveCombatant = "cmb-hero"
)

func newLiveFixture(t testing.TB) *liveFixture {
	t.Helper()
	st, err := sqlite.Open(filepath.Join(t.TempDir(), "companion.db"))
	if err != nil {
		t.Fatalf("open store: %v", err)
	}
	t.Cleanup(func() { st.Close() })
	f := &liveFixture{store: st, events: &liveRecorder{}, now: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}
	bus := core.NewBus()
	bus.Subscribe(f.events.record)
	f.svc = engine.NewService(engine.ServiceConfig{Store: st, Events: bus, Rules: liveRules{}, Now: f.clock})
	err = st.Update(context.Background(), func(tx core.Tx) error {
		if err := tx.PutCampaign(&core.Campaign{ID: liveCampaign, Name: "Test", Slug: "test", System: "test", Primary: true, Tags: []string{}, References: []string{}, Attributes: core.Object{}}); err != nil {
			return err
		}
		m := &core.Map{ID: liveMapID, Name: "Cellar", Owner: liveCampaign, Walls: []core.Wall{
			{ID: liveWallID, Data: []float64{0, 0, 100, 0, 100, 100}},
			{ID: liveDoorID, Data: []float64{100, 100, 200, 100}, Type: core.WallDoor, Door: core.DoorClosed},
			{ID: liveWindowID, Data: []float64{200, 100, 300, 100}, Type: core.WallWindow},
		}, Tokens: []*core.Token{
			{ID: liveTokenID, Name: "Hero", X: 10, Y: 20, MapID: liveMapID},
			{ID: liveLockedID, Name: "Statue", X: 50, Y: 60, Locked: true, MapID: liveMapID},
			{ID: liveHiddenID, Name: "Ambusher", X: 70, Y: 80, Hidden: true, MapID: liveMapID},
		}}
		if err := m.Normalize(); err != nil {
			return err
		}
		for _, tok := range m.Tokens {
			tok.Normalize()
		}
		if err := tx.PutMap(m); err != nil {
			return err
		}
		if err := tx.PutScreen(liveCampaign, &core.Screen{MapID: liveMapID}); err != nil {
			return err // players see the map they play on
		}
		e := &core.Entity{ID: liveEntityID, Kind: "characters", System: "test", Name: "Hero", Owner: liveCampaign,
			Attributes: core.Object{"str": 16.0, "dex": 12.0}, Data: core.Object{"hp": 10.0}}
		if err := e.Normalize(f.now); err != nil {
			return err
		}
		return tx.PutEntity(e)
	})
	if err != nil {
		t.Fatalf("seed store: %v", err)
	}
	return f
}

// clearScreen takes the map off the player screen: the game master
// prepares it out of the players' sight.
func (f *liveFixture) clearScreen(t testing.TB) {
	t.Helper()
	if _, err := f.svc.ShowMap(context.Background(), ""); err != nil {
		t.Fatal(err)
	}
	f.events.take()
}

func (f *liveFixture) clock() time.Time {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.now
}

// advance moves the service's clock forward.
func (f *liveFixture) advance(d time.Duration) {
	f.mu.Lock()
	f.now = f.now.Add(d)
	f.mu.Unlock()
}

func (f *liveFixture) token(t testing.TB, id string) *core.Token {
	t.Helper()
	tok, err := f.svc.Token(context.Background(), id)
	if err != nil {
		t.Fatalf("read token %s: %v", id, err)
	}
	return tok
}

func (f *liveFixture) setRemoteInteraction(t testing.TB, on bool) {
	t.Helper()
	if _, err := f.svc.UpdateSettings(context.Background(), kernel.SettingsPatch{RemoteInteraction: &on}); err != nil {
		t.Fatalf("settings: %v", err)
	}
	f.events.take()
}

// liveRecorder keeps every event published, in order.
type liveRecorder struct {
	mu     sync.Mutex
	events []core.Event
	// onPublish, when set, sees each batch as the bus hands it over (while
	// the publisher still holds its locks).
	onPublish func([]core.Event)
}

func (r *liveRecorder) record(events []core.Event) {
	r.mu.Lock()
	r.events = append(r.events, events...)
	hook := r.onPublish
	r.mu.Unlock()
	if hook != nil {
		hook(events)
	}
}

// take returns the events recorded since the last take.
func (r *liveRecorder) take() []core.Event {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := r.events
	r.events = nil
	return out
}

func eventNames(events []core.Event) []string {
	names := make([]string, len(events))
	for i, e := range events {
		names[i] = e.Name
	}
	return names
}
