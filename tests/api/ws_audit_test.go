package api

// Audit of contract 6.1 and 6.2 details the other WebSocket tests leave
// open: the exact envelope keys, which events are answered, and that a
// refused door leaves the store as it was.

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"
	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/core/engine"
	"github.com/vttapp/companion/hub"
	"github.com/vttapp/companion/tests/e2e"
)

// rawFrame reads one frame and returns its top-level keys and the frame.
func rawFrame(t *testing.T, conn *websocket.Conn) (keys []string, env map[string]json.RawMessage) {
	t.Helper()
	conn.SetReadDeadline(time.Now().Add(e2e.WsWait))
	_, data, err := conn.ReadMessage()
	if err != nil {
		t.Fatalf("read: %v", err)
	}
	if err := json.Unmarshal(data, &env); err != nil {
		t.Fatalf("frame is not a JSON object: %s", data)
	}
	for k := range env {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys, env
}

// TestAuditWSEnvelopeKeys: contract 6.1 names the envelope fields name,
// data, requestId and responseId. A broadcast carries name and data; a
// reply adds responseId, the requestId exactly as sent (string, number);
// the server never sends requestId.
func TestAuditWSEnvelopeKeys(t *testing.T) {
	e := e2e.NewWSEnv(t, hub.Options{})
	conn, _, err := websocket.DefaultDialer.Dial(e.WsURL("/"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	keys, env := rawFrame(t, conn)
	var app map[string]json.RawMessage
	json.Unmarshal(env["data"], &app)
	if strings.Join(keys, ",") != "data,name" || string(env["name"]) != `"app"` || len(app) != 2 || app["version"] == nil || app["build"] == nil {
		t.Fatalf("app frame keys %v: %v", keys, env)
	}
	if keys, env := rawFrame(t, conn); strings.Join(keys, ",") != "data,name" || string(env["name"]) != `"clientConnected"` {
		t.Fatalf("clientConnected frame keys %v: %v", keys, env)
	}
	for _, id := range []string{`"r-1"`, `42`, `-7`} {
		frame := `{"name":"updateToken","requestId":` + id + `,"data":{"id":"` + e2e.WsTokenID + `","name":"N"}}`
		if err := conn.WriteMessage(websocket.TextMessage, []byte(frame)); err != nil {
			t.Fatal(err)
		}
		keys, env := rawFrame(t, conn)
		if strings.Join(keys, ",") != "data,name" || string(env["name"]) != `"tokenUpdated"` {
			t.Fatalf("broadcast keys %v: %v", keys, env)
		}
		keys, env = rawFrame(t, conn)
		if strings.Join(keys, ",") != "data,name,responseId" || string(env["name"]) != `"updateToken"` || string(env["responseId"]) != id {
			t.Fatalf("reply to requestId %s: keys %v, %v", id, keys, env)
		}
	}
	// An error reply has the same envelope, data {message, kind, request}.
	conn.WriteMessage(websocket.TextMessage, []byte(`{"name":"updateToken","requestId":"bad","data":{"id":"nope"}}`))
	keys, env = rawFrame(t, conn)
	var d map[string]string
	json.Unmarshal(env["data"], &d)
	if strings.Join(keys, ",") != "data,name,responseId" || string(env["name"]) != `"error"` || string(env["responseId"]) != `"bad"` ||
		d["kind"] != "not found" || d["request"] != "updateToken" || !strings.Contains(d["message"], "nope") {
		t.Fatalf("error reply keys %v: %v", keys, env)
	}
}

// TestAuditWSRepliesOnlyWhenAsked: a client event without requestId gets
// no reply of its own, only the broadcasts of what it changed (the sender
// included); getAttribute is answered anyway, without responseId.
func TestAuditWSRepliesOnlyWhenAsked(t *testing.T) {
	e := e2e.NewWSEnv(t, hub.Options{})
	if _, err := e.Svc.ShowMap(context.Background(), e2e.WsMapID); err != nil { // doors reach players on the map on screen
		t.Fatal(err)
	}
	a, _ := e.Connect(t)
	b, _ := e.Connect(t)
	a.WaitFor(core.EventClientConnected)
	for _, tc := range []struct {
		name  string
		data  any
		hears []string
	}{
		{core.EventClientUpdated, map[string]any{"name": "Ann"}, []string{core.EventClientUpdated}},
		{core.RequestMapViewportUpdated, map[string]any{"id": e2e.WsMapID, "x": 1, "y": 2, "zoom": 1}, nil},
		{core.EventTokenMoved, core.Movement{ID: e2e.WsTokenID, X: 11, Y: 21, State: core.DragStart}, []string{core.EventTokenMoved}},
		{core.EventTokenMoved, core.Movement{ID: e2e.WsTokenID, X: 12, Y: 22, State: core.DragEnd}, []string{core.EventTokenMoved, core.EventTokenUpdated}},
		{core.RequestUpdateDoor, core.Door{MapID: e2e.WsMapID, ID: e2e.WsDoorID, State: core.DoorOpen}, []string{core.EventMapUpdated, core.EventLineOfSightUpdated}},
		{core.EventPointerUpdated, map[string]any{"x": 1, "y": 1}, []string{core.EventPointerUpdated}},
		{core.RequestUpdateToken, map[string]any{"id": e2e.WsTokenID, "name": "T"}, []string{core.EventTokenUpdated}},
		{core.RequestUpdateEntity, map[string]any{"id": e2e.WsEntityID, "notes": "n"}, []string{core.EventEntityUpdated, core.EventCombatantUpdated}},
		{core.RequestUpdateCombatant, map[string]any{"id": e2e.WsCombatant, "name": "C"}, []string{core.EventCombatantUpdated, core.EventEntityUpdated}},
		{core.RequestCreateMessage, map[string]any{"text": "hi"}, []string{core.EventMessageCreated}},
		{core.RequestSetAttribute, core.Attribute{EntityID: e2e.WsEntityID, Attributes: core.Object{"str": 9}}, []string{core.EventEntityUpdated, core.EventCombatantUpdated}},
		{core.EventTrackedObjectCreated, map[string]any{"id": 1}, []string{core.EventTrackedObjectCreated}},
		{core.EventTrackedObjectUpdated, map[string]any{"id": 1, "x": 4}, []string{core.EventTrackedObjectUpdated}},
		{core.EventTrackedObjectDeleted, map[string]any{"id": 1}, []string{core.EventTrackedObjectDeleted}},
		{core.EventTrackedObjectsUpdated, []map[string]any{{"id": 2}}, []string{core.EventTrackedObjectsUpdated}},
	} {
		a.Send(tc.name, tc.data, "")
		for _, c := range []*e2e.WsClient{a, b} {
			for _, m := range c.ExpectNames(tc.hears...) {
				if len(m.ResponseID) != 0 {
					t.Fatalf("%s: broadcast %s carries responseId %s", tc.name, m.Name, m.ResponseID)
				}
			}
		}
		e.Mark(t, a, b) // nothing else: no reply to a request without requestId
	}
	a.Send(core.RequestGetAttribute, core.Attribute{EntityID: e2e.WsEntityID, Attributes: core.Object{"str": nil}}, "")
	m := a.Next()
	var attr core.Attribute
	m.Decode(t, &attr)
	if m.Name != core.RequestGetAttribute || len(m.ResponseID) != 0 || attr.EntityID != e2e.WsEntityID || attr.Attributes["str"] != 9.0 {
		t.Fatalf("getAttribute without requestId: %s %s %s", m.Name, m.ResponseID, m.Data)
	}
	e.Mark(t, a, b)
}

// TestAuditWSRefusedDoorChangesNothing: with remote interaction off a
// door request is refused and the door stays as stored.
func TestAuditWSRefusedDoorChangesNothing(t *testing.T) {
	e := e2e.NewWSEnv(t, hub.Options{})
	a, _ := e.Connect(t)
	off := false
	if _, err := e.Svc.UpdateSettings(t.Context(), engine.SettingsPatch{RemoteInteraction: &off}); err != nil {
		t.Fatal(err)
	}
	a.WaitFor(core.EventInteractionUpdated)
	a.Send(core.RequestUpdateDoor, core.Door{MapID: e2e.WsMapID, ID: e2e.WsDoorID, State: core.DoorOpen}, "")
	if m := a.Next(); m.Name != "error" {
		t.Fatalf("refused door answered %s", m.Name)
	}
	var door string
	err := e.Store.View(t.Context(), func(tx core.Tx) error {
		m, err := tx.Map(e2e.WsMapID)
		if err != nil {
			return err
		}
		for _, w := range m.Walls {
			if w.ID == e2e.WsDoorID {
				door = w.Door
			}
		}
		return nil
	})
	if err != nil || door != core.DoorClosed {
		t.Fatalf("door after a refused request: %q %v", door, err)
	}
	e.Mark(t, a)
}

// TestAuditWSMessageFromUnnamedClientIsNotTheGM: a message without source
// is the GM's (shapes 17.5), so a client's message is always signed, with
// its connection id until it has registered a name.
func TestAuditWSMessageFromUnnamedClientIsNotTheGM(t *testing.T) {
	e := e2e.NewWSEnv(t, hub.Options{})
	a, ch := e.Connect(t)
	a.Send(core.RequestCreateMessage, map[string]any{"text": "who am I?"}, "")
	var m core.Message
	a.WaitFor(core.EventMessageCreated).Decode(t, &m)
	if m.Source != "client-"+itoa(ch) {
		t.Fatalf("message of an unnamed client has source %q, want client-%d", m.Source, ch)
	}
}

// TestAuditWSRefusedWhenClosingIsJSON: an upgrade refused while the
// server shuts down gets the contract's error body, {"message": text}.
func TestAuditWSRefusedWhenClosingIsJSON(t *testing.T) {
	e := e2e.NewWSEnv(t, hub.Options{})
	e.Hub.Close()
	_, resp, err := websocket.DefaultDialer.Dial(e.WsURL("/"), nil)
	if err == nil || resp == nil {
		t.Fatalf("dial after close: %v", err)
	}
	defer resp.Body.Close()
	var body map[string]string
	if resp.StatusCode != 503 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") ||
		json.NewDecoder(resp.Body).Decode(&body) != nil || len(body) != 1 || body["message"] == "" {
		t.Fatalf("refused upgrade: %d %q %v", resp.StatusCode, resp.Header.Get("Content-Type"), body)
	}
}

// TestAuditWSClientColorIsRRGGBB: contract 2.2 gives a client's colour as
// #rrggbb; #rgb is widened, fewer digits are a number's, anything else is
// refused and not registered.
func TestAuditWSClientColorIsRRGGBB(t *testing.T) {
	e := e2e.NewWSEnv(t, hub.Options{})
	a, _ := e.Connect(t)
	// #12345 is the Encounter+ web client's 0x012345 (a random number
	// written without its leading zeros).
	for _, c := range [][2]string{{"#A1B2C3", "#a1b2c3"}, {"#12345", "#012345"}, {"#abc", "#aabbcc"}} { // in order: the last one stays
		in, want := c[0], c[1]
		a.Send(core.EventClientUpdated, map[string]any{"color": in}, "")
		var cl core.Client
		a.WaitFor(core.EventClientUpdated).Decode(t, &cl)
		if cl.Color != want {
			t.Fatalf("colour %s registered as %q, want %s", in, cl.Color, want)
		}
	}
	for _, bad := range []string{"red", "#", "#gggggg", "112233", "#1122334"} {
		a.Send(core.EventClientUpdated, map[string]any{"name": "X", "color": bad}, "c")
		if m := a.Reply("c"); m.Name != "error" || !strings.Contains(string(m.Data), "#rrggbb") {
			t.Fatalf("colour %q answered %s %s", bad, m.Name, m.Data)
		}
	}
	if cl := e.Hub.Clients()[0]; cl.Color != "#aabbcc" || cl.Name != "" {
		t.Fatalf("a refused registration changed the client: %+v", cl)
	}
}

// TestAuditWSNullRequestIDIsNoRequestID: "requestId": null asks for no
// reply, like an absent requestId.
func TestAuditWSNullRequestIDIsNoRequestID(t *testing.T) {
	e := e2e.NewWSEnv(t, hub.Options{})
	a, _ := e.Connect(t)
	a.SendRaw(`{"name":"updateToken","requestId":null,"data":{"id":"` + e2e.WsTokenID + `","name":"Z"}}`)
	a.ExpectNames(core.EventTokenUpdated)
	e.Mark(t, a)
}

// TestAuditWSReplyToAHiddenTokenIsAStub: the reply to a request follows
// the broadcast rule: a hidden token reaches a player as {id, hidden} only.
func TestAuditWSReplyToAHiddenTokenIsAStub(t *testing.T) {
	e := e2e.NewWSEnv(t, hub.Options{})
	a, _ := e.Connect(t)
	// The GM hides it (players' writes cannot change hidden).
	if _, err := e.Svc.PatchToken(context.Background(), e2e.WsTokenID, core.Object{"hidden": true, "name": "SECRET-AMBUSH"}); err != nil {
		t.Fatal(err)
	}
	a.Send(core.RequestUpdateToken, map[string]any{"id": e2e.WsTokenID, "x": 99}, "h-1")
	m := a.Reply("h-1")
	// To a player a hidden token does not exist: an error reply, or at most
	// a stub, never its fields.
	if (m.Name != core.RequestUpdateToken && m.Name != "error") || strings.Contains(string(m.Data), "SECRET") || strings.Contains(string(m.Data), `"x"`) {
		t.Fatalf("reply about a hidden token: %s %s", m.Name, m.Data)
	}
}
