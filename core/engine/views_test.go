package engine_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/core/redact"
	"github.com/vttapp/companion/sight"
)

// What players and the host receive of an event payload (views.go): the
// rules the hub applies to every frame it sends.

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
			b, err := json.Marshal(redact.ForPlayers(c.data))
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
	redact.ForPlayers(g)
	if len(g.Combatants) != 1 {
		t.Fatal("ForPlayers modified its input")
	}
}

// A token sent alone names its map (mapId, which the core keeps in a
// column), for players and the host alike; a foe's sight is stripped for
// players.
func TestTokenSentAloneNamesItsMap(t *testing.T) {
	foe := &core.Token{ID: "t", Name: "Ghoul", Role: core.RoleHostile, MapID: "lair",
		Vision: &core.Vision{ID: "v", Enabled: true, Sight: &sight.Sight{Key: "vision-v", Polygon: []float64{0, 0, 1, 0, 1, 1}}}}
	players, _ := json.Marshal(redact.ForPlayers(foe))
	if !strings.Contains(string(players), `"mapId":"lair"`) || strings.Contains(string(players), "vision-v") {
		t.Fatalf("players get %s", players)
	}
	host, _ := json.Marshal(redact.HostPayload(foe))
	if !strings.Contains(string(host), `"mapId":"lair"`) || !strings.Contains(string(host), "vision-v") {
		t.Fatalf("the host gets %s", host)
	}
	// A hidden token: that it is hidden, and the empty size the Encounter+
	// web client reads before it drops it (issue 33); nothing of the
	// token itself, not even its map.
	hidden := &core.Token{ID: "h", Hidden: true, MapID: "lair", Name: "Ghoul", X: 140, Y: 70, Size: "L", Image: ptr("/ghoul.png")}
	if stub, _ := json.Marshal(redact.ForPlayers(hidden)); string(stub) != `{"id":"h","hidden":true,"size":""}` {
		t.Fatalf("a hidden token for players: %s", stub)
	}
	// A hidden combatant stays {id, hidden}.
	if stub, _ := json.Marshal(redact.ForPlayers(&core.Combatant{ID: "c", Hidden: true, Name: "Ghoul"})); string(stub) != `{"id":"c","hidden":true}` {
		t.Fatalf("a hidden combatant for players: %s", stub)
	}
}

// TestAuditForPlayersHidesHiddenMarkers: a map broadcast by any path
// (host console, importer) reaches players without hidden markers, tiles,
// area effects or measurements, as GET /api does.
func TestAuditForPlayersHidesHiddenMarkers(t *testing.T) {
	m := &core.Map{ID: "m", Name: "Cave",
		Markers:      []core.Object{{"id": "k1", "name": "SECRET-NOTE"}, {"id": "k2", "name": "Door", "hidden": false}},
		Tiles:        []core.Object{{"id": "t1", "hidden": true, "reference": "SECRET-TILE"}},
		Measurements: []core.Object{{"id": "x1", "hidden": true, "color": "SECRET-RULER"}}}
	b, _ := json.Marshal(redact.ForPlayers(m))
	if strings.Contains(string(b), "SECRET") || !strings.Contains(string(b), `"k2"`) {
		t.Fatalf("map as players see it: %s", b)
	}
	if len(m.Markers) != 2 || len(m.Tiles) != 1 {
		t.Fatal("ForPlayers changed the stored map")
	}
}

// HostPayloadDiffers lets the hub encode an event once for both sides: it
// must be true wherever the game master's payload and the players' differ,
// or the host would get the players' redacted frame.
func TestHostPayloadDiffersWhereverThePayloadsDo(t *testing.T) {
	hidden := &core.Token{ID: "t1", Name: "Assassin", Hidden: true, MapID: "m"}
	notes := &core.Combatant{ID: "c1", Name: "Ogre", Notes: "weak to fire", Data: core.Object{"hp": 30.0}}
	payloads := []any{
		hidden,
		&core.Token{ID: "t2", Name: "Guard", MapID: "m"},
		notes,
		&core.Game{Combatants: []*core.Combatant{{ID: "c2", Hidden: true}, notes}},
		[]*core.Combatant{{ID: "c2", Hidden: true}, notes},
		&core.Map{ID: "m", Tokens: []*core.Token{hidden}},
		[]*core.Token{hidden},
		redact.Views{Players: &core.Movement{ID: "t"}, Host: &core.Movement{ID: "t", Polygon: []float64{0, 0, 1, 1}}},
		&core.Movement{ID: "t", State: core.DragControl},
		&core.Message{ID: "m1", Text: "hello"},
		map[string]any{"system": "dnd5e"},
		core.Client{Channel: 1, Name: "Ann"},
	}
	for _, data := range payloads {
		players, ok := redact.PlayersPayload(data)
		pb, _ := json.Marshal(players)
		hb, _ := json.Marshal(redact.HostPayload(data))
		if ok && string(pb) != string(hb) && !redact.HostPayloadDiffers(data) {
			t.Errorf("%T: players get %s, the host %s, but HostPayloadDiffers says one frame serves both", data, pb, hb)
		}
	}
}
