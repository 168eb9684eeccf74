package engine_test

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/core/engine"
	"github.com/vttapp/companion/core/engine/internal/kernel"
	"github.com/vttapp/companion/store/sqlite"
)

var svcCtx = context.Background()

// svcRules: "character" is unique with the range hit_points.
type svcRules struct{}

func (svcRules) SystemID() string          { return "dnd5e" }
func (svcRules) IsUnique(kind string) bool { return kind == "character" }
func (svcRules) Ranges(kind string) []string {
	if kind == "character" {
		return []string{"hit_points"}
	}
	return nil
}

// HitPointRanges is core.RangeLister: a combatant of no kind keeps its hit
// points under the characters' range.
func (svcRules) HitPointRanges() []string { return []string{"hit_points"} }

// svcRoller replaces "[[x]]" with "[[x=4]]" and reports one roll per
// bracket; text "fail" is an error.
type svcRoller struct{}

func (svcRoller) RollText(text string) (string, []json.RawMessage, bool, error) {
	if text == "fail" {
		return "", nil, false, fmt.Errorf("nothing to roll")
	}
	var rolls []json.RawMessage
	n := strings.Count(text, "[[")
	for i := 0; i < n; i++ {
		rolls = append(rolls, json.RawMessage(`{"total":4}`))
	}
	return strings.ReplaceAll(text, "]]", "=4]]"), rolls, false, nil
}

// svcRecorder records published events.
type svcRecorder struct {
	mu     sync.Mutex
	events []core.Event
}

func (r *svcRecorder) Publish(events ...core.Event) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.events = append(r.events, events...)
}

func (r *svcRecorder) names() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []string
	for _, e := range r.events {
		out = append(out, e.Name)
	}
	return out
}

func (r *svcRecorder) reset() {
	r.mu.Lock()
	r.events = nil
	r.mu.Unlock()
}

type svcFixture struct {
	store *sqlite.Store
	svc   *engine.Service
	rec   *svcRecorder
}

const (
	svcCampaign      = "c0000000-0000-0000-0000-000000000001"
	svcGoblin        = "e0000000-0000-0000-0000-000000000001"
	svcHero          = "e0000000-0000-0000-0000-000000000002"
	svcFireball      = "e0000000-0000-0000-0000-000000000003"
	svcHeroCombatant = "b0000000-0000-0000-0000-000000000001"
	svcMap           = "a0000000-0000-0000-0000-000000000001"
	svcTokenA        = "t0000000-0000-0000-0000-00000000000a"
	svcTokenB        = "t0000000-0000-0000-0000-00000000000b"
	svcHiddenToken   = "t0000000-0000-0000-0000-00000000000c"
)

// newSvcFixture opens a fresh SQLite store with a primary campaign, a monster,
// a unique character with its shared combatant, a map on the player screen
// with two visible tokens and a hidden one.
func newSvcFixture(t *testing.T, withCampaign bool) *svcFixture {
	t.Helper()
	store, err := sqlite.Open(filepath.Join(t.TempDir(), "companion.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	var tick int64
	now := func() time.Time {
		tick++
		return time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(tick) * time.Second)
	}
	rec := &svcRecorder{}
	svc := engine.NewService(engine.ServiceConfig{Store: store, Events: rec, Rules: svcRules{}, Roller: svcRoller{}, Now: now})
	err = store.Update(svcCtx, func(tx core.Tx) error {
		if !withCampaign {
			return nil
		}
		c := &core.Campaign{ID: svcCampaign, System: "dnd5e", Name: "Demo", Primary: true}
		c.Normalize()
		if err := tx.PutCampaign(c); err != nil {
			return err
		}
		for _, e := range []*core.Entity{
			{ID: svcGoblin, Kind: "monster", Name: "Goblin", Data: core.Object{"hit_points": 7.0, "type": "humanoid"}},
			{ID: svcHero, Kind: "character", Name: "Hero", Data: core.Object{"hit_points": 30.0, "level": 3.0}, Owner: svcCampaign},
			{ID: svcFireball, Kind: "spell", Name: "Fireball", Data: core.Object{"level": 3.0}},
		} {
			e.Normalize(now())
			if err := tx.PutEntity(e); err != nil {
				return err
			}
		}
		cb := &core.Combatant{ID: svcHeroCombatant, Name: "Hero", EntityID: svcHero, Campaign: svcCampaign, Data: core.Object{"hit_points": 30.0}}
		cb.Normalize()
		if err := tx.PutCombatant(cb); err != nil {
			return err
		}
		m := &core.Map{ID: svcMap, Name: "Cave", Owner: svcCampaign}
		m.Normalize()
		if err := tx.PutMap(m); err != nil {
			return err
		}
		for _, tk := range []*core.Token{
			{ID: svcTokenA, Name: "A", X: 1, MapID: svcMap},
			{ID: svcTokenB, Name: "B", X: 2, MapID: svcMap},
			{ID: svcHiddenToken, Name: "Lurker", Hidden: true, MapID: svcMap},
		} {
			tk.Normalize()
			if err := tx.PutToken(tk); err != nil {
				return err
			}
		}
		return tx.PutScreen(svcCampaign, &core.Screen{MapID: svcMap})
	})
	if err != nil {
		t.Fatal(err)
	}
	return &svcFixture{store: store, svc: svc, rec: rec}
}

func svcWantErr(t *testing.T, err error, kind core.ErrorKind, text string) {
	t.Helper()
	if err == nil {
		t.Fatalf("want a %s error %q, got none", kind, text)
	}
	if core.KindOf(err) != kind || !strings.Contains(core.MessageOf(err), text) {
		t.Fatalf("want a %s error containing %q, got %s: %q", kind, text, core.KindOf(err), core.MessageOf(err))
	}
}

func TestEntityOfAnotherKindIsNotFound(t *testing.T) {
	f := newSvcFixture(t, true)
	if e, err := f.svc.Entity(svcCtx, "monster", svcGoblin); err != nil || e.Name != "Goblin" {
		t.Fatalf("Entity(monster, goblin) = %v, %v", e, err)
	}
	_, err := f.svc.Entity(svcCtx, "spell", svcGoblin)
	svcWantErr(t, err, core.KindNotFound, "no spell with id '"+svcGoblin+"'")
	_, err = f.svc.Entity(svcCtx, "monster", "missing")
	svcWantErr(t, err, core.KindNotFound, "no monster with id 'missing'")
}

func TestEntityByReferenceSlugOrID(t *testing.T) {
	f := newSvcFixture(t, true)
	for _, ref := range []string{"goblin", svcGoblin} {
		e, err := f.svc.EntityByReference(svcCtx, "monster", ref)
		if err != nil || e.ID != svcGoblin {
			t.Fatalf("EntityByReference(monster, %s) = %v, %v", ref, e, err)
		}
	}
	_, err := f.svc.EntityByReference(svcCtx, "spell", "goblin")
	svcWantErr(t, err, core.KindNotFound, "no spell 'goblin'")
}

func TestPutEntityRejectsAnotherIDAndPublishesNothing(t *testing.T) {
	f := newSvcFixture(t, true)
	gen := f.svc.Generation()
	_, err := f.svc.PutEntity(svcCtx, "monster", svcGoblin, &core.Entity{ID: "b", Name: "Renamed"})
	svcWantErr(t, err, core.KindInvalid, "body id 'b' does not match path id '"+svcGoblin+"'")
	if got := f.rec.names(); len(got) != 0 {
		t.Fatalf("events after a refused write: %v", got)
	}
	if f.svc.Generation() != gen {
		t.Fatal("generation moved without a commit")
	}
	e, _ := f.svc.Entity(svcCtx, "monster", svcGoblin)
	if e.Name != "Goblin" {
		t.Fatalf("refused PUT changed the entity: %s", e.Name)
	}
}

func TestPutEntityOfAnotherKindIsNotFound(t *testing.T) {
	f := newSvcFixture(t, true)
	_, err := f.svc.PutEntity(svcCtx, "spell", svcGoblin, &core.Entity{ID: svcGoblin, Name: "X"})
	svcWantErr(t, err, core.KindNotFound, "no spell with id")
	_, err = f.svc.PatchEntity(svcCtx, "spell", svcGoblin, core.Object{"name": "X"})
	svcWantErr(t, err, core.KindNotFound, "no spell with id")
}

func TestPutUniqueEntityUpdatesItsCombatantInTheSameWrite(t *testing.T) {
	f := newSvcFixture(t, true)
	gen := f.svc.Generation()
	out, err := f.svc.PutEntity(svcCtx, "character", svcHero, &core.Entity{ID: svcHero, Name: "Hero the Brave", Data: core.Object{"hit_points": 12.0}})
	if err != nil {
		t.Fatal(err)
	}
	if out.Kind != "character" || out.Data["hit_points"] != 12.0 {
		t.Fatalf("stored entity = %+v", out)
	}
	if got := strings.Join(f.rec.names(), ","); got != "entityUpdated,combatantUpdated" {
		t.Fatalf("events = %s", got)
	}
	if f.svc.Generation() != gen+1 {
		t.Fatalf("generation %d after one write from %d", f.svc.Generation(), gen)
	}
	c, err := f.svc.Combatant(svcCtx, svcHeroCombatant)
	if err != nil {
		t.Fatal(err)
	}
	if c.Data["hit_points"] != 12.0 || c.Name != "Hero the Brave" {
		t.Fatalf("linked combatant not updated: %+v", c)
	}
}

func TestPatchEntityMergesAndNullRemoves(t *testing.T) {
	f := newSvcFixture(t, true)
	out, err := f.svc.PatchEntity(svcCtx, "monster", svcGoblin, core.Object{"data": core.Object{"hit_points": 9.0, "type": nil}, "notes": "sneaky"})
	if err != nil {
		t.Fatal(err)
	}
	stored, _ := f.svc.Entity(svcCtx, "monster", svcGoblin)
	for _, e := range []*core.Entity{out, stored} {
		if e.Name != "Goblin" || e.Notes != "sneaky" || e.Data["hit_points"] != 9.0 {
			t.Fatalf("merge lost or missed keys: %+v", e)
		}
		if _, ok := e.Data["type"]; ok {
			t.Fatalf("null did not remove data.type: %+v", e.Data)
		}
	}
	if got := strings.Join(f.rec.names(), ","); got != "entityUpdated" {
		t.Fatalf("events = %s (a monster is not unique)", got)
	}
	_, err = f.svc.PatchEntity(svcCtx, "monster", svcGoblin, core.Object{"id": "other"})
	svcWantErr(t, err, core.KindInvalid, "body id 'other' does not match path id")
	_, err = f.svc.PatchEntity(svcCtx, "monster", svcGoblin, core.Object{"name": 5})
	svcWantErr(t, err, core.KindInvalid, "field 'name' must be a string")
}

func TestSharedCombatantPushesRangesBack(t *testing.T) {
	f := newSvcFixture(t, true)
	c, _ := f.svc.Combatant(svcCtx, svcHeroCombatant)
	c.Data["hit_points"] = 4.0
	if _, err := f.svc.PutCombatant(svcCtx, svcHeroCombatant, c); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(f.rec.names(), ","); got != "combatantUpdated,entityUpdated" {
		t.Fatalf("events = %s", got)
	}
	e, _ := f.svc.Entity(svcCtx, "character", svcHero)
	if e.Data["hit_points"] != 4.0 || e.Data["level"] != 3.0 {
		t.Fatalf("range not pushed back (or other data lost): %v", e.Data)
	}
	f.rec.reset()
	if _, err := f.svc.PatchCombatant(svcCtx, svcHeroCombatant, core.Object{"data": core.Object{"hit_points": 1.0}}); err != nil {
		t.Fatal(err)
	}
	e, _ = f.svc.Entity(svcCtx, "character", svcHero)
	if e.Data["hit_points"] != 1.0 {
		t.Fatalf("PATCH did not push the range back: %v", e.Data)
	}
	_, err := f.svc.PutCombatant(svcCtx, svcHeroCombatant, &core.Combatant{ID: "other"})
	svcWantErr(t, err, core.KindInvalid, "body id 'other' does not match path id '"+svcHeroCombatant+"'")
	_, err = f.svc.Combatant(svcCtx, "missing")
	svcWantErr(t, err, core.KindNotFound, "no combatant with id 'missing'")
}

func TestPutTokenBodyWins(t *testing.T) {
	f := newSvcFixture(t, true)
	out, err := f.svc.PutToken(svcCtx, svcTokenA, &core.Token{ID: svcTokenB, Name: "B moved", X: 50})
	if err != nil {
		t.Fatal(err)
	}
	if out.ID != svcTokenB {
		t.Fatalf("PUT wrote %s, want the body's id %s", out.ID, svcTokenB)
	}
	a, _ := f.svc.Token(svcCtx, svcTokenA)
	b, _ := f.svc.Token(svcCtx, svcTokenB)
	if a.Name != "A" || b.Name != "B moved" || b.X != 50 {
		t.Fatalf("after PUT: A=%+v B=%+v", a, b)
	}
	if got := strings.Join(f.rec.names(), ","); got != "tokenUpdated" {
		t.Fatalf("events = %s", got)
	}
	if _, err := f.svc.PatchToken(svcCtx, svcTokenA, core.Object{"x": 7.5}); err != nil {
		t.Fatal(err)
	}
	a, _ = f.svc.Token(svcCtx, svcTokenA)
	if a.X != 7.5 || a.Name != "A" {
		t.Fatalf("PATCH token: %+v", a)
	}
	_, err = f.svc.PutToken(svcCtx, svcTokenA, &core.Token{ID: "nope"})
	svcWantErr(t, err, core.KindNotFound, "no token with id 'nope'")
}

func TestCreateMessageRollsAndAttachesTheCampaign(t *testing.T) {
	f := newSvcFixture(t, true)
	m, err := core.DecodeMessage([]byte(`{"text":"attack [[1d20+5]]","source":"Ann","campaign":"forged"}`))
	if err != nil {
		t.Fatal(err)
	}
	out, err := f.svc.CreateMessage(svcCtx, m)
	if err != nil {
		t.Fatal(err)
	}
	if out.Campaign != svcCampaign || out.Text != "attack [[1d20+5=4]]" || len(out.Rolls) != 1 || out.ID == "" || out.Created.IsZero() {
		t.Fatalf("stored message = %+v", out)
	}
	if got := strings.Join(f.rec.names(), ","); got != "messageCreated" {
		t.Fatalf("events = %s", got)
	}
	_, err = f.svc.CreateMessage(svcCtx, &core.Message{Text: "fail"})
	svcWantErr(t, err, core.KindInvalid, "nothing to roll")
	_, err = core.DecodeMessage([]byte(`{"text": 5}`))
	svcWantErr(t, err, core.KindInvalid, "field 'text' must be a string")
	_, err = core.DecodeMessage([]byte(`[1]`))
	svcWantErr(t, err, core.KindInvalid, "expected an object")
}

func TestCreateMessageWithoutPrimaryCampaign(t *testing.T) {
	f := newSvcFixture(t, false)
	_, err := f.svc.CreateMessage(svcCtx, &core.Message{Text: "hello"})
	svcWantErr(t, err, core.KindNotFound, "no primary campaign for system 'dnd5e'")
	_, err = f.svc.Snapshot(svcCtx)
	svcWantErr(t, err, core.KindNotFound, "no primary campaign for system 'dnd5e'")
	if len(f.rec.names()) != 0 {
		t.Fatalf("events after failed writes: %v", f.rec.names())
	}
}

func TestSnapshotHasThirtyMessagesOldestFirstAndNoHiddenTokens(t *testing.T) {
	f := newSvcFixture(t, true)
	for i := 1; i <= 35; i++ {
		if _, err := f.svc.CreateMessage(svcCtx, &core.Message{Text: fmt.Sprintf("message %d", i)}); err != nil {
			t.Fatal(err)
		}
	}
	snap, err := f.svc.Snapshot(svcCtx)
	if err != nil {
		t.Fatal(err)
	}
	if len(snap.Messages) != 30 || snap.Messages[0].Text != "message 6" || snap.Messages[29].Text != "message 35" {
		t.Fatalf("messages: %d, first %q", len(snap.Messages), snap.Messages[0].Text)
	}
	if snap.Version != core.Version || snap.Build != core.Build {
		t.Fatalf("version %s build %d", snap.Version, snap.Build)
	}
	if snap.Map == nil || len(snap.Map.Tokens) != 2 {
		t.Fatalf("map tokens = %+v", snap.Map)
	}
	for _, tk := range snap.Map.Tokens {
		if tk.Hidden {
			t.Fatalf("hidden token %s in the snapshot", tk.ID)
		}
	}
	if len(snap.Game.Combatants) != 1 || snap.TrackedObjects == nil {
		t.Fatalf("game combatants %d, tracked %v", len(snap.Game.Combatants), snap.TrackedObjects)
	}
}

func TestUpdateSettingsPublishesOnlyChanges(t *testing.T) {
	f := newSvcFixture(t, true)
	yes, no := true, false
	s, err := f.svc.UpdateSettings(svcCtx, kernel.SettingsPatch{RemoteInteraction: &no, Paused: &yes})
	if err != nil || s.RemoteInteraction || !s.Paused {
		t.Fatalf("settings = %+v, %v", s, err)
	}
	if got := strings.Join(f.rec.names(), ","); got != "interactionUpdated,systemPaused" {
		t.Fatalf("events = %s", got)
	}
	f.rec.reset()
	f.svc.UpdateSettings(svcCtx, kernel.SettingsPatch{Paused: &yes})
	if len(f.rec.names()) != 0 {
		t.Fatalf("unchanged setting published %v", f.rec.names())
	}
	snap, _ := f.svc.Snapshot(svcCtx)
	if !snap.Paused || snap.Screen.RemoteInteraction {
		t.Fatalf("snapshot does not reflect settings: paused %v remote %v", snap.Paused, snap.Screen.RemoteInteraction)
	}
}

func TestPatchEntityRefusesDataNestedTooDeep(t *testing.T) {
	f := newSvcFixture(t, true)
	var deep any = "leaf"
	for i := 0; i < core.MaxDataDepth+1; i++ {
		deep = []any{deep}
	}
	_, err := f.svc.PatchEntity(svcCtx, "monster", svcGoblin, core.Object{"data": core.Object{"x": deep}})
	svcWantErr(t, err, core.KindInvalid, "nested deeper than 64 levels")
	var ok any = "leaf"
	for i := 0; i < core.MaxDataDepth-2; i++ {
		ok = []any{ok}
	}
	if _, err := f.svc.PatchEntity(svcCtx, "monster", svcGoblin, core.Object{"data": core.Object{"x": ok}}); err != nil {
		t.Fatalf("data within the limit refused: %v", err)
	}
}
