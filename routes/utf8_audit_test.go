package routes

import "testing"

// TestAuditNonUTF8IsRefused: JSON text is UTF-8 (RFC 8259 8.1);
// encoding/json would quietly store U+FFFD for the bad bytes. HTTP bodies
// get 400 and nothing is written (the hub's frames: package hub).
func TestAuditNonUTF8IsRefused(t *testing.T) {
	e := newEnv(t, envOptions{})
	for _, c := range []apiCall{
		{"PATCH", "/api/monsters/" + goblinID, "{\"name\":\"Gob\xff\xfelin\"}"},
		{"PUT", "/api/monsters/" + goblinID, "{\"id\":\"" + goblinID + "\",\"name\":\"\xc3\"}"},
		{"POST", "/api/messages", "{\"text\":\"hi \xff\"}"},
		{"PATCH", "/api/tokens/" + tokenA, "{\"name\":\"\xc3\"}"},
		{"PATCH", "/api/combatants/" + heroCombatID, "{\"name\":\"\xed\xa0\x80\"}"},
	} {
		wantError(t, e.do(t, c.method, c.path, c.body), 400, "not UTF-8")
	}
	if ev := e.events.Take(); ev != "" {
		t.Fatalf("refused bodies published %s", ev)
	}
}
