package api

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/vttapp/companion/core/redact"

	"github.com/gorilla/websocket"
	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/hub"
	"github.com/vttapp/companion/sight"
	"github.com/vttapp/companion/tests/e2e"
)

func TestWSConnectAppClientsAndDisconnect(t *testing.T) {
	e := e2e.NewWSEnv(t, hub.Options{})
	a := e.Dial(t, "/", nil)
	var app struct {
		Version string `json:"version"`
		Build   int    `json:"build"`
	}
	first := a.Next()
	if first.Name != core.EventApp {
		t.Fatalf("first message %s, want app", first.Name)
	}
	first.Decode(t, &app)
	var snap struct {
		Version string `json:"version"`
		Build   int    `json:"build"`
	}
	if status := e2e.HttpJSON(t, "GET", e.Public.URL+"/api", "", &snap); status != http.StatusOK {
		t.Fatalf("GET /api: %d", status)
	}
	if app.Version != core.Version || app.Build != core.Build || app.Version != snap.Version || app.Build != snap.Build {
		t.Fatalf("app %+v, want version %s build %d as GET /api (%+v)", app, core.Version, core.Build, snap)
	}
	var ca core.Client
	a.WaitFor(core.EventClientConnected).Decode(t, &ca)

	// Any path upgrades; plain HTTP on the same port keeps working.
	b := e.Dial(t, "/some/other/path", nil)
	b.ExpectNames(core.EventApp, core.EventClientConnected)
	var cb core.Client
	a.WaitFor(core.EventClientConnected).Decode(t, &cb)
	if cb.Channel == ca.Channel || cb.Channel == 0 {
		t.Fatalf("channels %d and %d: each connection needs its own", ca.Channel, cb.Channel)
	}
	var listed []core.Client
	if status := e2e.HttpJSON(t, "GET", e.Public.URL+"/api/clients", "", &listed); status != http.StatusOK {
		t.Fatalf("GET /api/clients: %d", status)
	}
	if len(listed) != 2 || listed[0].Channel != ca.Channel || listed[1].Channel != cb.Channel {
		t.Fatalf("GET /api/clients = %+v, want channels %d and %d", listed, ca.Channel, cb.Channel)
	}
	for _, c := range listed {
		if c.Address != "" || c.RunMode != core.RunModeNormal {
			t.Fatalf("client %+v: want no address (the game master's to see) and runMode normal", c)
		}
	}
	if all := e.Hub.Clients(); len(all) != 2 || all[0].Address != "127.0.0.1" {
		t.Fatalf("the hub's clients (the host console's list) %+v: want their addresses", all)
	}
	var raw []map[string]any
	e2e.HttpJSON(t, "GET", e.Public.URL+"/api/clients", "", &raw)
	for _, key := range []string{"channel", "address", "name", "color", "screenWidth", "screenHeight", "runMode", "device", "mapCenterX", "mapCenterY", "mapZoom"} {
		if _, ok := raw[0][key]; !ok {
			t.Errorf("GET /api/clients lacks %q (contract 2.2)", key)
		}
	}

	b.Conn.Close()
	var gone core.Client
	a.WaitFor(core.EventClientDisconnected).Decode(t, &gone)
	if gone.Channel != cb.Channel {
		t.Fatalf("clientDisconnected for channel %d, want %d", gone.Channel, cb.Channel)
	}
	if cs := e.WaitClients(t, 1); cs[0].Channel != ca.Channel {
		t.Fatalf("clients after close %+v", cs)
	}
}

func TestWSClientUpdatedAndViewport(t *testing.T) {
	e := e2e.NewWSEnv(t, hub.Options{})
	a, chA := e.Connect(t)
	b, _ := e.Connect(t)
	a.WaitFor(core.EventClientConnected)
	a.Send(core.EventClientUpdated, map[string]any{"name": "Table", "color": "#112233", "runMode": "tv", "device": "tv",
		"screenWidth": 1920, "screenHeight": 1080, "channel": 99, "address": "spoofed"}, "")
	for _, c := range []*e2e.WsClient{a, b} {
		var got core.Client
		c.WaitFor(core.EventClientUpdated).Decode(t, &got)
		if got.Channel != chA || got.Name != "Table" || got.Color != "#112233" || got.RunMode != "tv" || got.ScreenWidth != 1920 || got.Address != "" {
			t.Fatalf("clientUpdated %+v: registration lost, channel taken from the client, or an address shown to players", got)
		}
		if !got.IsPlayerDisplay() {
			t.Fatal("runMode tv must make a player display")
		}
	}
	a.Send(core.RequestMapViewportUpdated, map[string]any{"id": e2e.WsMapID, "x": 350, "y": 250, "zoom": 1.5}, "vp-1")
	a.Reply("vp-1")
	cl := e.Hub.Clients()[0]
	if cl.Address != "127.0.0.1" {
		t.Fatalf("the hub's client %+v: its address is the connection's, not the client's", cl)
	}
	if cl.MapCenterX != 350 || cl.MapCenterY != 250 || cl.MapZoom != 1.5 || cl.Name != "Table" {
		t.Fatalf("client after viewport %+v", cl)
	}
	a.Send(core.RequestMapViewportUpdated, map[string]any{"id": e2e.WsMapID, "zoom": -1}, "vp-2")
	if m := a.Reply("vp-2"); m.Name != "error" {
		t.Fatalf("negative zoom answered %s", m.Name)
	}
	a.Send(core.EventClientUpdated, map[string]any{"name": strings.Repeat("x", 300)}, "long")
	if m := a.Reply("long"); m.Name != "error" {
		t.Fatalf("an over-long name answered %s", m.Name)
	}
}

func TestWSDragStreamWithRemoteInteractionOn(t *testing.T) {
	e := e2e.NewWSEnv(t, hub.Options{})
	a, chA := e.Connect(t)
	b, _ := e.Connect(t)
	a.WaitFor(core.EventClientConnected)

	a.Send(core.EventTokenMoved, core.Movement{ID: e2e.WsTokenID, X: 10, Y: 20, State: core.DragStart}, "")
	a.Send(core.EventTokenMoved, core.Movement{ID: e2e.WsTokenID, X: 50, Y: 60, State: core.DragControl, Path: []float64{10, 20, 50, 60}}, "")
	a.Send(core.EventTokenMoved, core.Movement{ID: e2e.WsTokenID, X: 80, Y: 90, State: core.DragEnd}, "end-1")
	for _, c := range []*e2e.WsClient{a, b} { // the originator receives its own broadcast
		msgs := c.ExpectNames(core.EventTokenMoved, core.EventTokenMoved, core.EventTokenMoved, core.EventTokenUpdated)
		var m core.Movement
		msgs[1].Decode(t, &m)
		if m.State != core.DragControl || m.X != 50 || m.Source == nil || m.Source.ID != "client-"+itoa(chA) {
			t.Fatalf("control re-broadcast %+v", m)
		}
		var tok core.Token
		msgs[3].Decode(t, &tok)
		if tok.X != 80 || tok.Y != 90 {
			t.Fatalf("tokenUpdated at %v,%v", tok.X, tok.Y)
		}
	}
	if m := a.Next(); !strings.Contains(string(m.ResponseID), "end-1") {
		t.Fatalf("want the reply to end-1, got %s", m.Name)
	}
	if tok := e.Token(t); tok.X != 80 || tok.Y != 90 {
		t.Fatalf("end not committed: %v,%v", tok.X, tok.Y)
	}

	// cancel restores the start position and writes nothing.
	a.Send(core.EventTokenMoved, core.Movement{ID: e2e.WsTokenID, X: 80, Y: 90, State: core.DragStart}, "")
	a.Send(core.EventTokenMoved, core.Movement{ID: e2e.WsTokenID, X: 300, Y: 300, State: core.DragControl}, "")
	a.Send(core.EventTokenMoved, core.Movement{ID: e2e.WsTokenID, X: 300, Y: 300, State: core.DragCancel}, "")
	for _, c := range []*e2e.WsClient{a, b} {
		msgs := c.ExpectNames(core.EventTokenMoved, core.EventTokenMoved, core.EventTokenMoved)
		var m core.Movement
		msgs[2].Decode(t, &m)
		if m.State != core.DragCancel || m.X != 80 || m.Y != 90 {
			t.Fatalf("cancel %+v, want the start 80,90", m)
		}
	}
	if tok := e.Token(t); tok.X != 80 {
		t.Fatalf("cancel moved the token to %v", tok.X)
	}

	// A client that disconnects mid-drag: its drag is cancelled for the others.
	a.Send(core.EventTokenMoved, core.Movement{ID: e2e.WsTokenID, X: 80, Y: 90, State: core.DragStart}, "")
	a.Send(core.EventTokenMoved, core.Movement{ID: e2e.WsTokenID, X: 1, Y: 1, State: core.DragControl}, "")
	b.ExpectNames(core.EventTokenMoved, core.EventTokenMoved)
	a.Conn.Close()
	var m core.Movement
	b.Next().Decode(t, &m)
	if m.State != core.DragCancel || m.X != 80 {
		t.Fatalf("after the dragger left: %+v, want cancel at 80,90", m)
	}
	b.WaitFor(core.EventClientDisconnected)
}

func TestWSRemoteInteractionOffRefusesDragsDoorsPointers(t *testing.T) {
	e := e2e.NewWSEnv(t, hub.Options{})
	a, _ := e.Connect(t)
	b, _ := e.Connect(t)
	a.WaitFor(core.EventClientConnected)

	var settings core.Settings
	if status := e2e.HttpJSON(t, "PATCH", e.Host.URL+"/host/api/settings", `{"remoteInteraction": false}`, &settings); status != http.StatusOK || settings.RemoteInteraction {
		t.Fatalf("PATCH settings: %d %+v", status, settings)
	}
	for _, c := range []*e2e.WsClient{a, b} {
		var d string
		c.Next().Decode(t, &d)
		if d != core.InteractionNone {
			t.Fatalf("interactionUpdated says %q, want none", d)
		}
	}

	for _, state := range []string{core.DragStart, core.DragControl, core.DragEnd} {
		a.Send(core.EventTokenMoved, core.Movement{ID: e2e.WsTokenID, X: 500, Y: 500, State: state}, "")
		m := a.Next()
		var mv core.Movement
		m.Decode(t, &mv)
		if m.Name != core.EventTokenMoved || mv.State != core.DragBlock || mv.X != 10 || mv.Y != 20 {
			t.Fatalf("%s refused with %s %+v, want block at the committed 10,20", state, m.Name, mv)
		}
	}
	a.Send(core.RequestUpdateDoor, core.Door{MapID: e2e.WsMapID, ID: e2e.WsDoorID, State: core.DoorOpen}, "door-1")
	var errData map[string]string
	if m := a.Reply("door-1"); m.Name != "error" {
		t.Fatalf("door with interaction off answered %s", m.Name)
	} else {
		m.Decode(t, &errData)
	}
	if errData["kind"] != "conflict" || !strings.Contains(errData["message"], "remote interaction") {
		t.Fatalf("door refusal %+v", errData)
	}
	a.Send(core.EventPointerUpdated, core.Pointer{X: 1, Y: 2}, "ptr-1")
	if m := a.Reply("ptr-1"); m.Name != "error" {
		t.Fatalf("pointer with interaction off answered %s", m.Name)
	}
	// Nobody else saw anything, and nothing was written.
	e.Mark(t, a, b)
	if tok := e.Token(t); tok.X != 10 {
		t.Fatalf("a refused drag moved the token to %v", tok.X)
	}

	// Merges are not gated (contract 17.6).
	a.Send(core.RequestUpdateToken, map[string]any{"id": e2e.WsTokenID, "name": "Renamed"}, "")
	b.WaitFor(core.EventTokenUpdated)

	// Paused, players move nothing either (both web clients make tokens
	// inert while paused): the sender alone gets block; resumed, the drag
	// goes through.
	e2e.HttpJSON(t, "PATCH", e.Host.URL+"/host/api/settings", `{"remoteInteraction": true, "paused": true}`, &settings)
	b.ExpectNames(core.EventInteractionUpdated, core.EventSystemPaused)
	a.WaitFor(core.EventSystemPaused)
	a.Send(core.EventTokenMoved, core.Movement{ID: e2e.WsTokenID, X: 30, Y: 30, State: core.DragStart}, "")
	var mv core.Movement
	if m := a.Next(); m.Name != core.EventTokenMoved {
		t.Fatalf("a drag while paused answered %s", m.Name)
	} else if m.Decode(t, &mv); mv.State != core.DragBlock || mv.X != 10 {
		t.Fatalf("a drag while paused: %+v, want block at the committed 10", mv)
	}
	e.Mark(t, a, b)
	e2e.HttpJSON(t, "PATCH", e.Host.URL+"/host/api/settings", `{"paused": false}`, &settings)
	b.ExpectNames(core.EventSystemPaused)
	a.WaitFor(core.EventSystemPaused)
	a.Send(core.EventTokenMoved, core.Movement{ID: e2e.WsTokenID, X: 30, Y: 30, State: core.DragStart}, "")
	b.ExpectNames(core.EventTokenMoved)
}

func TestWSDragBlockedWhenTokenLockedMidDrag(t *testing.T) {
	e := e2e.NewWSEnv(t, hub.Options{})
	a, _ := e.Connect(t)
	b, _ := e.Connect(t)
	a.WaitFor(core.EventClientConnected)
	a.Send(core.EventTokenMoved, core.Movement{ID: e2e.WsTokenID, X: 10, Y: 20, State: core.DragStart}, "")
	a.Send(core.EventTokenMoved, core.Movement{ID: e2e.WsTokenID, X: 60, Y: 60, State: core.DragControl}, "")
	b.ExpectNames(core.EventTokenMoved, core.EventTokenMoved)
	a.ExpectNames(core.EventTokenMoved, core.EventTokenMoved)
	if status := e2e.HttpJSON(t, "PATCH", e.Public.URL+"/api/tokens/"+e2e.WsTokenID, `{"locked": true}`, nil); status != http.StatusOK {
		t.Fatalf("PATCH token: %d", status)
	}
	// The drag ends at once, for everyone, without waiting for the
	// dragger's next message.
	for _, c := range []*e2e.WsClient{a, b} {
		msgs := c.ExpectNames(core.EventTokenUpdated, core.EventTokenMoved) // HTTP writes are broadcast too
		var m core.Movement
		msgs[1].Decode(t, &m)
		if m.State != core.DragBlock || m.X != 10 || m.Y != 20 {
			t.Fatalf("after the lock: %+v, want block at 10,20", m)
		}
	}
	// A late control from the dragger is refused to it alone.
	a.Send(core.EventTokenMoved, core.Movement{ID: e2e.WsTokenID, X: 70, Y: 70, State: core.DragControl}, "")
	var m core.Movement
	a.ExpectNames(core.EventTokenMoved)[0].Decode(t, &m)
	if m.State != core.DragBlock {
		t.Fatalf("late control answered %+v", m)
	}
	e.Mark(t, a, b)
}

func TestWSDragBlockedWhenInteractionTurnsOff(t *testing.T) {
	e := e2e.NewWSEnv(t, hub.Options{})
	a, _ := e.Connect(t)
	b, _ := e.Connect(t)
	a.WaitFor(core.EventClientConnected)
	a.Send(core.EventTokenMoved, core.Movement{ID: e2e.WsTokenID, X: 10, Y: 20, State: core.DragStart}, "")
	a.Send(core.EventTokenMoved, core.Movement{ID: e2e.WsTokenID, X: 60, Y: 60, State: core.DragControl}, "")
	b.ExpectNames(core.EventTokenMoved, core.EventTokenMoved)
	a.ExpectNames(core.EventTokenMoved, core.EventTokenMoved)
	e2e.HttpJSON(t, "PATCH", e.Host.URL+"/host/api/settings", `{"remoteInteraction": false}`, nil)
	for _, c := range []*e2e.WsClient{a, b} {
		msgs := c.ExpectNames(core.EventInteractionUpdated, core.EventTokenMoved)
		var m core.Movement
		msgs[1].Decode(t, &m)
		if m.State != core.DragBlock || m.X != 10 || m.Y != 20 {
			t.Fatalf("after remote interaction went off: %+v, want block at 10,20", m)
		}
	}
	e.Mark(t, a, b)
}

func TestWSUpdateDoorAndPointer(t *testing.T) {
	e := e2e.NewWSEnv(t, hub.Options{})
	// Players see doors of the map on the player screen (a door on a map
	// the GM prepares off screen reaches the host alone).
	if _, err := e.Svc.ShowMap(context.Background(), e2e.WsMapID); err != nil {
		t.Fatal(err)
	}
	a, chA := e.Connect(t)
	b, _ := e.Connect(t)
	a.WaitFor(core.EventClientConnected)
	a.Send(core.RequestUpdateDoor, core.Door{MapID: e2e.WsMapID, ID: e2e.WsDoorID, State: core.DoorOpen}, "door-1")
	for _, c := range []*e2e.WsClient{a, b} {
		msgs := c.ExpectNames(core.EventMapUpdated, core.EventLineOfSightUpdated)
		var m core.Map
		msgs[0].Decode(t, &m)
		if m.Walls[1].Door != core.DoorOpen {
			t.Fatalf("mapUpdated door %q", m.Walls[1].Door)
		}
		if segments := redact.SightSegments(&m); len(segments) != 1 {
			t.Fatalf("walls blocking sight with the door open %+v, want only the plain wall", segments)
		}
		var los []sight.Sight
		msgs[1].Decode(t, &los)
		if los == nil {
			t.Fatalf("lineOfSightUpdated %s, want an array", msgs[1].Data)
		}
	}
	if m := a.Next(); m.Name != core.RequestUpdateDoor || !strings.Contains(string(m.ResponseID), "door-1") {
		t.Fatalf("reply %s %s", m.Name, m.ResponseID)
	}
	a.Send(core.RequestUpdateDoor, core.Door{MapID: e2e.WsMapID, ID: "w-wall", State: core.DoorOpen}, "door-2")
	if m := a.Reply("door-2"); m.Name != "error" {
		t.Fatalf("opening a plain wall answered %s", m.Name)
	}

	a.Send(core.EventPointerUpdated, map[string]any{"x": 5, "y": 6, "state": "control"}, "")
	for _, c := range []*e2e.WsClient{a, b} {
		var p core.Pointer
		c.WaitFor(core.EventPointerUpdated).Decode(t, &p)
		if p.X != 5 || p.Source != "client-"+itoa(chA) {
			t.Fatalf("pointer %+v", p)
		}
	}
}

func TestWSMergesMessagesAttributesAndTracking(t *testing.T) {
	e := e2e.NewWSEnv(t, hub.Options{})
	a, _ := e.Connect(t)
	b, _ := e.Connect(t)
	a.WaitFor(core.EventClientConnected)

	a.Send(core.RequestUpdateToken, map[string]any{"id": e2e.WsTokenID, "name": "Renamed", "x": 42}, "t-1")
	for _, c := range []*e2e.WsClient{a, b} {
		var tok core.Token
		c.ExpectNames(core.EventTokenUpdated)[0].Decode(t, &tok)
		if tok.Name != "Renamed" || tok.X != 42 || tok.Y != 20 {
			t.Fatalf("tokenUpdated %+v: merge lost a field", tok)
		}
	}
	a.Reply("t-1")

	a.Send(core.RequestUpdateEntity, map[string]any{"id": e2e.WsEntityID, "data": map[string]any{"hp": 4}}, "")
	for _, c := range []*e2e.WsClient{a, b} {
		msgs := c.ExpectNames(core.EventEntityUpdated, core.EventCombatantUpdated)
		var cb core.Combatant
		msgs[1].Decode(t, &cb)
		if cb.Data["hp"] != 4.0 {
			t.Fatalf("the unique entity's combatant was not kept in step: %v", cb.Data)
		}
	}
	a.Send(core.RequestUpdateCombatant, map[string]any{"id": e2e.WsCombatant, "data": map[string]any{"hp": 7}}, "")
	for _, c := range []*e2e.WsClient{a, b} {
		msgs := c.ExpectNames(core.EventCombatantUpdated, core.EventEntityUpdated)
		var en core.Entity
		msgs[1].Decode(t, &en)
		if en.Data["hp"] != 7.0 {
			t.Fatalf("the shared combatant did not push hp to its entity: %v", en.Data)
		}
	}
	a.Send(core.RequestUpdateEntity, map[string]any{"name": "no id"}, "bad-1")
	if m := a.Reply("bad-1"); m.Name != "error" {
		t.Fatalf("merge without id answered %s", m.Name)
	}

	a.Send(core.EventClientUpdated, map[string]any{"name": "Ellie", "color": "#abcdef"}, "")
	a.WaitFor(core.EventClientUpdated)
	b.WaitFor(core.EventClientUpdated)
	a.Send(core.RequestCreateMessage, map[string]any{"text": "I hit for [[7]]"}, "msg-1")
	for _, c := range []*e2e.WsClient{a, b} {
		var m core.Message
		c.WaitFor(core.EventMessageCreated).Decode(t, &m)
		if m.Text != "I hit for 7" || len(m.Rolls) != 1 || m.Source != "Ellie" || m.Color != "#abcdef" || m.Campaign != e2e.WsCampaign {
			t.Fatalf("messageCreated %+v: dice not rolled or source not the client's", m)
		}
	}
	a.Send(core.RequestCreateMessage, map[string]any{"text": "  "}, "msg-2")
	if m := a.Reply("msg-2"); m.Name != "error" {
		t.Fatalf("empty message answered %s", m.Name)
	}

	a.Send(core.RequestGetAttribute, core.Attribute{EntityID: e2e.WsEntityID, Attributes: core.Object{"str": nil}}, "q-42")
	var attr core.Attribute
	got := a.Reply("q-42")
	got.Decode(t, &attr)
	if got.Name != core.RequestGetAttribute || attr.Attributes["str"] != 16.0 || len(attr.Attributes) != 1 {
		t.Fatalf("getAttribute answered %s %+v, want str 16", got.Name, attr)
	}
	a.Send(core.RequestSetAttribute, core.Attribute{EntityID: e2e.WsEntityID, Attributes: core.Object{"str": 18}}, "")
	for _, c := range []*e2e.WsClient{a, b} {
		c.WaitFor(core.EventEntityUpdated)
		c.ExpectNames(core.EventCombatantUpdated) // a unique entity's combatant follows
	}
	a.Send(core.RequestGetAttribute, core.Attribute{EntityID: e2e.WsEntityID}, "q-43")
	a.Reply("q-43").Decode(t, &attr)
	if attr.Attributes["str"] != 18.0 || attr.Attributes["dex"] != 12.0 {
		t.Fatalf("after setAttribute: %+v", attr.Attributes)
	}

	e.Mark(t, b)
	a.Send(core.EventTrackedObjectCreated, map[string]any{"id": 7, "x": 1, "y": 2}, "")
	a.Send(core.EventTrackedObjectUpdated, map[string]any{"id": 7, "x": 3, "y": 4}, "")
	a.Send(core.EventTrackedObjectCreated, map[string]any{"id": 8, "type": "token"}, "")
	a.Send(core.EventTrackedObjectDeleted, map[string]any{"id": 8}, "")
	b.ExpectNames(core.EventTrackedObjectCreated, core.EventTrackedObjectUpdated, core.EventTrackedObjectCreated, core.EventTrackedObjectDeleted)
	var snap core.Snapshot
	e2e.HttpJSON(t, "GET", e.Public.URL+"/api", "", &snap)
	if len(snap.TrackedObjects) != 1 || *snap.TrackedObjects[0].X != 3 {
		t.Fatalf("snapshot trackedObjects %+v, want object 7 at 3,4", snap.TrackedObjects)
	}
	a.Send(core.EventTrackedObjectsUpdated, []map[string]any{{"id": 1}, {"id": 2}}, "")
	b.ExpectNames(core.EventTrackedObjectsUpdated)
	e2e.HttpJSON(t, "GET", e.Public.URL+"/api", "", &snap)
	if len(snap.TrackedObjects) != 2 {
		t.Fatalf("after trackedObjectsUpdated: %+v", snap.TrackedObjects)
	}
}

func TestWSIgnoredNamesAndMalformedFrames(t *testing.T) {
	e := e2e.NewWSEnv(t, hub.Options{})
	a, _ := e.Connect(t)
	b, _ := e.Connect(t)
	a.WaitFor(core.EventClientConnected)

	// Names not in contract 6.2 are ignored, even known ones.
	for _, name := range []string{core.RequestCreateEntity, core.RequestCreateCombatant, core.RequestDeleteEntity,
		core.RequestDeleteCombatant, core.EventGameUpdated, core.EventTokenUpdated, "noSuchEvent"} {
		a.Send(name, map[string]any{"id": e2e.WsEntityID}, "ignored-"+name)
	}
	e.Mark(t, a, b)
	if _, err := e.Svc.Entity(t.Context(), "", e2e.WsEntityID); err != nil {
		t.Fatalf("deleteEntity acted: %v", err)
	}

	for _, tc := range []struct{ frame, id string }{
		{`{"name": "updateToken", "requestId": "m-1", "data": [1,2`, "m-1"},
		{`{"requestId": "m-2", "data": {}}`, "m-2"},
		{`{"name": "updateToken", "requestId": "m-3", "data": "not an object"}`, "m-3"},
		{`{"name": "tokenMoved", "requestId": "m-4", "data": {"id": "tok-hero", "x": "far", "state": "start"}}`, "m-4"},
		{`{"name": "trackedObjectCreated", "requestId": "m-5", "data": {"id": {"nested": true}}}`, "m-5"},
		{`{"name": "getAttribute", "requestId": "m-6", "data": {"entityId": "nope"}}`, "m-6"},
	} {
		a.SendRaw(tc.frame)
		m := a.Reply(tc.id)
		var d map[string]string
		m.Decode(t, &d)
		if m.Name != "error" || d["message"] == "" {
			t.Fatalf("frame %s answered %s %s, want an error with a message", tc.frame, m.Name, m.Data)
		}
	}
	a.SendRaw(`not json at all`)
	if m := a.Next(); m.Name != "error" || len(m.ResponseID) != 0 {
		t.Fatalf("garbage answered %s %s", m.Name, m.ResponseID)
	}
	// Neither client was closed or disturbed.
	e.Mark(t, a, b)
	e.WaitClients(t, 2)
}

func TestWSOriginRule(t *testing.T) {
	e := e2e.NewWSEnv(t, hub.Options{AllowOrigins: []string{"https://table.example"}})
	host := strings.TrimPrefix(e.Public.URL, "http://")
	for _, tc := range []struct {
		origin string
		ok     bool
	}{
		{"", true},
		{"http://" + host, true},
		{"https://table.example", true},
		{"https://evil.example", false},
		{"http://" + host + ".evil.example", false},
		{"null", false},
	} {
		h := http.Header{}
		if tc.origin != "" {
			h.Set("Origin", tc.origin)
		}
		conn, resp, err := websocket.DefaultDialer.Dial(e.WsURL("/"), h)
		if tc.ok {
			if err != nil {
				t.Errorf("origin %q refused: %v", tc.origin, err)
				continue
			}
			conn.Close()
			continue
		}
		if err == nil {
			conn.Close()
			t.Errorf("origin %q accepted", tc.origin)
			continue
		}
		if resp == nil || resp.StatusCode != http.StatusForbidden {
			t.Errorf("origin %q: %v, want 403", tc.origin, err)
		}
	}
	if !strings.Contains(e.Logs.String(), "evil.example") {
		t.Error("a refused Origin is not logged")
	}
}

func TestWSOversizedFrameClosesWith1009(t *testing.T) {
	e := e2e.NewWSEnv(t, hub.Options{})
	a, _ := e.Connect(t)
	b, _ := e.Connect(t)
	a.WaitFor(core.EventClientConnected)
	big := `{"name":"createMessage","data":{"text":"` + strings.Repeat("x", 1<<20) + `"}}`
	a.SendRaw(big)
	err := a.CloseEnd()
	var ce *websocket.CloseError
	if !errors.As(err, &ce) || ce.Code != websocket.CloseMessageTooBig {
		t.Fatalf("oversized frame ended with %v, want close 1009", err)
	}
	b.WaitFor(core.EventClientDisconnected)
	e.Mark(t, b)
	e.WaitClients(t, 1)
	// A frame just under the limit is fine.
	c, _ := e.Connect(t)
	c.SendRaw(`{"name":"createMessage","requestId":"ok","data":{"text":"` + strings.Repeat("y", 1<<20-100) + `"}}`)
	c.Reply("ok")
}

func TestWSSlowClientIsDroppedOthersKeepReceiving(t *testing.T) {
	e := e2e.NewWSEnv(t, hub.Options{SendQueue: 16, WriteWait: 2 * time.Second})
	e.ShapesUnchecked = true // it publishes padded frames of its own
	fast, _ := e.Connect(t)
	// The slow client completes the handshake and never reads again.
	slow, _, err := websocket.DefaultDialer.Dial(e.WsURL("/"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer slow.Close()
	fast.WaitFor(core.EventClientConnected)
	e.WaitClients(t, 2)

	const events = 400
	payload := strings.Repeat("z", 64<<10) // 400 x 64 KiB overflows any loopback socket buffer
	var wg sync.WaitGroup
	wg.Add(1)
	var received atomic.Int64
	go func() {
		defer wg.Done()
		for received.Load() < events {
			m, ok := <-fast.In
			if !ok {
				return
			}
			if m.Name == core.EventMessagesUpdated {
				var d map[string]any
				json.Unmarshal(m.Data, &d)
				if int64(d["n"].(float64)) != received.Load() {
					t.Errorf("event %v arrived as number %d: out of order", d["n"], received.Load())
				}
				received.Add(1)
			}
		}
	}()
	// Publish at the pace of the fast client (never more than 8 ahead of
	// it), so that only the client that does not read falls behind.
	for i := 0; i < events; i++ {
		for int64(i)-received.Load() > 8 {
			time.Sleep(100 * time.Microsecond)
		}
		e.Svc.Publish(core.Event{Name: core.EventMessagesUpdated, Data: map[string]any{"n": i, "pad": payload}})
	}
	wg.Wait()
	if received.Load() != events {
		t.Fatalf("fast client received %d of %d", received.Load(), events)
	}
	cs := e.WaitClients(t, 1)
	if len(cs) != 1 {
		t.Fatalf("slow client still listed: %+v", cs)
	}
	if !strings.Contains(e.Logs.String(), "too slow") {
		t.Fatalf("the drop is not logged:\n%s", e.Logs.String())
	}
	// Whatever the slow client reads now ends with the connection closed.
	// It read nothing within its write allowance (WriteWait), so the frame
	// under way was cut and the close frame (1013) could not follow it
	// (TestWSSlowReaderGetsCloseCodeBeforeTheEnd reads in time); gorilla
	// then reports 1006 (closed without a close frame).
	slow.SetReadDeadline(time.Now().Add(e2e.WsWait))
	for {
		_, _, err := slow.ReadMessage()
		if err == nil {
			continue
		}
		var ce *websocket.CloseError
		if errors.As(err, &ce) && ce.Code != websocket.CloseTryAgainLater && ce.Code != websocket.CloseAbnormalClosure {
			t.Fatalf("slow client closed with %d, want 1013 (or 1006 without a close frame)", ce.Code)
		}
		var ne interface{ Timeout() bool }
		if errors.As(err, &ne) && ne.Timeout() {
			t.Fatal("the slow client's connection was never closed")
		}
		break
	}
}

func TestWSBroadcastsInCommitOrderToEveryone(t *testing.T) {
	e := e2e.NewWSEnv(t, hub.Options{})
	const writers, each = 3, 15
	clients := make([]*e2e.WsClient, writers)
	for i := range clients {
		clients[i], _ = e.Connect(t)
	}
	for _, c := range clients {
		e.WaitClients(t, writers)
		_ = c
	}
	e.Mark(t) // settle
	for _, c := range clients {
		for {
			if m := c.Next(); m.Name == core.EventReload {
				break
			}
		}
	}
	var wg sync.WaitGroup
	for i, c := range clients {
		wg.Add(1)
		go func(i int, c *e2e.WsClient) {
			defer wg.Done()
			for j := 0; j < each; j++ {
				c.Send(core.RequestUpdateToken, map[string]any{"id": e2e.WsTokenID, "name": "w" + itoa(i) + "-" + itoa(j)}, "")
			}
		}(i, c)
	}
	wg.Wait()
	var first []string
	for i, c := range clients {
		var seq []string
		for len(seq) < writers*each {
			m := c.Next()
			if m.Name != core.EventTokenUpdated {
				continue
			}
			var tok core.Token
			m.Decode(t, &tok)
			seq = append(seq, tok.Name)
		}
		if i == 0 {
			first = seq
			continue
		}
		if strings.Join(seq, ",") != strings.Join(first, ",") {
			t.Fatalf("client %d saw another order:\n%v\n%v", i, seq, first)
		}
	}
	if tok := e.Token(t); tok.Name != first[len(first)-1] {
		t.Fatalf("store holds %q, the last broadcast was %q", tok.Name, first[len(first)-1])
	}
}

func TestWSKeepaliveDropsSilentClients(t *testing.T) {
	e := e2e.NewWSEnv(t, hub.Options{PongWait: time.Second})
	live, _ := e.Connect(t) // its reader answers pings
	silent, _, err := websocket.DefaultDialer.Dial(e.WsURL("/"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer silent.Close()
	e.WaitClients(t, 2)
	time.Sleep(2500 * time.Millisecond) // 2.5 x PongWait: only pongs keep the live client in
	cs := e.WaitClients(t, 1)
	live.WaitFor(core.EventClientDisconnected)
	e.Mark(t, live)
	if len(cs) != 1 {
		t.Fatal("silent client kept")
	}
}

func TestWSHostSettingsAPI(t *testing.T) {
	e := e2e.NewWSEnv(t, hub.Options{})
	var s core.Settings
	if status := e2e.HttpJSON(t, "GET", e.Host.URL+"/host/api/settings", "", &s); status != http.StatusOK || !s.RemoteInteraction || s.Paused {
		t.Fatalf("GET settings: %d %+v, want remote interaction on by default", status, s)
	}
	var errBody map[string]string
	for _, body := range []string{`{"remoteInteraction": "yes"}`, `{"remote": true}`, `not json`, `{"paused": true} {}`} {
		if status := e2e.HttpJSON(t, "PATCH", e.Host.URL+"/host/api/settings", body, &errBody); status != http.StatusBadRequest || errBody["message"] == "" {
			t.Errorf("PATCH %s: %d %v, want 400 with a message", body, status, errBody)
		}
	}
	a, _ := e.Connect(t)
	e2e.HttpJSON(t, "PATCH", e.Host.URL+"/host/api/settings", `{"paused": true}`, &s)
	if !s.Paused || !s.RemoteInteraction {
		t.Fatalf("after pause: %+v", s)
	}
	var d bool
	a.ExpectNames(core.EventSystemPaused)[0].Decode(t, &d)
	if !d {
		t.Fatalf("systemPaused %v, want the bare true", d)
	}
	e2e.HttpJSON(t, "PATCH", e.Host.URL+"/host/api/settings", `{"paused": true}`, &s)
	e.Mark(t, a) // no change, no event
	if status := e2e.HttpJSON(t, "GET", e.Public.URL+"/host/api/settings", "", nil); status == http.StatusOK {
		t.Fatal("the host settings are reachable on the public listener")
	}
}

func TestWSHubCloseSendsGoingAway(t *testing.T) {
	e := e2e.NewWSEnv(t, hub.Options{})
	a, _ := e.Connect(t)
	e.Hub.Close()
	var ce *websocket.CloseError
	if err := a.CloseEnd(); !errors.As(err, &ce) || ce.Code != websocket.CloseGoingAway {
		t.Fatalf("close ended with %v, want 1001", err)
	}
	if _, resp, err := websocket.DefaultDialer.Dial(e.WsURL("/"), nil); err == nil || resp == nil || resp.StatusCode != http.StatusServiceUnavailable {
		t.Fatalf("dial after close: %v", err)
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

func TestWSHostVetoAndClients(t *testing.T) {
	e := e2e.NewWSEnv(t, hub.Options{})
	a, chA := e.Connect(t)
	b, _ := e.Connect(t)
	a.WaitFor(core.EventClientConnected)
	a.Send(core.RequestMapViewportUpdated, map[string]any{"id": e2e.WsMapID, "x": 7, "y": 8, "zoom": 2}, "vp")
	a.Reply("vp")
	var clients []core.Client
	if status := e2e.HttpJSON(t, "GET", e.Host.URL+"/host/api/clients", "", &clients); status != http.StatusOK || len(clients) != 2 {
		t.Fatalf("GET /host/api/clients: %d %+v", status, clients)
	}
	if clients[0].Channel != chA || clients[0].MapZoom != 2 || clients[0].MapCenterX != 7 {
		t.Fatalf("host clients %+v: want channel %d looking at 7,8 zoom 2", clients[0], chA)
	}

	a.Send(core.EventTokenMoved, core.Movement{ID: e2e.WsTokenID, X: 10, Y: 20, State: core.DragStart}, "")
	a.Send(core.EventTokenMoved, core.Movement{ID: e2e.WsTokenID, X: 300, Y: 300, State: core.DragControl}, "")
	b.ExpectNames(core.EventTokenMoved, core.EventTokenMoved)
	a.ExpectNames(core.EventTokenMoved, core.EventTokenMoved)
	var res map[string]bool
	if status := e2e.HttpJSON(t, "POST", e.Host.URL+"/host/api/drags/"+e2e.WsTokenID+"/block", "", &res); status != http.StatusOK || !res["blocked"] {
		t.Fatalf("veto: %d %v", status, res)
	}
	for _, c := range []*e2e.WsClient{a, b} {
		var m core.Movement
		c.ExpectNames(core.EventTokenMoved)[0].Decode(t, &m)
		if m.State != core.DragBlock || m.X != 10 || m.Y != 20 {
			t.Fatalf("veto broadcast %+v, want block at 10,20", m)
		}
	}
	// The dragger's next message starts afresh; a veto with no drag is a no-op.
	if e2e.HttpJSON(t, "POST", e.Host.URL+"/host/api/drags/"+e2e.WsTokenID+"/block", "", &res); res["blocked"] {
		t.Fatal("a second veto reported a drag")
	}
	if status := e2e.HttpJSON(t, "POST", e.Host.URL+"/host/api/drags/nope/block", "", nil); status != http.StatusNotFound {
		t.Fatalf("veto of an unknown token: %d", status)
	}
	e.Mark(t, a, b)
}
