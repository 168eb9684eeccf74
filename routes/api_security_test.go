package routes

import (
	"strings"
	"testing"
)

// Hostile HTTP bodies on the write routes: each is a 400 with a message,
// and nothing is written.

func TestAPIHostileBodiesAreRefusedAndWriteNothing(t *testing.T) {
	e := newEnv(t, envOptions{})
	deep := strings.Repeat(`{"a":`, 100000) + "1" + strings.Repeat("}", 100000)
	before := e.do(t, "GET", "/api/monsters/"+goblinID, "")
	for name, c := range map[string][3]string{
		"nested 100k levels (PATCH)": {"PATCH", "/api/monsters/" + goblinID, deep},
		"nested 100k levels (PUT)":   {"PUT", "/api/monsters/" + goblinID, `{"id":"` + goblinID + `","data":` + deep + `}`},
		"nested arrays in data":      {"PATCH", "/api/monsters/" + goblinID, `{"data":{"x":` + strings.Repeat("[", 20000) + strings.Repeat("]", 20000) + `}}`},
		"number out of range":        {"PATCH", "/api/monsters/" + goblinID, `{"data":{"hit_points":1e400}}`},
		"number with 100k digits":    {"PATCH", "/api/monsters/" + goblinID, `{"data":{"hit_points":1` + strings.Repeat("0", 100000) + `}}`},
		"duplicate id keys differ":   {"PUT", "/api/monsters/" + goblinID, `{"id":"` + goblinID + `","id":"other","name":"X"}`},
		"null body":                  {"PATCH", "/api/monsters/" + goblinID, `null`},
		"array body":                 {"PATCH", "/api/monsters/" + goblinID, `[{"name":"X"}]`},
		"trailing data":              {"PATCH", "/api/monsters/" + goblinID, `{"name":"X"} {"name":"Y"}`},
		"token nested":               {"PATCH", "/api/tokens/" + tokenA, `{"x":` + strings.Repeat("[", 20000) + strings.Repeat("]", 20000) + `}`},
		"message nested":             {"POST", "/api/messages", deep},
		"combatant number 1e400":     {"PATCH", "/api/combatants/" + heroCombatID, `{"data":{"hit_points":1e400}}`},
	} {
		r := e.do(t, c[0], c[1], c[2])
		if r.status != 400 {
			t.Errorf("%s: %d %.200s", name, r.status, r.body)
			continue
		}
		if !strings.Contains(string(r.body), `"message"`) {
			t.Errorf("%s: body %.200s", name, r.body)
		}
	}
	if after := e.do(t, "GET", "/api/monsters/"+goblinID, ""); string(after.body) != string(before.body) {
		t.Errorf("a refused request changed the goblin:\n%.300s\n%.300s", before.body, after.body)
	}
}

// JSON text must be UTF-8 (RFC 8259 8.1). encoding/json would turn invalid
// bytes into U+FFFD, storing a name that is not what the client sent
// without telling anyone: such bodies are a 400.
func TestAPIInvalidUTF8BodiesAreRefused(t *testing.T) {
	e := newEnv(t, envOptions{})
	for name, c := range map[string][3]string{
		"entity PATCH":    {"PATCH", "/api/monsters/" + goblinID, "{\"name\":\"Gob\xff\xfelin\"}"},
		"message POST":    {"POST", "/api/messages", "{\"text\":\"hi \xff\"}"},
		"token PATCH":     {"PATCH", "/api/tokens/" + tokenA, "{\"name\":\"\xc3\"}"},
		"combatant PATCH": {"PATCH", "/api/combatants/" + heroCombatID, "{\"name\":\"\xed\xa0\x80\"}"},
	} {
		if r := e.do(t, c[0], c[1], c[2]); r.status != 400 {
			t.Errorf("%s: %d %.200s", name, r.status, r.body)
		}
	}
}

// Entity data the system's Lua views cannot take (the bridge stops at 100
// levels) must be refused when written, not stored to make every later
// view and reference page of the entity answer 500.
func TestAPIEntityDataTooDeepForViewsIsRefused(t *testing.T) {
	e := newEnv(t, envOptions{})
	deep := strings.Repeat("[", 150) + strings.Repeat("]", 150)
	r := e.do(t, "PATCH", "/api/monsters/"+goblinID, `{"data":{"x":`+deep+`}}`)
	if r.status != 400 {
		t.Errorf("PATCH with data nested 150 levels: %d", r.status)
	}
	for _, path := range []string{"/api/monsters/" + goblinID + "?schema=view", "/monster.goblin"} {
		if got := e.do(t, "GET", path, ""); got.status != 200 {
			t.Errorf("%s after the write: %d %.100s", path, got.status, got.body)
		}
	}
}
