package hub

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/vttapp/companion/core"
)

func TestForPlayersHidesHiddenObjects(t *testing.T) {
	secret := &core.Token{ID: "t1", Name: "Assassin", X: 10, Y: 20, Hidden: true}
	shown := &core.Token{ID: "t2", Name: "Guard"}
	cases := []struct {
		name    string
		data    any
		want    []string
		wantNot []string
	}{
		{"hidden token", secret, []string{`"id":"t1"`, `"hidden":true`}, []string{"Assassin", `"x"`}},
		{"visible token", shown, []string{"Guard"}, nil},
		{"hidden combatant", &core.Combatant{ID: "c1", Name: "Lurker", Hidden: true}, []string{`"id":"c1"`, `"hidden":true`}, []string{"Lurker"}},
		{"game", &core.Game{Combatants: []*core.Combatant{{ID: "c1", Name: "Lurker", Hidden: true}, {ID: "c2", Name: "Hero"}}}, []string{"Hero"}, []string{"Lurker", "c1"}},
		{"map", &core.Map{ID: "m", Name: "Cave", Tokens: []*core.Token{secret, shown}}, []string{"Guard", "Cave"}, []string{"Assassin"}},
		{"token list", []*core.Token{secret, shown}, []string{"Guard"}, []string{"Assassin"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b, err := json.Marshal(forPlayers(c.data))
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range c.want {
				if !strings.Contains(string(b), w) {
					t.Errorf("%s lacks %s", b, w)
				}
			}
			for _, w := range c.wantNot {
				if strings.Contains(string(b), w) {
					t.Errorf("%s leaks %s", b, w)
				}
			}
		})
	}
	// The original is never changed: the host console and store keep it whole.
	g := &core.Game{Combatants: []*core.Combatant{{ID: "c1", Hidden: true}}}
	forPlayers(g)
	if len(g.Combatants) != 1 {
		t.Fatal("forPlayers modified its input")
	}
}
