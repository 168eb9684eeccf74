package routes

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/gorilla/websocket"
	"github.com/vttapp/companion/core"
)

const (
	guardedOrcID = "b0000000-0000-4000-8000-0000000000fd"
	// The game master's fields of the orc, as they appear in JSON: none
	// may reach players, and none may be lost or changed by their writes.
	orcNote, orcEffectNote, orcHP, orcAC, orcModifier = "GM-NOTE-orc", "GM-EFFECT-orc", `"hit_points":21`, `"ac":15`, "MOD-orc-shield"
)

// seedGuardedOrc stores a hostile orc with notes, an effect's notes, data,
// attributes and modifiers, and token A carrying a stored combatant with
// notes and data.
func seedGuardedOrc(t *testing.T, e *consoleEnv) {
	t.Helper()
	err := e.store.Update(context.Background(), func(tx core.Tx) error {
		orc := &core.Combatant{ID: guardedOrcID, Name: "Orc", Notes: orcNote, Campaign: campaignID, Role: core.RoleHostile,
			Data: core.Object{"hit_points": 21.0}, Attributes: core.Object{"ac": 15.0},
			Modifiers: []core.Modifier{{ID: "m1", Enabled: true, Name: orcModifier, Attribute: "data.ac", Value: "2"}},
			Effects:   []core.StatusEffect{{ID: "fx-1", Name: "Poisoned", Notes: orcEffectNote}}}
		orc.Normalize()
		if err := tx.PutCombatant(orc); err != nil {
			return err
		}
		tk, err := tx.Token(tokenA)
		if err != nil {
			return err
		}
		tk.Combatant = &core.Combatant{ID: "token-orc", Name: "Orc", Notes: orcNote, Data: core.Object{"hit_points": 21.0}}
		tk.Combatant.Normalize()
		return tx.PutToken(tk)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// noGMFields fails when a body players receive carries a field of the
// game master's.
func noGMFields(t *testing.T, what string, body []byte) {
	t.Helper()
	for _, secret := range []string{orcNote, orcEffectNote, orcHP, orcAC, orcModifier} {
		if strings.Contains(string(body), secret) {
			t.Errorf("%s carries %s: %s", what, secret, body)
		}
	}
}

// storedJSON is the stored object's published shape, with its name left
// out (the players' writes below rename).
func storedJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	json.Unmarshal(b, &m)
	delete(m, "name")
	b, _ = json.Marshal(m)
	return string(b)
}

// putBackRenamed is a player's edit of what they read: GET path, rename
// the object from one name to another, PUT it back. Neither answer may
// carry the game master's fields.
func putBackRenamed(t *testing.T, e *consoleEnv, path, from, to string) {
	t.Helper()
	r := e.publicCall(t, "GET", path, "")
	noGMFields(t, "GET "+path, r.body)
	r = e.publicCall(t, "PUT", path, strings.Replace(string(r.body), `"name":"`+from+`"`, `"name":"`+to+`"`, 1))
	if r.status != 200 {
		t.Fatalf("PUT %s: %d %s", path, r.status, r.body)
	}
	noGMFields(t, "PUT "+path, r.body)
}

func (e *consoleEnv) storedOrc(t *testing.T) *core.Combatant {
	t.Helper()
	c, err := e.svc.Combatant(context.Background(), guardedOrcID)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// Every public write of a combatant or token (PUT, PATCH, updateCombatant,
// updateToken) keeps what players are not shown, and cannot set it: a
// player who reads an object, edits it and writes it back loses nothing.
func TestPlayersWritesKeepGMFields(t *testing.T) {
	// guarded seeds a fresh server and returns a check that the stored orc
	// and token A's stored combatant are what they were, names aside.
	guarded := func(t *testing.T) (*consoleEnv, func(what string)) {
		e := newConsoleEnv(t)
		seedGuardedOrc(t, e)
		orcBefore := storedJSON(t, e.storedOrc(t))
		tk, _ := e.svc.Token(context.Background(), tokenA)
		tokenCombatantBefore := storedJSON(t, tk.Combatant)
		return e, func(what string) {
			t.Helper()
			if got := storedJSON(t, e.storedOrc(t)); got != orcBefore {
				t.Errorf("%s changed the orc:\n got %s\nwant %s", what, got, orcBefore)
			}
			if tk, _ := e.svc.Token(context.Background(), tokenA); tk.Combatant == nil || storedJSON(t, tk.Combatant) != tokenCombatantBefore {
				t.Errorf("%s changed token A's combatant: %+v", what, tk.Combatant)
			}
		}
	}

	t.Run("PUT combatant", func(t *testing.T) {
		e, unchanged := guarded(t)
		putBackRenamed(t, e, "/api/combatants/"+guardedOrcID, "Orc", "Orc I")
		if e.storedOrc(t).Name != "Orc I" {
			t.Error("the player's rename was lost")
		}
		unchanged("a player's PUT of what they read")
	})

	t.Run("PATCH combatant", func(t *testing.T) {
		e, unchanged := guarded(t)
		// Links are the game master's too: a foe pointed at a character
		// would share its hit points with the character's public data.
		r := e.publicCall(t, "PATCH", "/api/combatants/"+guardedOrcID, `{"name": "Orc II", "notes": null, "data": {"hit_points": 1},
			"attributes": {"ac": 1}, "modifiers": [], "role": "friendly", "effects": [{"id": "fx-1", "name": "Poisoned", "notes": "mine"}],
			"entityId": "b0000000-0000-4000-8000-000000000001", "entityType": "character", "reference": "/character/x", "tokenId": "`+tokenA+`"}`)
		if r.status != 200 {
			t.Fatalf("PATCH: %d %s", r.status, r.body)
		}
		noGMFields(t, "PATCH /api/combatants", r.body)
		unchanged("a player's PATCH")
	})

	t.Run("PUT and PATCH token", func(t *testing.T) {
		e, unchanged := guarded(t)
		putBackRenamed(t, e, "/api/tokens/"+tokenA, "A", "A1")
		unchanged("a player's PUT of the token they read")
		r := e.publicCall(t, "PATCH", "/api/tokens/"+tokenA, `{"combatant": null, "role": "friendly", "player": true, "reference": "/character/x"}`)
		noGMFields(t, "PATCH /api/tokens", r.body)
		unchanged("a player's token PATCH")
		if tk, _ := e.svc.Token(context.Background(), tokenA); tk.Role != "" || tk.Player || tk.Reference != "" {
			t.Errorf("a player's PATCH made the token the party's: role %q player %v reference %q", tk.Role, tk.Player, tk.Reference)
		}
		if tk, _ := e.svc.Token(context.Background(), tokenA); tk.Name != "A1" {
			t.Errorf("the player's rename of the token was lost: %q", tk.Name)
		}
	})

	t.Run("updateCombatant and updateToken", func(t *testing.T) {
		e, unchanged := guarded(t)
		player := e.playerSocket(t)
		player.waitFor("app")
		player.Conn.WriteMessage(websocket.TextMessage, []byte(`{"name":"updateCombatant","requestId":"c1","data":{"id":"`+guardedOrcID+
			`","name":"Orc III","notes":"","data":null,"attributes":{},"modifiers":[],"effects":[{"id":"fx-1","name":"Poisoned"}],"entityId":"x","tokenId":"`+tokenA+`"}}`))
		noGMFields(t, "updateCombatant's answer", player.waitFor("updateCombatant", `"Orc III"`).Data)
		player.Conn.WriteMessage(websocket.TextMessage, []byte(`{"name":"updateToken","requestId":"t1","data":{"id":"`+tokenA+`","name":"A2","combatant":null}}`))
		noGMFields(t, "updateToken's answer", player.waitFor("updateToken", `"A2"`).Data)
		unchanged("a player's updateCombatant and updateToken")
	})
}

// The game master's writes, on the host console's API and socket, change
// the same fields.
func TestGMWritesChangeGMFields(t *testing.T) {
	e := newConsoleEnv(t)
	seedGuardedOrc(t, e)
	var c core.Combatant
	e.decode(t, e.call(t, "PATCH", "/host/api/combatants/"+guardedOrcID, `{"notes": "new", "data": {"hit_points": 9},
		"attributes": {"ac": null}, "modifiers": [], "effects": [{"id": "fx-1", "name": "Poisoned", "notes": "GM: new"}]}`), 200, &c)
	after := e.storedOrc(t)
	if after.Notes != "new" || after.Data["hit_points"] != 9.0 || len(after.Attributes) != 0 || len(after.Modifiers) != 0 || after.Effects[0].Notes != "GM: new" {
		t.Fatalf("the host's PATCH: %+v", after)
	}
	host := e.hostSocket(t)
	host.waitFor("app")
	host.Conn.WriteMessage(websocket.TextMessage, []byte(`{"name":"updateCombatant","requestId":"h1","data":{"id":"`+guardedOrcID+`","notes":"newer","role":"neutral"}}`))
	host.waitFor("updateCombatant", `"newer"`)
	if after := e.storedOrc(t); after.Notes != "newer" || after.Role != core.RoleNeutral {
		t.Fatalf("the host's updateCombatant: %+v", after)
	}
	host.Conn.WriteMessage(websocket.TextMessage, []byte(`{"name":"updateToken","requestId":"h2","data":{"id":"`+tokenA+`","combatant":null}}`))
	host.waitFor("updateToken")
	if tk, _ := e.svc.Token(context.Background(), tokenA); tk.Combatant != nil {
		t.Fatalf("the host's updateToken kept the token's combatant: %+v", tk.Combatant)
	}
}
