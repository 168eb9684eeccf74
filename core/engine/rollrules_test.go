package engine_test

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/core/engine"
	"github.com/vttapp/companion/dice"
	"github.com/vttapp/companion/internal/testkit"
	"github.com/vttapp/companion/store/sqlite"
	"github.com/vttapp/companion/systems"
)

// plainRules is the D&D 5e system with its roll hooks replaced by a test's:
// the core must roll what plan says and record what outcome names, and
// know nothing else of the rules.
type plainRules struct {
	*systems.System
	plan    func(a core.Action, options []string) (core.RollPlan, error)
	outcome func(a core.Action, options []string, r core.Rolled) (*core.Outcome, error)
	seen    []core.Rolled
}

func (p *plainRules) PlanRoll(_ context.Context, _ *core.Entity, a core.Action, options []string) (core.RollPlan, error) {
	return p.plan(a, options)
}

func (p *plainRules) OutcomeOf(_ context.Context, _ *core.Entity, a core.Action, options []string, r core.Rolled) (*core.Outcome, error) {
	p.seen = append(p.seen, r)
	return p.outcome(a, options, r)
}

func newPlainGame(t *testing.T, rules *plainRules) *seatGame {
	t.Helper()
	g := newSeatGame(t)
	st, err := sqlite.Open(filepath.Join(t.TempDir(), "plain.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	// The same fixture, served by a service whose rules are the test's.
	if err := g.store.View(context.Background(), func(from core.Tx) error {
		return st.Update(context.Background(), func(tx core.Tx) error {
			if err := testkit.SeedFixture(tx); err != nil {
				return err
			}
			hero, err := from.Entity(testkit.HeroID)
			if err != nil {
				return err
			}
			return tx.PutEntity(hero)
		})
	}); err != nil {
		t.Fatal(err)
	}
	f := &faces{}
	g2 := &seatGame{store: st, faces: f, events: &testkit.EventLog{}, bus: core.NewBus()}
	g2.svc = engine.NewService(engine.ServiceConfig{Store: st, Events: g2.bus, Rules: rules, Roller: dice.NewRollerWithSource(f)})
	return g2
}

// TestRollActionRollsWhatTheSystemPlans: the formula, title and outcome
// are the system's, the core passes the options through and hands the
// outcome's next options to the follow-up; a refusal by the system posts
// nothing.
func TestRollActionRollsWhatTheSystemPlans(t *testing.T) {
	rules := &plainRules{System: testkit.DnD5e(t)}
	rules.plan = func(a core.Action, options []string) (core.RollPlan, error) {
		return core.RollPlan{Roll: "3d6", Title: a.Title + " [" + strings.Join(options, "+") + "]"}, nil
	}
	rules.outcome = func(a core.Action, _ []string, r core.Rolled) (*core.Outcome, error) {
		if a.Type == core.ActionAttack {
			return &core.Outcome{ID: "x", Title: "Hard success", Next: []string{"critical"}}, nil
		}
		return nil, nil
	}
	g := newPlainGame(t, rules)
	ctx := context.Background()
	ann := g.take(t, testkit.HeroID, "Ann")
	g.faces.next = []int{1, 2, 6, 4, 4, 4}
	res, err := g.svc.RollAction(ctx, ann, core.ActionRequest{Action: "attack-mace", Options: []string{"disadvantage"}, Follow: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Messages) != 2 || res.Outcome == nil || res.Outcome.Title != "Hard success" || res.Messages[0].Outcome != "Hard success" {
		t.Fatalf("result %+v", res)
	}
	if !strings.HasPrefix(res.Messages[0].Text, "Mace attack [disadvantage]: ") || !strings.HasPrefix(res.Messages[1].Text, "Mace damage (bludgeoning) [critical]: ") {
		t.Fatalf("titles: %q, %q", res.Messages[0].Text, res.Messages[1].Text)
	}
	if r := rules.seen[0]; r.Total != 9 || len(r.Dice) != 3 || r.Dice[2].Value != 6 || r.Dice[2].Sides != 6 {
		t.Fatalf("the outcome hook read %+v", r)
	}

	// An outcome naming an option the follow-up does not take is refused.
	rules.outcome = func(core.Action, []string, core.Rolled) (*core.Outcome, error) {
		return &core.Outcome{ID: "x", Title: "X", Next: []string{"advantage"}}, nil
	}
	if _, err := g.svc.RollAction(ctx, ann, core.ActionRequest{Action: "attack-mace", Follow: true}); core.KindOf(err) != core.KindInvalid {
		t.Fatalf("a follow-up with an option it does not take: %v", err)
	}

	// The system refuses: nothing is posted.
	before, err := g.svc.SeatMessages(ctx, ann.Seat)
	if err != nil {
		t.Fatal(err)
	}
	broken := &core.Error{Kind: core.KindInternal, Err: errors.New("system script: system.lua:9: boom")}
	rules.outcome = func(core.Action, []string, core.Rolled) (*core.Outcome, error) { return nil, broken }
	if _, err := g.svc.RollAction(ctx, ann, core.ActionRequest{Action: "check-str"}); !errors.Is(err, broken) && !strings.Contains(core.MessageOf(err), "system.lua:9") {
		t.Fatalf("a failing outcome hook: %v", err)
	}
	rules.plan = func(core.Action, []string) (core.RollPlan, error) { return core.RollPlan{}, broken }
	if _, err := g.svc.RollAction(ctx, ann, core.ActionRequest{Action: "check-str"}); err == nil {
		t.Fatal("a failing roll hook rolled")
	}
	after, _ := g.svc.SeatMessages(ctx, ann.Seat)
	if len(after) != len(before) {
		t.Fatalf("a refused roll posted: %d messages, then %d", len(before), len(after))
	}
}
