package routes

// Audit of the path rules of contract 4.2-4.5 and 7 that the route table
// alone does not settle: ids that need percent-encoding, and the reserved
// labels (messages, combatants, tokens...) that are never a collection.

import (
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/vttapp/companion/core"
)

// oddID needs escaping in a path: a slash, a space, a non-ASCII letter.
const oddID = "odd/id é+ü"

func seedOddIDs(tx core.Tx) error {
	e := &core.Entity{ID: oddID, Kind: "monster", System: "dnd5e", Name: "Odd One", Slug: "odd-one", Data: core.Object{"size": "Tiny"}}
	if err := e.Normalize(time.Now()); err != nil {
		return err
	}
	if err := tx.PutEntity(e); err != nil {
		return err
	}
	tk := &core.Token{ID: oddID, Name: "Odd token", MapID: mapID}
	tk.Normalize()
	if err := tx.PutToken(tk); err != nil {
		return err
	}
	cb := &core.Combatant{ID: oddID, Name: "Odd combatant", Campaign: campaignID}
	cb.Normalize()
	return tx.PutCombatant(cb)
}

// TestAuditPercentEncodedIDs: an id is matched after percent-decoding,
// whether or not the escapes are the ones Go would have chosen (%2F for a
// slash, %41 for a plain letter).
func TestAuditPercentEncodedIDs(t *testing.T) {
	e := newEnv(t, envOptions{seed: seedOddIDs})
	escaped := url.PathEscape(oddID) // odd%2Fid%20%C3%A9+%C3%BC
	if !strings.Contains(escaped, "%2F") {
		t.Fatalf("fixture id does not need %%2F: %s", escaped)
	}
	for _, coll := range []string{"monsters", "tokens", "combatants"} {
		r := e.do(t, "GET", "/api/"+coll+"/"+escaped, "")
		if r.status != 200 || r.json(t)["id"] != oddID {
			t.Fatalf("GET /api/%s/%s: %d %s", coll, escaped, r.status, r.body)
		}
	}
	// An escaped plain letter ("%65" is "e") names the same entity.
	if r := e.do(t, "GET", "/api/monsters/%65"+goblinID[1:], ""); r.status != 200 || r.json(t)["id"] != goblinID {
		t.Fatalf("GET with %%65: %d %s", r.status, r.body)
	}
	// An escaped collection label is the same collection.
	if r := e.do(t, "GET", "/api/mon%73ters/"+goblinID, ""); r.status != 200 {
		t.Fatalf("GET /api/mon%%73ters: %d %s", r.status, r.body)
	}
	// Writes compare the body id with the decoded path id.
	r := e.do(t, "PATCH", "/api/monsters/"+escaped, `{"id":"`+oddID+`","descr":"found"}`)
	if r.status != 200 || r.json(t)["descr"] != "found" {
		t.Fatalf("PATCH: %d %s", r.status, r.body)
	}
	r = e.do(t, "PUT", "/api/combatants/"+escaped, `{"id":"`+oddID+`","name":"Renamed"}`)
	if r.status != 200 || r.json(t)["name"] != "Renamed" {
		t.Fatalf("PUT combatant: %d %s", r.status, r.body)
	}
	// The 404 names the id as decoded, not as escaped.
	wantError(t, e.do(t, "GET", "/api/monsters/no%2Fsuch", ""), 404, "no monster with id 'no/such'")
}

// TestAuditReservedLabels: the labels of fixed routes are never a
// collection (the system loader refuses them), so the catch-all collection
// routes do not answer them: a method the fixed route lacks is 405 with
// the fixed route's Allow, and a path with no route at all is 404.
func TestAuditReservedLabels(t *testing.T) {
	e := newEnv(t, envOptions{})
	for _, method := range []string{"GET", "HEAD", "DELETE", "PUT", "PATCH"} {
		for _, path := range []string{"/api/messages", "/api/import"} {
			r := e.do(t, method, path, "")
			if r.status != 405 || r.header.Get("Allow") != "POST, OPTIONS" {
				t.Fatalf("%s %s: %d Allow %q %s", method, path, r.status, r.header.Get("Allow"), r.body)
			}
			if method != "HEAD" {
				wantError(t, r, 405, "method "+method+" is not allowed on "+path+" (allowed: POST, OPTIONS)")
			}
		}
	}
	wantError(t, e.do(t, "GET", "/api/combatants", ""), 404, "no endpoint lists combatants")
	wantError(t, e.do(t, "GET", "/api/tokens", ""), 404, "no endpoint lists tokens")
	for _, path := range []string{"/api/messages/x", "/api/system/x", "/api/clients/x", "/api/import/x", "/api/openapi.json/x"} {
		for _, method := range []string{"GET", "PUT", "PATCH"} {
			wantError(t, e.do(t, method, path, `{}`), 404, "nothing at "+path)
		}
	}
	// The fixed routes themselves are unchanged.
	if r := e.do(t, "GET", "/api/system", ""); r.status != 200 {
		t.Fatalf("GET /api/system: %d", r.status)
	}
	if r := e.do(t, "POST", "/api/messages", `{"text":"still here"}`); r.status != 200 {
		t.Fatalf("POST /api/messages: %d %s", r.status, r.body)
	}
	if allow := e.do(t, "DELETE", "/api/combatants/"+heroCombatID, "").header.Get("Allow"); allow != "GET, HEAD, PUT, PATCH, OPTIONS" {
		t.Fatalf("combatant Allow = %q", allow)
	}
}

// TestAuditLongValuesAreClippedInErrors: an id, label or query value is
// quoted in the error text, but a huge one is not echoed back whole.
func TestAuditLongValuesAreClippedInErrors(t *testing.T) {
	e := newEnv(t, envOptions{})
	long := strings.Repeat("é", 4000)
	for _, c := range []apiCall{
		{"GET", "/api/monsters/" + long, ""}, {"GET", "/api/" + long, ""}, {"GET", "/api/monsters?schema=" + long, ""},
		{"GET", "/api/monsters/" + goblinID + "?schema=" + long, ""}, {"GET", "/api/monsters/" + goblinID + "?references=" + long, ""},
		{"GET", "/api/combatants/" + long, ""}, {"GET", "/api/tokens/" + long, ""},
		{"PATCH", "/api/tokens/" + long, `{"x":1}`}, {"PUT", "/api/monsters/a", `{"id":"` + long + `","name":"x"}`},
		{"PATCH", "/api/monsters/" + goblinID, `{"id":"` + long + `"}`}, {"PUT", "/api/combatants/" + long, `{"id":"b"}`},
	} {
		r := e.do(t, c.method, c.path, c.body)
		if r.status < 400 {
			t.Fatalf("%s %.40s: %d", c.method, c.path, r.status)
		}
		wantError(t, r, r.status, "…")
		if len(r.body) > 400 {
			t.Fatalf("%s %.40s: %d-byte error body echoes the value: %.120s", c.method, c.path, len(r.body), r.body)
		}
	}
	// Short values are quoted whole.
	wantError(t, e.do(t, "GET", "/api/monsters/"+strings.Repeat("x", 64), ""), 404, "'"+strings.Repeat("x", 64)+"'")
}

// TestAuditWithMemberReplacesAnExistingKey: references=true must not give
// a JSON object two "references" keys when the rendered entity (a system's
// view) already has one.
func TestAuditWithMemberReplacesAnExistingKey(t *testing.T) {
	for in, want := range map[string]string{
		`{}`:      `{"references":[1]}`,
		`{"a":1}`: `{"a":1,"references":[1]}`,
		`{"references":["old"],"b":{"references":2}}`:     `{"references":[1],"b":{"references":2}}`,
		`{"a":"references", "references" : {"x":[1,2]} }`: `{"a":"references", "references" : [1] }`,
	} {
		got, err := withMember([]byte(in), "references", []byte(`[1]`))
		if err != nil || string(got) != want {
			t.Fatalf("withMember(%s) = %s, %v; want %s", in, got, err, want)
		}
	}
	if _, err := withMember([]byte(`[1]`), "references", []byte(`[]`)); err == nil {
		t.Fatal("withMember accepted an array")
	}
}
