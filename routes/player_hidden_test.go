package routes

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/gorilla/websocket"
	"github.com/vttapp/companion/core"
)

const hiddenOgreID = "b0000000-0000-4000-8000-0000000000ff"

// hideForPlayers hides tokenB and stores a hidden combatant linked to it.
func hideForPlayers(t *testing.T, e *consoleEnv) {
	t.Helper()
	err := e.store.Update(context.Background(), func(tx core.Tx) error {
		tk, err := tx.Token(tokenB)
		if err != nil {
			return err
		}
		tk.Hidden, tk.Name = true, "SECRET-AMBUSHER"
		if err := tx.PutToken(tk); err != nil {
			return err
		}
		tid := tokenB
		c := &core.Combatant{ID: hiddenOgreID, Name: "SECRET-OGRE", Campaign: campaignID, Hidden: true,
			Role: core.RoleHostile, TokenID: &tid, Data: core.Object{"hit_points": 59.0}}
		c.Normalize()
		return tx.PutCombatant(c)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// publicCall sends a request to the public listener.
func (e *consoleEnv) publicCall(t *testing.T, method, path, body string) reply {
	t.Helper()
	req, err := http.NewRequest(method, e.public.URL+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := noGzipClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	return reply{status: resp.StatusCode, header: resp.Header, body: data}
}

// A hidden token or combatant does not exist on the public listener: GET,
// PUT and PATCH answer 404 as for an unknown id, and nothing is changed.
func TestPublicAPIHiddenDoesNotExist(t *testing.T) {
	e := newConsoleEnv(t)
	hideForPlayers(t, e)
	for _, c := range []struct{ method, path, body, message string }{
		{"GET", "/api/tokens/" + tokenB, "", "no token with id"},
		{"PATCH", "/api/tokens/" + tokenB, `{"hidden": false}`, "no token with id"},
		{"PATCH", "/api/tokens/" + tokenB, `{"x": 3}`, "no token with id"},
		{"PUT", "/api/tokens/" + tokenB, `{"id": "` + tokenB + `", "name": "shown", "hidden": false}`, "no token with id"},
		{"GET", "/api/combatants/" + hiddenOgreID, "", "no combatant with id"},
		{"PATCH", "/api/combatants/" + hiddenOgreID, `{"hidden": false}`, "no combatant with id"},
		{"PUT", "/api/combatants/" + hiddenOgreID, `{"id": "` + hiddenOgreID + `", "name": "shown"}`, "no combatant with id"},
	} {
		r := e.publicCall(t, c.method, c.path, c.body)
		if strings.Contains(string(r.body), "SECRET") {
			t.Fatalf("%s %s leaks the hidden object: %s", c.method, c.path, r.body)
		}
		wantError(t, r, 404, c.message)
	}
	r := e.publicCall(t, "GET", "/api", "")
	if strings.Contains(string(r.body), "SECRET") || strings.Contains(string(r.body), `"name":"shown"`) {
		t.Fatalf("GET /api shows the hidden objects after the refused writes: %s", r.body)
	}
	tk, err := e.svc.Token(context.Background(), tokenB)
	if err != nil || !tk.Hidden || tk.Name != "SECRET-AMBUSHER" {
		t.Fatalf("the hidden token changed: %+v %v", tk, err)
	}
	// The host console keeps full access.
	e.decode(t, e.call(t, "PATCH", "/host/api/tokens/"+tokenB, `{"x": 3}`), 200, &tk)
	if !tk.Hidden || tk.X != 3 {
		t.Fatalf("host patch: %+v", tk)
	}
}

// A public write cannot hide a visible token or combatant: hidden keeps its
// stored value, the rest of the write applies.
func TestPublicAPIWritesKeepHidden(t *testing.T) {
	e := newConsoleEnv(t)
	var tk core.Token
	e.decode(t, e.publicCall(t, "PATCH", "/api/tokens/"+tokenA, `{"hidden": true, "name": "A2"}`), 200, &tk)
	if tk.Hidden || tk.Name != "A2" {
		t.Fatalf("PATCH: %+v", tk)
	}
	e.decode(t, e.publicCall(t, "PUT", "/api/tokens/"+tokenA, `{"id": "`+tokenA+`", "name": "A3", "hidden": true}`), 200, &tk)
	if tk.Hidden || tk.Name != "A3" {
		t.Fatalf("PUT: %+v", tk)
	}
	var c core.Combatant
	e.decode(t, e.publicCall(t, "PATCH", "/api/combatants/"+heroCombatID, `{"hidden": true, "label": "H"}`), 200, &c)
	if c.Hidden || c.Label != "H" {
		t.Fatalf("PATCH combatant: %+v", c)
	}
	e.decode(t, e.publicCall(t, "PUT", "/api/combatants/"+heroCombatID, `{"id": "`+heroCombatID+`", "name": "Hero", "hidden": true}`), 200, &c)
	if c.Hidden {
		t.Fatalf("PUT combatant: %+v", c)
	}
	stored, err := e.svc.Combatant(context.Background(), heroCombatID)
	if err != nil || stored.Hidden {
		t.Fatalf("stored combatant: %+v %v", stored, err)
	}
}

// The same over the players' WebSocket: updateToken and updateCombatant
// of a hidden object are refused as for an unknown id; the host socket
// keeps full access.
func TestWSPlayerUpdateHidden(t *testing.T) {
	e := newConsoleEnv(t)
	hideForPlayers(t, e)
	player := e.playerSocket(t)
	player.waitFor("app")
	player.Conn.WriteMessage(websocket.TextMessage, []byte(`{"name":"updateToken","data":{"id":"`+tokenB+`","hidden":false},"requestId":"t1"}`))
	player.waitFor("error", "no token with id")
	player.Conn.WriteMessage(websocket.TextMessage, []byte(`{"name":"updateCombatant","data":{"id":"`+hiddenOgreID+`","hidden":false},"requestId":"c1"}`))
	player.waitFor("error", "no combatant with id")
	player.Conn.WriteMessage(websocket.TextMessage, []byte(`{"name":"updateToken","data":{"id":"`+tokenA+`","hidden":true},"requestId":"t2"}`))
	player.waitFor("updateToken", `"name":"A"`, `"hidden":false`)
	if tk, err := e.svc.Token(context.Background(), tokenB); err != nil || !tk.Hidden {
		t.Fatalf("hidden token: %+v %v", tk, err)
	}
	if c, err := e.svc.Combatant(context.Background(), hiddenOgreID); err != nil || !c.Hidden {
		t.Fatalf("hidden combatant: %+v %v", c, err)
	}
	host := e.hostSocket(t)
	host.waitFor("app")
	host.Conn.WriteMessage(websocket.TextMessage, []byte(`{"name":"updateToken","data":{"id":"`+tokenB+`","x":4},"requestId":"h1"}`))
	host.waitFor("updateToken", `"SECRET-AMBUSHER"`, `"hidden":true`)
}

// A combatant's notes, its effects' notes and a foe's data (its exact hit
// points) are the game master's: GET /api's game, gameUpdated and
// combatantUpdated leave them out for players; the host socket gets them.
func TestPlayersCombatantsLeaveOutGMFields(t *testing.T) {
	e := newConsoleEnv(t)
	const orcID = "b0000000-0000-4000-8000-0000000000fe"
	err := e.store.Update(context.Background(), func(tx core.Tx) error {
		orc := &core.Combatant{ID: orcID, Name: "Visible Orc", Notes: "GM-NOTE-weak-to-fire", Campaign: campaignID,
			Role: core.RoleHostile, Data: core.Object{"hit_points": 15.0},
			Effects: []core.StatusEffect{{ID: "fx-1", Name: "Poisoned", Notes: "GM-EFFECT-NOTE"}}}
		orc.Normalize()
		if err := tx.PutCombatant(orc); err != nil {
			return err
		}
		hero, err := tx.Combatant(heroCombatID)
		if err != nil {
			return err
		}
		hero.Role, hero.Notes = core.RoleFriendly, "GM-NOTE-hero"
		return tx.PutCombatant(hero)
	})
	if err != nil {
		t.Fatal(err)
	}
	leaks := func(what string, body []byte) {
		t.Helper()
		for _, secret := range []string{"GM-NOTE", "GM-EFFECT-NOTE", `"hit_points":15`} {
			if strings.Contains(string(body), secret) {
				t.Fatalf("%s carries %s: %s", what, secret, body)
			}
		}
	}
	r := e.publicCall(t, "GET", "/api", "")
	leaks("GET /api", r.body)
	if !strings.Contains(string(r.body), "Visible Orc") || !strings.Contains(string(r.body), `"hit_points":30`) || !strings.Contains(string(r.body), "Poisoned") {
		t.Fatalf("GET /api lost what players may see (the orc, its effect, the hero's hit points): %s", r.body)
	}

	// GET, PUT and PATCH /api/combatants/{id} answer as players see it; a
	// player's write keeps the notes it cannot see.
	leaks("GET /api/combatants", e.publicCall(t, "GET", "/api/combatants/"+orcID, "").body)
	r = e.publicCall(t, "PATCH", "/api/combatants/"+orcID, `{"notes": "", "name": "Orc"}`)
	leaks("PATCH /api/combatants", r.body)
	r = e.publicCall(t, "PUT", "/api/combatants/"+orcID, `{"id": "`+orcID+`", "name": "Visible Orc", "role": "hostile", "data": {"hit_points": 15}, "effects": [{"id": "fx-1", "name": "Poisoned", "notes": "GM-EFFECT-NOTE"}]}`)
	if r.status != 200 {
		t.Fatalf("PUT: %d %s", r.status, r.body)
	}
	leaks("PUT /api/combatants", r.body)
	if stored, err := e.svc.Combatant(context.Background(), orcID); err != nil || stored.Notes != "GM-NOTE-weak-to-fire" {
		t.Fatalf("a player's write changed the notes: %+v %v", stored, err)
	}

	host, player := e.hostSocket(t), e.playerSocket(t)
	host.waitFor("app")
	player.waitFor("app")
	var c core.Combatant
	e.decode(t, e.call(t, "PATCH", "/host/api/combatants/"+orcID, `{"label": "O1"}`), 200, &c)
	leaks("combatantUpdated", player.waitFor("combatantUpdated", `"label":"O1"`).Data)
	leaks("gameUpdated", player.waitFor("gameUpdated", `"label":"O1"`).Data)
	host.waitFor("combatantUpdated", `"label":"O1"`, "GM-NOTE-weak-to-fire", "GM-EFFECT-NOTE", `"hit_points":15`)
	host.waitFor("gameUpdated", `"label":"O1"`, "GM-NOTE-weak-to-fire", `"hit_points":15`)
}

// A dm-layer tile or drawing does not reach players in GET /api.
func TestPublicAPILeavesOutDMLayer(t *testing.T) {
	e := newEnv(t, envOptions{seed: func(tx core.Tx) error {
		m, err := tx.Map(mapID)
		if err != nil {
			return err
		}
		m.Tiles = []core.Object{{"id": "T-DM", "layer": "dm", "x": 1.0, "y": 1.0, "width": 1.0, "height": 1.0,
			"asset": map[string]any{"resource": "/campaigns/x/SECRET-TRAP.png"}}}
		m.Drawings = []core.Object{{"id": "SECRET-DRAWING", "layer": "dm", "data": []any{0.0, 0.0, 10.0, 10.0}},
			{"id": "D-SHOWN", "layer": "map", "data": []any{0.0, 0.0, 10.0, 10.0}}}
		return tx.PutMap(m)
	}})
	r := e.do(t, "GET", "/api", "")
	if r.status != 200 || strings.Contains(string(r.body), "SECRET") || !strings.Contains(string(r.body), "D-SHOWN") {
		t.Fatalf("GET /api: %d %s", r.status, r.body)
	}
}
