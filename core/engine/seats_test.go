package engine_test

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/core/engine"
	"github.com/vttapp/companion/core/engine/internal/kernel"
	"github.com/vttapp/companion/core/turns"
	"github.com/vttapp/companion/dice"
	"github.com/vttapp/companion/internal/testkit"
	"github.com/vttapp/companion/store/sqlite"
	"github.com/vttapp/companion/systems"
)

// seatGame is the fixture campaign with the D&D 5e system, a second
// character, and a dice roller whose faces the test chooses.
type seatGame struct {
	svc    *engine.Service
	store  *sqlite.Store
	faces  *faces
	events *testkit.EventLog
	bus    *core.Bus
}

// The fixture's second character (the first is testkit.HeroID, whose
// combatant is testkit.HeroCombatID).
const rivalID = "e0000000-0000-4000-8000-0000000000f2"

// faces rolls the faces it is given, then 10s.
type faces struct{ next []int }

func (f *faces) Roll(sides int) int {
	if len(f.next) == 0 {
		return min(10, sides)
	}
	v := f.next[0]
	f.next = f.next[1:]
	return v
}

func newSeatGame(t *testing.T) *seatGame {
	t.Helper()
	st, err := sqlite.Open(filepath.Join(t.TempDir(), "companion.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	err = st.Update(context.Background(), func(tx core.Tx) error {
		if err := testkit.SeedFixture(tx); err != nil {
			return err
		}
		hero, err := tx.Entity(testkit.HeroID)
		if err != nil {
			return err
		}
		hero.Data = core.Object{"hit_points": 20.0, "max_hit_points": 30.0, "strength": 16.0, "dexterity": 12.0,
			"classes": []any{map[string]any{"name": "Cleric", "level": 1.0}}, "wisdom": 14.0,
			"actions": []any{map[string]any{"name": "Mace", "desc": "Melee Weapon Attack: +5 to hit. Hit: 6 (1d6 + 3) bludgeoning damage."}}}
		if err := tx.PutEntity(hero); err != nil {
			return err
		}
		rival := &core.Entity{ID: rivalID, Kind: "character", System: "dnd5e", Name: "Rival", Slug: "rival", Owner: testkit.CampaignID,
			Data: core.Object{"hit_points": 9.0, "max_hit_points": 9.0}}
		if err := rival.Normalize(rival.Created); err != nil {
			return err
		}
		return tx.PutEntity(rival)
	})
	if err != nil {
		t.Fatal(err)
	}
	f := &faces{}
	events := &testkit.EventLog{}
	bus := core.NewBus()
	bus.Subscribe(func(evs []core.Event) { events.Publish(evs...) })
	svc := engine.NewService(engine.ServiceConfig{Store: st, Events: bus, Rules: systems.NewHolder(testkit.DnD5e(t)),
		Roller: dice.NewRollerWithSource(f)})
	return &seatGame{svc: svc, store: st, faces: f, events: events, bus: bus}
}

// take gives a seat to a player and returns who they are then.
func (g *seatGame) take(t *testing.T, seatID, name string) core.Actor {
	t.Helper()
	taken, err := g.svc.TakeSeat(context.Background(), core.Actor{Name: name}, seatID, "")
	if err != nil {
		t.Fatal(err)
	}
	if taken.SeatToken == "" || taken.Seat.ID != seatID || !taken.Seat.Taken || taken.Seat.Player != name {
		t.Fatalf("took %+v", taken)
	}
	return core.Actor{Name: name, Seat: core.SeatHash(taken.SeatToken)}
}

func TestSeatsTakeResumeLeave(t *testing.T) {
	g := newSeatGame(t)
	ctx := context.Background()
	list, err := g.svc.Seats(ctx)
	if err != nil || len(list.Seats) != 2 || list.Seats[0].Name != "Hero" || list.Seats[1].Name != "Rival" || list.Seats[0].Taken {
		t.Fatalf("seats %+v %v", list, err)
	}
	taken, err := g.svc.TakeSeat(ctx, core.Actor{Name: "Ann"}, testkit.HeroID, "")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(g.events.Take(), core.EventSeatsUpdated) {
		t.Fatal("taking a seat told no one")
	}
	if _, err := g.svc.TakeSeat(ctx, core.Actor{Name: "Bob"}, testkit.HeroID, ""); core.KindOf(err) != core.KindConflict || !strings.Contains(err.Error(), "Ann") {
		t.Fatalf("a taken seat given again: %v", err)
	}
	for _, role := range []string{core.ClientSpectator, core.ClientDisplay} {
		if _, err := g.svc.TakeSeat(ctx, core.Actor{Role: role}, rivalID, "x"); core.KindOf(err) != core.KindForbidden {
			t.Fatalf("a %s took a seat: %v", role, err)
		}
	}
	if _, err := g.svc.TakeSeat(ctx, core.Actor{}, testkit.GoblinID, "x"); !core.IsNotFound(err) {
		t.Fatalf("a monster is no seat: %v", err)
	}
	back, err := g.svc.ResumeSeat(ctx, core.Actor{}, taken.SeatToken)
	if err != nil || back.Seat.ID != testkit.HeroID || back.SeatToken != "" {
		t.Fatalf("resume: %+v %v", back, err)
	}
	// Taking another seat frees the first.
	ann := core.Actor{Seat: core.SeatHash(taken.SeatToken)}
	again, err := g.svc.TakeSeat(ctx, ann, rivalID, "Ann")
	if err != nil {
		t.Fatal(err)
	}
	list, _ = g.svc.Seats(ctx)
	if list.Seats[0].Taken || !list.Seats[1].Taken {
		t.Fatalf("after switching: %+v", list.Seats)
	}
	if _, err := g.svc.ResumeSeat(ctx, core.Actor{}, taken.SeatToken); !core.IsNotFound(err) {
		t.Fatalf("the old token still holds a seat: %v", err)
	}
	if err := g.svc.LeaveSeat(ctx, core.Actor{Seat: core.SeatHash(again.SeatToken)}); err != nil {
		t.Fatal(err)
	}
	if _, err := g.svc.ResumeSeat(ctx, core.Actor{}, again.SeatToken); !core.IsNotFound(err) {
		t.Fatalf("a seat left still held: %v", err)
	}
	// The stored seat keeps no token, only its hash.
	g.take(t, testkit.HeroID, "Cy")
	g.store.View(ctx, func(tx core.Tx) error {
		seats, _ := tx.Seats("")
		for _, s := range seats {
			b, _ := json.Marshal(s)
			if strings.Contains(string(b), "seatToken") || (s.Holder != "" && len(s.Holder) != 64) {
				t.Errorf("stored seat %s", b)
			}
		}
		return nil
	})
}

func TestJoinKeyAdmitsAndDrops(t *testing.T) {
	g := newSeatGame(t)
	ctx := context.Background()
	if grant, ok := g.svc.Admit(ctx, ""); !ok || !grant.Open || grant.Role != core.ClientPlayer {
		t.Fatalf("key off: %+v %v", grant, ok)
	}
	open, _ := g.svc.Admit(ctx, "")
	st, err := g.svc.SetJoinKey(ctx, true)
	if err != nil || !st.Enabled || len(st.Key) < 30 || st.SpectatorKey == "" || st.Key == st.SpectatorKey {
		t.Fatalf("on: %+v %v", st, err)
	}
	if g.svc.StillAdmitted(open) {
		t.Fatal("a connection that joined while the key was off stays")
	}
	for _, bad := range []string{"", "nope", st.Key + "x", strings.ToUpper(st.Key)} {
		if _, ok := g.svc.Admit(ctx, bad); ok {
			t.Fatalf("admitted %q", bad)
		}
	}
	player, ok := g.svc.Admit(ctx, st.Key)
	if !ok || player.Role != core.ClientPlayer {
		t.Fatalf("the key: %+v", player)
	}
	spectator, ok := g.svc.Admit(ctx, st.SpectatorKey)
	if !ok || spectator.Role != core.ClientSpectator {
		t.Fatalf("the spectators' key: %+v", spectator)
	}
	// Three devices on this machine (loopback: not bound to one another).
	passA, err := g.svc.IssuePass(ctx, player, "127.0.0.1", "")
	if err != nil {
		t.Fatal(err)
	}
	passB, _ := g.svc.IssuePass(ctx, player, "127.0.0.1", "")
	passS, _ := g.svc.IssuePass(ctx, spectator, "127.0.0.1", "")
	gA, okA := g.svc.Admit(ctx, passA)
	gS, okS := g.svc.Admit(ctx, passS)
	if !okA || gA.Pass == "" || !okS || gS.Role != core.ClientSpectator {
		t.Fatalf("passes: %+v %+v", gA, gS)
	}
	if _, err := g.svc.IssuePass(ctx, gA, "127.0.0.1", ""); err == nil {
		t.Fatal("a pass was traded for another")
	}
	// A kick revokes one pass and draws new keys; the other passes stay.
	gB, _ := g.svc.Admit(ctx, passB)
	kicked, err := g.svc.Kick(ctx, core.KickTarget{Pass: gA.Pass, Address: "127.0.0.1"})
	if err != nil || !kicked.NewKeys || len(kicked.Passes) != 1 {
		t.Fatalf("kick: %+v %v", kicked, err)
	}
	if _, ok := g.svc.Admit(ctx, passA); ok || g.svc.StillAdmitted(gA) {
		t.Fatal("the kicked pass still admits")
	}
	if _, ok := g.svc.Admit(ctx, st.Key); ok || g.svc.StillAdmitted(player) {
		t.Fatal("the old key still admits after a kick")
	}
	if !g.svc.StillAdmitted(gB) || !g.svc.StillAdmitted(gS) {
		t.Fatal("a kick dropped the other devices")
	}
	// New keys on purpose drop everyone.
	if _, err := g.svc.NewJoinKeys(ctx); err != nil {
		t.Fatal(err)
	}
	if g.svc.StillAdmitted(gB) || g.svc.StillAdmitted(gS) {
		t.Fatal("new keys kept the old passes")
	}
	// The key survives a restart (a new service over the same store).
	st2, _ := g.svc.JoinStatus(ctx)
	again := engine.NewService(engine.ServiceConfig{Store: g.store, Rules: systems.NewHolder(testkit.DnD5e(t))})
	if grant, ok := again.Admit(ctx, st2.Key); !ok || grant.Role != core.ClientPlayer {
		t.Fatal("the key did not survive a restart")
	}
	if _, err := g.svc.SetJoinKey(ctx, false); err != nil {
		t.Fatal(err)
	}
	if !g.svc.StillAdmitted(gB) {
		t.Fatal("with the key off everyone is admitted")
	}
}

// TestStrictWritesFollowSeats: with the join key on, the contract's open
// writes follow the seats; every refusal stores nothing.
func TestStrictWritesFollowSeats(t *testing.T) {
	g := newSeatGame(t)
	ctx := context.Background()
	ann := g.take(t, testkit.HeroID, "Ann")
	bob := g.take(t, rivalID, "Bob")
	spectator := core.Actor{Role: core.ClientSpectator, Seat: ann.Seat}

	// Key off: the contract (anyone writes), but never a spectator.
	if _, err := g.svc.PlayerAs(bob).PatchEntity(ctx, "", testkit.HeroID, core.Object{"notes": "open"}); err != nil {
		t.Fatalf("key off, a player's write was refused: %v", err)
	}
	for what, err := range map[string]error{
		"entity":    second(g.svc.PlayerAs(spectator).PatchEntity(ctx, "", testkit.HeroID, core.Object{"notes": "x"})),
		"combatant": second(g.svc.PlayerAs(spectator).PatchCombatant(ctx, testkit.HeroCombatID, core.Object{"name": "x"})),
		"token":     second(g.svc.PlayerAs(spectator).PatchToken(ctx, testkit.TokenA, core.Object{"name": "x"})),
		"message":   second(g.svc.PlayerAs(spectator).PostMessage(ctx, &core.Message{Text: "hi"})),
		"pointer":   g.svc.PlayerAs(spectator).MovePointer(core.EventSource{ID: "c"}, core.Pointer{X: 1, Y: 1}),
		"tracked":   g.svc.PlayerAs(spectator).TrackObject(core.EventTrackedObjectCreated, []*core.TrackedObject{{ID: 1}}),
	} {
		if core.KindOf(err) != core.KindForbidden {
			t.Errorf("a spectator's %s write: %v", what, err)
		}
	}

	if _, err := g.svc.SetJoinKey(ctx, true); err != nil {
		t.Fatal(err)
	}
	refused := func(what string, err error) {
		t.Helper()
		if core.KindOf(err) != core.KindForbidden {
			t.Errorf("%s: %v, want forbidden", what, err)
		}
	}
	_, err := g.svc.PlayerAs(bob).PatchEntity(ctx, "", testkit.HeroID, core.Object{"data": core.Object{"max_hit_points": 99.0}})
	refused("another's character", err)
	_, err = g.svc.PlayerAs(ann).PatchEntity(ctx, "", testkit.HeroID, core.Object{"name": "Renamed"})
	refused("a field that is not data", err)
	_, err = g.svc.PlayerAs(ann).PatchEntity(ctx, "", testkit.HeroID, core.Object{"data": core.Object{"strength": 20.0}})
	refused("a data key that is not editable", err)
	_, err = g.svc.PlayerAs(ann).PatchEntity(ctx, "", testkit.HeroID, core.Object{"data": core.Object{"hit_points": 30.0}})
	refused("the hit points written directly", err)
	_, err = g.svc.PlayerAs(ann).PatchEntity(ctx, "", testkit.GoblinID, core.Object{"notes": "mine"})
	refused("a monster", err)
	_, err = g.svc.PlayerAs(core.Actor{}).PatchEntity(ctx, "", testkit.HeroID, core.Object{"data": core.Object{"max_hit_points": 31.0}})
	refused("no seat", err)
	_, err = g.svc.PlayerAs(bob).PatchCombatant(ctx, testkit.HeroCombatID, core.Object{"data": core.Object{"max_hit_points": 50.0}})
	refused("another's combatant", err)
	if _, err := g.svc.PlayerAs(ann).PatchToken(ctx, testkit.TokenA, core.Object{"x": 5.0}); err != nil {
		t.Fatalf("in mode all a player moves any token, key or not: %v", err)
	}
	if _, err := g.svc.UpdateSettings(ctx, kernel.SettingsPatch{Interaction: ptr(core.InteractionToken)}); err != nil {
		t.Fatal(err)
	}
	_, err = g.svc.PlayerAs(ann).PatchToken(ctx, testkit.TokenA, core.Object{"x": 6.0})
	refused("a token they may not drag", err)
	_, err = g.svc.PlayerAs(ann).SetAttribute(ctx, core.Attribute{EntityID: testkit.HeroID, Attributes: core.Object{"str": 3.0}})
	refused("attributes", err)

	e, err := g.svc.PlayerAs(ann).PatchEntity(ctx, "", testkit.HeroID, core.Object{"data": core.Object{"max_hit_points": 31.0, "death_saves": core.Object{"successes": 1.0}}})
	if err != nil || e.Data["max_hit_points"] != 31.0 {
		t.Fatalf("the owner's editable write: %v", err)
	}
	stored, _ := g.svc.Entity(ctx, "", testkit.HeroID)
	if stored.Name != "Hero" || stored.Data["strength"] != 16.0 || stored.Data["hit_points"] != 20.0 {
		t.Fatalf("a refused write left a trace: %+v", stored.Data)
	}
}

func second[T any](_ T, err error) error { return err }

func TestOwnHitPointsFollowTheGameMastersRules(t *testing.T) {
	g := newSeatGame(t)
	ctx := context.Background()
	ann := g.take(t, testkit.HeroID, "Ann")
	bob := g.take(t, rivalID, "Bob")

	// In the game: the combatant's numbers (30, the character's maximum),
	// the game master's rules (temporary hit points first), and the
	// character follows.
	hp, err := g.svc.ChangeOwnHitPoints(ctx, ann, core.HitPointChange{Temp: ptr(5.0)})
	if err != nil || hp.Temp != 5 {
		t.Fatalf("temp: %+v %v", hp, err)
	}
	hp, err = g.svc.ChangeOwnHitPoints(ctx, ann, core.HitPointChange{Damage: ptr(7.0)})
	if err != nil || hp.Current != 28 || hp.Temp != 0 {
		t.Fatalf("7 damage with 5 temporary: %+v %v", hp, err)
	}
	hp, _ = g.svc.ChangeOwnHitPoints(ctx, ann, core.HitPointChange{Healing: ptr(100.0)})
	if hp.Current != 30 || hp.Max != 30 {
		t.Fatalf("healing past the maximum: %+v", hp)
	}
	c, _ := g.svc.Combatant(ctx, testkit.HeroCombatID)
	e, _ := g.svc.Entity(ctx, "", testkit.HeroID)
	if c.Data["hit_points"] != 30.0 || e.Data["hit_points"] != 30.0 {
		t.Fatalf("combatant %v, character %v", c.Data, e.Data)
	}
	// Not in the game: the character's own numbers, the same rules.
	hp, err = g.svc.ChangeOwnHitPoints(ctx, bob, core.HitPointChange{Damage: ptr(20.0)})
	if err != nil || hp.Current != 0 || !hp.Defeated {
		t.Fatalf("bob down: %+v %v", hp, err)
	}
	for what, err := range map[string]error{
		"no seat":     second(g.svc.ChangeOwnHitPoints(ctx, core.Actor{}, core.HitPointChange{Damage: ptr(1.0)})),
		"spectator":   second(g.svc.ChangeOwnHitPoints(ctx, core.Actor{Role: core.ClientSpectator, Seat: ann.Seat}, core.HitPointChange{Damage: ptr(1.0)})),
		"a freed one": second(g.svc.ChangeOwnHitPoints(ctx, freed(t, g, ann, testkit.HeroID), core.HitPointChange{Damage: ptr(1.0)})),
	} {
		if core.KindOf(err) != core.KindForbidden {
			t.Errorf("%s changed hit points: %v", what, err)
		}
	}
	if _, err := g.svc.ChangeOwnHitPoints(ctx, bob, core.HitPointChange{Damage: ptr(-1.0)}); core.KindOf(err) != core.KindInvalid {
		t.Fatalf("negative damage: %v", err)
	}
}

// freed frees a seat and returns its former holder.
func freed(t *testing.T, g *seatGame, who core.Actor, seat string) core.Actor {
	t.Helper()
	if err := g.svc.FreeSeat(context.Background(), seat); err != nil {
		t.Fatal(err)
	}
	return who
}

func TestRollActionCriticalAndAdvantage(t *testing.T) {
	g := newSeatGame(t)
	ctx := context.Background()
	ann := g.take(t, testkit.HeroID, "Ann")
	sheet, err := g.svc.CharacterSheet(ctx, ann)
	if err != nil {
		t.Fatal(err)
	}
	if sheet.HitPoints == nil || sheet.HitPoints.Current != 30 || sheet.HitPoints.Max != 30 || !sheet.HitPointsEditable || len(sheet.Actions) < 30 {
		t.Fatalf("sheet %+v", sheet)
	}
	// The sheet draws what the system declares: its name for the health,
	// its tallies (the death saves), its roll options.
	if sheet.HitPoints.Title != "Hit points" || len(sheet.Tallies) != 1 || sheet.Tallies[0].Key != "death_saves" || sheet.Tallies[0].Most != 3 ||
		sheet.Tallies[0].Shown != "down" || len(sheet.Tallies[0].Marks) != 2 || len(sheet.RollOptions) != 3 || sheet.RollOptions[0].ID != "advantage" {
		t.Fatalf("the sheet's declarations: %+v %+v %+v", sheet.HitPoints, sheet.Tallies, sheet.RollOptions)
	}
	if strings.Join(sheet.Editable, ",") != "max_hit_points,death_saves" || sheet.Reference != "/character/hero" {
		t.Fatalf("editable %v, reference %s", sheet.Editable, sheet.Reference)
	}

	// A natural 20 with advantage (the other die a 3), then the damage
	// doubled: 2d6+3.
	g.faces.next = []int{3, 20, 4, 5}
	res, err := g.svc.RollAction(ctx, ann, core.ActionRequest{Action: "attack-mace", Options: []string{"advantage"}, Follow: true})
	if err != nil {
		t.Fatal(err)
	}
	if res.Outcome == nil || res.Outcome.ID != "critical" || res.Outcome.Title != "critical hit!" || len(res.Messages) != 2 ||
		res.Messages[0].Outcome != "critical hit!" || res.Messages[1].Outcome != "" {
		t.Fatalf("result %+v", res)
	}
	attack, damage := res.Messages[0], res.Messages[1]
	content := func(m *core.Message) core.RollContent {
		var c core.RollContent
		b, _ := json.Marshal(m)
		var w struct{ Content core.RollContent }
		json.Unmarshal(b, &w)
		c = w.Content
		return c
	}
	if a := content(attack); a.Name != "Mace attack (advantage)" || a.Type != "attack" || a.Result != 25 ||
		a.Formula != "2d20kh1cs>=20cf+5" || a.Detail != "[3d, 20**]+5 = 25" {
		t.Fatalf("attack content %+v", a)
	}
	if d := content(damage); d.Name != "Mace damage (bludgeoning) (critical)" || d.Type != "damage" || d.Formula != "2d6+3" || d.Result != 12 {
		t.Fatalf("damage content %+v", d)
	}
	if attack.Source != "Hero" || attack.Type != core.MessageRoll || !strings.Contains(attack.Text, "Mace attack (advantage): ") {
		t.Fatalf("attack message %+v", attack)
	}
	if !strings.Contains(g.events.Take(), core.EventMessageCreated) {
		t.Fatal("the rolls were not broadcast")
	}

	// Disadvantage keeps the lower; a 1 kept is a critical miss, and the
	// damage of a miss is not doubled.
	g.faces.next = []int{1, 15, 2}
	res, _ = g.svc.RollAction(ctx, ann, core.ActionRequest{Action: "attack-mace", Options: []string{"disadvantage"}, Follow: true})
	if res.Outcome == nil || res.Outcome.ID != "fumble" || content(res.Messages[1]).Formula != "1d6+3" {
		t.Fatalf("a fumble: %+v %+v", res, content(res.Messages[1]))
	}
	// A damage roll asked as critical alone.
	g.faces.next = []int{6, 6}
	res, _ = g.svc.RollAction(ctx, ann, core.ActionRequest{Action: "damage-mace", Options: []string{"critical"}})
	if c := content(res.Messages[0]); c.Formula != "2d6+3" || c.Result != 15 {
		t.Fatalf("critical damage alone: %+v", c)
	}
	// Refusals.
	for what, req := range map[string]core.ActionRequest{
		"unknown":             {Action: "fireball"},
		"advantage on damage": {Action: "damage-mace", Options: []string{"advantage"}},
		"critical check":      {Action: "check-str", Options: []string{"critical"}},
		"unknown option":      {Action: "check-str", Options: []string{"lots"}},
		"an option twice":     {Action: "check-str", Options: []string{"advantage", "advantage"}},
	} {
		if _, err := g.svc.RollAction(ctx, ann, req); err == nil || core.KindOf(err) == core.KindInternal {
			t.Errorf("%s: %v", what, err)
		}
	}
	if _, err := g.svc.RollAction(ctx, core.Actor{Role: core.ClientSpectator, Seat: ann.Seat}, core.ActionRequest{Action: "check-str"}); core.KindOf(err) != core.KindForbidden {
		t.Fatalf("a spectator rolled: %v", err)
	}
	if _, err := g.svc.RollAction(ctx, core.Actor{}, core.ActionRequest{Action: "check-str"}); core.KindOf(err) != core.KindForbidden {
		t.Fatalf("no seat rolled: %v", err)
	}
}

func TestOwnInitiativeAndEndTurn(t *testing.T) {
	g := newSeatGame(t)
	ctx := context.Background()
	ann := g.take(t, testkit.HeroID, "Ann")
	bob := g.take(t, rivalID, "Bob")
	if _, err := g.svc.RollOwnInitiative(ctx, bob); core.KindOf(err) != core.KindConflict {
		t.Fatalf("a character in no game rolled initiative: %v", err)
	}
	g.events.Take()
	// Combat starts with the goblin in: the seated hero is asked to roll.
	if _, err := g.svc.AddCombatants(ctx, []core.NewCombatant{{EntityID: testkit.GoblinID}}); err != nil {
		t.Fatal(err)
	}
	if _, err := g.svc.RollInitiative(ctx, nil); err != nil { // the game master rolls for everyone...
		t.Fatal(err)
	}
	if _, err := g.svc.SetInitiative(ctx, testkit.HeroCombatID, nil); err != nil { // ...but the hero rolls their own
		t.Fatal(err)
	}
	g.events.Take()
	if _, err := g.svc.ControlCombat(ctx, turns.CombatStart); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(g.events.Take(), core.EventInitiativeRequested) {
		t.Fatal("starting combat asked no seated player to roll")
	}
	g.faces.next = []int{17}
	res, err := g.svc.RollOwnInitiative(ctx, ann)
	if err != nil {
		t.Fatal(err)
	}
	if c := res.Messages[0]; c.Rolls[0].Total == nil || *c.Rolls[0].Total != 18 { // 17 + Dex 12's +1
		t.Fatalf("initiative roll %+v", c)
	}
	if _, err := g.svc.RollOwnInitiative(ctx, ann); core.KindOf(err) != core.KindConflict {
		t.Fatalf("a second initiative roll: %v", err)
	}
	sheet, _ := g.svc.CharacterSheet(ctx, ann)
	if sheet.Initiative == nil || *sheet.Initiative != 18 {
		t.Fatalf("the sheet's initiative %v", sheet.Initiative)
	}
	// The goblin rolled 10: the hero (18) acts first once the turn comes
	// round; end turns until it is the hero's, refusing the others.
	for range 3 {
		sheet, _ = g.svc.CharacterSheet(ctx, ann)
		if sheet.MyTurn {
			break
		}
		if _, err := g.svc.EndTurn(ctx, ann, ""); core.KindOf(err) != core.KindConflict {
			t.Fatalf("ended a turn that was not theirs: %v", err)
		}
		if _, err := g.svc.ControlCombat(ctx, turns.CombatNext); err != nil {
			t.Fatal(err)
		}
	}
	if !sheet.MyTurn {
		t.Fatal("the hero's turn never came")
	}
	game, err := g.svc.EndTurn(ctx, ann, "")
	if err != nil || game.CombatantID == testkit.HeroCombatID {
		t.Fatalf("end turn: %v %+v", err, game)
	}
	if _, err := g.svc.EndTurn(ctx, ann, ""); core.KindOf(err) != core.KindConflict {
		t.Fatalf("a second end turn passed another's turn: %v", err)
	}
}

// The attack of issue 32 (its lows): 500 seat take and leave pairs sent
// 1,000 seat lists to every client. The lists are coalesced: the first
// change goes out at once, those that follow within a quarter of a second
// together, and the last list sent is the seats as they are.
func TestSeatChangesAreCoalesced(t *testing.T) {
	g := newSeatGame(t)
	ctx := context.Background()
	var mu sync.Mutex
	var lists []*core.SeatList
	g.bus.Subscribe(func(evs []core.Event) {
		for _, e := range evs {
			if e.Name == core.EventSeatsUpdated {
				mu.Lock()
				lists = append(lists, e.Data.(*core.SeatList))
				mu.Unlock()
			}
		}
	})
	start := time.Now()
	for range 500 {
		ann := g.take(t, testkit.HeroID, "Ann")
		if err := g.svc.LeaveSeat(ctx, ann); err != nil {
			t.Fatal(err)
		}
	}
	took := time.Since(start)
	// The last held change goes out within the hold: wait for the list
	// that shows the seat free (the state after the last LeaveSeat).
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		mu.Lock()
		done := len(lists) > 0 && !lists[len(lists)-1].Seats[0].Taken
		mu.Unlock()
		if done || time.Now().After(deadline) {
			break
		}
	}
	mu.Lock()
	defer mu.Unlock()
	most := int(took/(250*time.Millisecond)) + 3
	t.Logf("1000 seat changes in %v: %d seat lists sent (at most %d allowed)", took.Round(time.Millisecond), len(lists), most)
	if len(lists) > most {
		t.Fatalf("%d seat lists for 1000 changes in %v", len(lists), took)
	}
	if last := lists[len(lists)-1]; last.Seats[0].Taken {
		t.Fatalf("the last list sent shows the seat taken: %+v", last.Seats[0])
	}
}
