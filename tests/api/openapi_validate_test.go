package api

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/tests/e2e"
)

// TestDescriptionCatchesMismatches: the checks above fail on what the
// description lacks or contradicts (an extra field, a value out of its
// enum, an unlisted event, an undescribed status) and pass what the server
// marshals from its Go types, so they cannot quietly check nothing.
func TestDescriptionCatchesMismatches(t *testing.T) {
	d := e2e.EventDescription(t)
	frame := func(name, data string) e2e.WsMsg { return e2e.WsMsg{Name: name, Data: json.RawMessage(data)} }
	client, _ := json.Marshal(core.Client{Channel: 1, Address: "127.0.0.1", Color: "#123456"})
	move, _ := json.Marshal(core.Movement{ID: "t1", X: 1, Y: 2, State: core.DragControl, MapID: "m1"})
	for _, ok := range []e2e.WsMsg{
		frame(core.EventApp, `{"version":"0.1.0","build":1}`),
		frame(core.EventClientConnected, string(client)),
		frame(core.EventTokenMoved, string(move)),
		frame(core.EventTokenUpdated, `{"id":"t1","hidden":true,"size":""}`),
		frame(core.EventInteractionUpdated, `"token"`),
		{Name: core.EventTokenMoved, Data: json.RawMessage(`{"ok":true}`), ResponseID: json.RawMessage(`"r1"`)},
		{Name: core.EventTokenMoved, Data: json.RawMessage(`{"ok":true,"coalesced":true}`), ResponseID: json.RawMessage(`"r1"`)},
		{Name: core.RequestGetAttribute, Data: json.RawMessage(`{"entityId":"e1"}`), ResponseID: json.RawMessage(`7`)},
		frame(core.RequestGetAttribute, `{"entityId":"e1","attributes":{"str":9}}`), // answered without a requestId
	} {
		if err := d.CheckFrame(ok); err != nil {
			t.Errorf("%s %s: %v", ok.Name, ok.Data, err)
		}
	}
	for _, bad := range []e2e.WsMsg{
		frame(core.EventApp, `{"version":"0.1.0","build":1,"secret":true}`),
		frame(core.EventClientConnected, strings.Replace(string(client), `"channel":1`, `"channel":"one"`, 1)),
		frame(core.EventTokenMoved, strings.Replace(string(move), `"control"`, `"flying"`, 1)),
		frame(core.EventTokenUpdated, `{"id":"t1","hidden":true,"name":"the hidden one's name"}`),
		frame(core.EventInteractionUpdated, `"some"`),
		frame("tokenTeleported", `{}`),
		{Name: "error", Data: json.RawMessage(`{"message":"x","kind":"oops"}`), ResponseID: json.RawMessage(`"r1"`)},
		{Name: core.EventClientUpdated, Data: json.RawMessage(`{"ok":false}`), ResponseID: json.RawMessage(`"r1"`)},
		{Name: core.RequestGetAttribute, Data: json.RawMessage(`{"attributes":{}}`), ResponseID: json.RawMessage(`7`)},
		{Name: "deleteEverything", Data: json.RawMessage(`{"ok":true}`), ResponseID: json.RawMessage(`"r1"`)},
	} {
		if err := d.CheckFrame(bad); err == nil {
			t.Errorf("%s %s passed", bad.Name, bad.Data)
		}
	}

	jsonHeader := http.Header{"Content-Type": {"application/json; charset=utf-8"}}
	get := func(path string) *http.Request {
		req, err := http.NewRequest("GET", "http://test"+path, nil)
		if err != nil {
			t.Fatal(err)
		}
		return req
	}
	if err := d.CheckResponse(get("/api/clients"), 200, jsonHeader, []byte("["+string(client)+"]")); err != nil {
		t.Errorf("a client list: %v", err)
	}
	for _, bad := range []struct {
		path   string
		status int
		body   string
	}{
		{"/api/clients", 200, "[" + strings.Replace(string(client), "{", `{"bogus":1,`, 1) + "]"},
		{"/api/clients", 200, `{"clients":[]}`},
		{"/api/tokens/t1", 404, `{"message":"no token","kind":"not found"}`},
		{"/api/clients", 418, `{"message":"teapot"}`},
	} {
		if err := d.CheckResponse(get(bad.path), bad.status, jsonHeader, []byte(bad.body)); err == nil {
			t.Errorf("GET %s %d %s passed", bad.path, bad.status, bad.body)
		}
	}
}
