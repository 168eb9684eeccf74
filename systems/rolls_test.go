package systems

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/vttapp/companion/core"
)

// percentile is a small roll-under system: a skill rolled on 1d100,
// a bonus die keeping the lower of two, degrees of success named by the
// outcome hook. Its hooks misbehave on purpose for some actions.
const percentile = `local companion = require("companion")
companion.entity("sleuth", {
  collection = "sleuths", unique = true,
  view = function(e) return {} end,
  actions = function(e)
    return {
      { id = "spot", title = "Spot Hidden", type = "check", roll = "1d100", options = { "bonus", "penalty" }, data = { skill = 60 } },
      { id = "boom", title = "Boom", roll = "1d100" },
      { id = "odd", title = "Odd", roll = "1d100" },
      { id = "spin", title = "Spin", roll = "1d100" },
      { id = "heap", title = "Heap", roll = "1d100" },
    }
  end,
  rollOptions = { { id = "bonus", title = "Bonus die" }, { id = "penalty", title = "Penalty die" } },
  roll = function(r)
    if r.action.id == "heap" then
      return "10000d6"
    end
    if r.action.id == "spin" then
      while true do end
    end
    local roll, title = r.action.roll, r.action.title
    for _, o in ipairs(r.options) do
      if o == "bonus" then roll, title = "2d100kl1", title .. " (bonus die)" end
      if o == "penalty" then roll, title = "2d100kh1", title .. " (penalty die)" end
    end
    return { roll = roll, title = title }
  end,
  outcomes = {
    { id = "extreme", title = "Extreme success" }, { id = "hard", title = "Hard success" },
    { id = "regular", title = "Regular success" }, { id = "failure", title = "Failure" },
  },
  outcome = function(r)
    if r.action.id == "boom" then
      error("the dice fell off the table")
    end
    if r.action.id == "odd" then
      return "splendid"
    end
    local skill, total = r.action.data.skill, r.roll.total
    if total <= skill / 5 then return "extreme" end
    if total <= skill / 2 then return { outcome = "hard", next = {} } end
    if total <= skill then return "regular" end
    return "failure"
  end,
})
`

func loadPercentile(t *testing.T, src string) *System {
	t.Helper()
	s, err := Load(mapFS(map[string]string{"system.json": okManifest, "system.lua": src, "templates/sleuth.html": "{{ entity.name }}"}), Options{CallTimeout: 200 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func sleuth() *core.Entity {
	return &core.Entity{ID: "0f2c8a4e-0000-4000-8000-000000000009", Kind: "sleuth", Name: "Ivy", Slug: "ivy", Data: core.Object{}}
}

func TestRollHooksPlanAndName(t *testing.T) {
	s := loadPercentile(t, percentile)
	ctx := context.Background()
	e := sleuth()
	if opts := s.RollOptions("sleuth"); len(opts) != 2 || opts[0].Title != "Bonus die" {
		t.Fatalf("roll options %+v", opts)
	}
	actions, err := s.ActionsFor(ctx, e)
	if err != nil || len(actions) != 5 || strings.Join(actions[0].Options, ",") != "bonus,penalty" {
		t.Fatalf("actions %+v %v", actions, err)
	}
	spot := actions[0]
	plan, err := s.PlanRoll(ctx, e, spot, []string{"bonus"})
	if err != nil || plan.Roll != "2d100kl1" || plan.Title != "Spot Hidden (bonus die)" {
		t.Fatalf("plan %+v %v", plan, err)
	}
	for total, want := range map[float64]string{12: "Extreme success", 30: "Hard success", 55: "Regular success", 90: "Failure"} {
		o, err := s.OutcomeOf(ctx, e, spot, nil, core.Rolled{Formula: "1d100", Total: total, Dice: []core.RolledDie{{Sides: 100, Value: total}}})
		if err != nil || o == nil || o.Title != want {
			t.Errorf("total %v: %+v %v, want %s", total, o, err, want)
		}
	}
}

func TestRollHooksThatFailAreClearErrors(t *testing.T) {
	s := loadPercentile(t, percentile)
	ctx := context.Background()
	e := sleuth()
	actions, err := s.ActionsFor(ctx, e)
	if err != nil {
		t.Fatal(err)
	}
	byID := map[string]core.Action{}
	for _, a := range actions {
		byID[a.ID] = a
	}
	rolled := core.Rolled{Formula: "1d100", Total: 50, Dice: []core.RolledDie{{Sides: 100, Value: 50}}}
	_, boom := s.OutcomeOf(ctx, e, byID["boom"], nil, rolled)
	_, odd := s.OutcomeOf(ctx, e, byID["odd"], nil, rolled)
	_, spin := s.PlanRoll(ctx, e, byID["spin"], nil)
	_, heap := s.PlanRoll(ctx, e, byID["heap"], nil)
	for what, c := range map[string]struct {
		err  error
		want []string
	}{
		"an outcome that errors": {boom, []string{"system.lua:", "the dice fell off the table"}},
		"an unknown outcome":     {odd, []string{"system.lua:", `"splendid"`, "extreme, hard, regular, failure"}},
		"a roll hook that loops": {spin, []string{"system.lua:"}},
		"a roll of 10,000 dice":  {heap, []string{"system.lua:", "10000d6"}},
	} {
		if c.err == nil {
			t.Errorf("%s: no error", what)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(c.err.Error(), w) {
				t.Errorf("%s: %v, want it to say %q", what, c.err, w)
			}
		}
	}
}

func TestRollDeclarationProblems(t *testing.T) {
	undeclared := strings.Replace(percentile, `options = { "bonus", "penalty" }`, `options = { "bonus", "luck" }`, 1)
	s := loadPercentile(t, undeclared)
	if _, err := s.ActionsFor(context.Background(), sleuth()); err == nil || !strings.Contains(err.Error(), `option "luck"`) {
		t.Fatalf("an undeclared option: %v", err)
	}
	got := problemsOf(t, map[string]string{"system.json": okManifest, "templates/sleuth.html": "x", "system.lua": strings.NewReplacer(
		`{ id = "extreme", title = "Extreme success" }, `, "",
		`rollOptions = { { id = "bonus", title = "Bonus die" },`, `rollOptions = { { id = "bonus" },`,
	).Replace(strings.Replace(percentile, "outcomes = {", "outcomes_ = {", 1))})
	expectProblems(t, got, `unknown option "outcomes_"`, "an outcome function names one of the kind's outcomes", "rollOptions[1] must be")
}
