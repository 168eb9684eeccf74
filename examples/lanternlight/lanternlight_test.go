package lanternlight_test

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/systems"
)

func TestGoldenCases(t *testing.T) {
	var out strings.Builder
	failed, err := systems.RunGolden(".", false, &out)
	if err != nil || failed > 0 {
		t.Fatalf("%d golden cases differ (%v):\n%s", failed, err, out.String())
	}
}

// TestGradedOutcomes: the outcome hook grades a percentile roll against
// the action's skill, and a hard or extreme struggle makes its harm
// telling; harm itself is not graded.
func TestGradedOutcomes(t *testing.T) {
	sys, err := systems.Load(os.DirFS("."), systems.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer sys.Close()
	ctx := context.Background()
	e := &core.Entity{ID: "0f2c8a4e-0000-4000-8000-0000000000aa", Kind: "investigator", Name: "Maud", Slug: "maud", Data: core.Object{
		"skills":    []any{map[string]any{"name": "Brawl", "value": 45.0}},
		"struggles": []any{map[string]any{"name": "Shove", "skill": "Brawl", "harm": "1d4"}},
	}}
	actions, err := sys.ActionsFor(ctx, e)
	if err != nil || len(actions) != 3 {
		t.Fatalf("actions %+v %v", actions, err)
	}
	shove, harm := actions[0], actions[1]
	for total, want := range map[float64]string{1: "extreme", 9: "extreme", 10: "hard", 22: "hard", 23: "regular", 45: "regular", 46: "failure", 95: "failure", 96: "blunder", 100: "blunder"} {
		o, err := sys.OutcomeOf(ctx, e, shove, nil, core.Rolled{Formula: "1d100", Total: total})
		if err != nil || o == nil || o.ID != want {
			t.Errorf("%v against 45: %+v %v, want %s", total, o, err, want)
			continue
		}
		if telling := len(o.Next) == 1 && o.Next[0] == "telling"; telling != (want == "hard" || want == "extreme") {
			t.Errorf("%v: next %v", total, o.Next)
		}
	}
	if o, err := sys.OutcomeOf(ctx, e, harm, nil, core.Rolled{Formula: "1d4", Total: 3}); o != nil || err != nil {
		t.Errorf("harm graded: %+v %v", o, err)
	}
	for opts, want := range map[string]string{"": "1d100", "bonus": "2d100kl1", "penalty": "2d100kh1", "bonus,penalty": "1d100"} {
		var options []string
		if opts != "" {
			options = strings.Split(opts, ",")
		}
		if p, err := sys.PlanRoll(ctx, e, shove, options); err != nil || p.Roll != want {
			t.Errorf("options %q: %+v %v, want %s", opts, p, err, want)
		}
	}
	if p, _ := sys.PlanRoll(ctx, e, harm, []string{"telling"}); p.Roll != "1d4+1d6" || p.Title != "Shove harm (telling)" {
		t.Errorf("telling harm: %+v", p)
	}
}
