package core_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/core/redact"
)

// ForPlayers is the last guard on everything a player socket receives: a
// map or a token list with no hidden token must still lose what a visible
// token carries that players may not see (a foe's sight polygon, its
// combatant's exact hit points), as a token sent alone does.
func TestForPlayersStripsVisibleTokensInMapsAndLists(t *testing.T) {
	foe := func() *core.Token {
		return &core.Token{ID: "foe", Name: "Cinder Hound", Role: core.RoleHostile,
			Vision:    &core.Vision{Enabled: true, Sight: []any{1.0, 2.0, 3.0, 4.0, 5.0, 6.0}},
			Combatant: &core.Combatant{ID: "c-foe", Name: "Cinder Hound", Role: core.RoleHostile, Data: core.Object{"hit_points": 23}}}
	}
	ally := &core.Token{ID: "ally", Name: "Ilsa", Role: core.RoleFriendly}
	for name, data := range map[string]any{
		"map":  &core.Map{ID: "m", Name: "Chapel", Tokens: []*core.Token{foe(), ally}},
		"list": []*core.Token{foe(), ally},
	} {
		out, err := json.Marshal(redact.ForPlayers(data))
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(out), "3,4,5") || strings.Contains(string(out), `"hit_points":23`) {
			t.Errorf("%s: players receive a foe's sight or exact hit points: %s", name, out)
		}
		if !strings.Contains(string(out), "Cinder Hound") || !strings.Contains(string(out), "Ilsa") {
			t.Errorf("%s: a visible token went missing: %s", name, out)
		}
	}
}
