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

// A token sent alone names its map (the hub adds mapId, which the core
// keeps in a column), for players and the host alike; a foe's sight is
// stripped for players.
func TestTokenSentAloneNamesItsMap(t *testing.T) {
	foe := &core.Token{ID: "t", Name: "Ghoul", Role: core.RoleHostile, MapID: "lair",
		Vision: &core.Vision{ID: "v", Enabled: true, Sight: &core.Sight{Key: "vision-v", Polygon: []float64{0, 0, 1, 0, 1, 1}}}}
	players, _ := json.Marshal(forPlayers(foe))
	if !strings.Contains(string(players), `"mapId":"lair"`) || strings.Contains(string(players), "vision-v") {
		t.Fatalf("players get %s", players)
	}
	c := &conn{host: true}
	host, _ := json.Marshal(c.view(foe))
	if !strings.Contains(string(host), `"mapId":"lair"`) || !strings.Contains(string(host), "vision-v") {
		t.Fatalf("the host gets %s", host)
	}
	if stub, _ := json.Marshal(forPlayers(&core.Token{ID: "h", Hidden: true, MapID: "lair"})); string(stub) != `{"id":"h","hidden":true}` {
		t.Fatalf("a hidden token for players: %s", stub)
	}
}
