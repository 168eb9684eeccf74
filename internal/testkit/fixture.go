package testkit

import (
	"context"
	"encoding/json"
	"log/slog"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vttapp/companion/core/engine"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/examples/dnd5e"
	"github.com/vttapp/companion/store/sqlite"
	"github.com/vttapp/companion/systems"
)

// Ids of the fixture campaign (SeedFixture).
const (
	CampaignID   = "c0000000-0000-4000-8000-000000000001"
	GoblinID     = "e0000000-0000-4000-8000-000000000001"
	ShifterID    = "e0000000-0000-4000-8000-000000000002"
	FireballID   = "e0000000-0000-4000-8000-000000000003"
	HeroID       = "e0000000-0000-4000-8000-000000000004"
	HeroCombatID = "b0000000-0000-4000-8000-000000000001"
	MapID        = "a0000000-0000-4000-8000-000000000001"
	TokenA       = "d0000000-0000-4000-8000-00000000000a"
	TokenB       = "d0000000-0000-4000-8000-00000000000b"
)

var (
	loadOnce  sync.Once
	loadedSys *systems.System
	loadErr   error
)

// DnD5e loads the shipped D&D 5e system once for all the tests of a binary.
func DnD5e(t testing.TB) *systems.System {
	t.Helper()
	// A generous Lua time limit: under -race on a loaded machine an
	// ordinary view can pass the production 250 ms; scripting tests that limit.
	loadOnce.Do(func() { loadedSys, loadErr = systems.Load(dnd5e.FS, systems.Options{CallTimeout: 10 * time.Second}) })
	if loadErr != nil {
		t.Fatalf("loading examples/dnd5e: %v", loadErr)
	}
	return loadedSys
}

// EventLog records the names of the events a bus publishes.
type EventLog struct {
	mu    sync.Mutex
	names []string
}

// Publish records events (a bus subscriber).
func (l *EventLog) Publish(events ...core.Event) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, e := range events {
		l.names = append(l.names, e.Name)
	}
}

// Take returns the names recorded since the last Take, comma-separated.
func (l *EventLog) Take() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := strings.Join(l.names, ",")
	l.names = nil
	return out
}

// FixedRoller rolls every "[[...]]" as 4, so answers are predictable.
type FixedRoller struct{}

func (FixedRoller) RollText(text string) (string, []json.RawMessage, bool, error) {
	var rolls []json.RawMessage
	for i := 0; i < strings.Count(text, "[["); i++ {
		rolls = append(rolls, json.RawMessage(`{"total":4}`))
	}
	return text, rolls, false, nil
}

// Total rolls every initiative formula to 10.
func (FixedRoller) Total(string) (float64, error) { return 10, nil }

// Game is a service over a real SQLite store in a temporary data folder,
// with the D&D 5e system loaded: what a server wires, minus its handlers.
type Game struct {
	Service *engine.Service
	Bus     *core.Bus
	Store   *sqlite.Store
	Holder  *systems.Holder
	Events  *EventLog
	DataDir string
	// Logs receives Log's output at debug level.
	Logs *LogBuffer
	Log  *slog.Logger
}

// GameOptions shape NewGame's data.
type GameOptions struct {
	// NoCampaign leaves out the fixture campaign (SeedFixture).
	NoCampaign bool
	// Seed, when set, stores more content after the fixture.
	Seed func(tx core.Tx) error
	// Roller replaces FixedRoller (a seeded roller of the dice package, for rolls
	// whose dice a test reads).
	Roller core.Roller
}

// NewGame opens the store, loads the system and seeds the fixture; all of
// it is closed with the test.
func NewGame(t testing.TB, opt GameOptions) *Game {
	t.Helper()
	dataDir := t.TempDir()
	store, err := sqlite.Open(filepath.Join(dataDir, "companion.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	holder := systems.NewHolder(DnD5e(t))
	events := &EventLog{}
	bus := core.NewBus()
	bus.Subscribe(func(evs []core.Event) { events.Publish(evs...) })
	var roller core.Roller = FixedRoller{}
	if opt.Roller != nil {
		roller = opt.Roller
	}
	svc := engine.NewService(engine.ServiceConfig{Store: store, Events: bus, Rules: holder, Roller: roller})
	if !opt.NoCampaign {
		if err := store.Update(context.Background(), SeedFixture); err != nil {
			t.Fatal(err)
		}
	}
	if opt.Seed != nil {
		if err := store.Update(context.Background(), opt.Seed); err != nil {
			t.Fatal(err)
		}
	}
	logs := &LogBuffer{}
	log := slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	return &Game{Service: svc, Bus: bus, Store: store, Holder: holder, Events: events, DataDir: dataDir, Logs: logs, Log: log}
}

// SeedFixture stores a primary dnd5e campaign, three monsters' worth of
// content (a shapechanger whose forms reference the goblin), a spell, a
// unique character with its shared combatant, and a map on the player
// screen with two tokens.
func SeedFixture(tx core.Tx) error {
	c := &core.Campaign{ID: CampaignID, System: "dnd5e", Name: "Demo", Primary: true}
	c.Normalize()
	if err := tx.PutCampaign(c); err != nil {
		return err
	}
	entities := []*core.Entity{
		{ID: GoblinID, Kind: "monster", System: "dnd5e", Name: "Goblin", Slug: "goblin",
			Data: core.Object{"size": "Small", "type": "humanoid", "challenge_rating": 0.25, "hit_points": 7.0, "armor_class": []any{map[string]any{"type": "armor", "value": 15.0}}}},
		{ID: ShifterID, Kind: "monster", System: "dnd5e", Name: "Shifter", Slug: "shifter",
			Data: core.Object{"size": "Medium", "type": "monstrosity", "challenge_rating": 2.0, "hit_points": 30.0,
				"forms": []any{map[string]any{"index": "goblin", "name": "Goblin"}, map[string]any{"index": "not-installed"}}}},
		{ID: FireballID, Kind: "spell", System: "dnd5e", Name: "Fireball", Slug: "fireball", Data: core.Object{"level": 3.0}},
		{ID: HeroID, Kind: "character", System: "dnd5e", Name: "Hero", Slug: "hero", Owner: CampaignID, Data: core.Object{"hit_points": 30.0}},
	}
	for _, e := range entities {
		e.Normalize(e.Created)
		if err := tx.PutEntity(e); err != nil {
			return err
		}
	}
	cb := &core.Combatant{ID: HeroCombatID, Name: "Hero", Role: core.RoleFriendly, EntityID: HeroID, Campaign: CampaignID, Data: core.Object{"hit_points": 30.0}}
	cb.Normalize()
	if err := tx.PutCombatant(cb); err != nil {
		return err
	}
	m := &core.Map{ID: MapID, Name: "Cave", Owner: CampaignID}
	m.Normalize()
	if err := tx.PutMap(m); err != nil {
		return err
	}
	for _, tk := range []*core.Token{{ID: TokenA, Name: "A", MapID: MapID}, {ID: TokenB, Name: "B", MapID: MapID}} {
		tk.Normalize()
		if err := tx.PutToken(tk); err != nil {
			return err
		}
	}
	return tx.PutScreen(CampaignID, &core.Screen{MapID: MapID})
}
