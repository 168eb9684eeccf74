package tests

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

	"github.com/gorilla/websocket"
	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/hub"
	"github.com/vttapp/companion/sight"
)

func TestWSConnectAppClientsAndDisconnect(t *testing.T) {
	e := newWSEnv(t, hub.Options{})
	a := e.dial(t, "/", nil)
	var app struct {
		Version string `json:"version"`
		Build   int    `json:"build"`
	}
	first := a.next()
	if first.Name != core.EventApp {
		t.Fatalf("first message %s, want app", first.Name)
	}
	first.decode(t, &app)
	var snap struct {
		Version string `json:"version"`
		Build   int    `json:"build"`
	}
	if status := httpJSON(t, "GET", e.public.URL+"/api", "", &snap); status != http.StatusOK {
		t.Fatalf("GET /api: %d", status)
	}
	if app.Version != core.Version || app.Build != core.Build || app.Version != snap.Version || app.Build != snap.Build {
		t.Fatalf("app %+v, want version %s build %d as GET /api (%+v)", app, core.Version, core.Build, snap)
	}
	var ca core.Client
	a.waitFor(core.EventClientConnected).decode(t, &ca)

	// Any path upgrades; plain HTTP on the same port keeps working.
	b := e.dial(t, "/some/other/path", nil)
	b.expectNames(core.EventApp, core.EventClientConnected)
	var cb core.Client
	a.waitFor(core.EventClientConnected).decode(t, &cb)
	if cb.Channel == ca.Channel || cb.Channel == 0 {
		t.Fatalf("channels %d and %d: each connection needs its own", ca.Channel, cb.Channel)
	}
	var listed []core.Client
	if status := httpJSON(t, "GET", e.public.URL+"/api/clients", "", &listed); status != http.StatusOK {
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
	if all := e.hub.Clients(); len(all) != 2 || all[0].Address != "127.0.0.1" {
		t.Fatalf("the hub's clients (the host console's list) %+v: want their addresses", all)
	}
	var raw []map[string]any
	httpJSON(t, "GET", e.public.URL+"/api/clients", "", &raw)
	for _, key := range []string{"channel", "address", "name", "color", "screenWidth", "screenHeight", "runMode", "device", "mapCenterX", "mapCenterY", "mapZoom"} {
		if _, ok := raw[0][key]; !ok {
			t.Errorf("GET /api/clients lacks %q (contract 2.2)", key)
		}
	}

	b.conn.Close()
	var gone core.Client
	a.waitFor(core.EventClientDisconnected).decode(t, &gone)
	if gone.Channel != cb.Channel {
		t.Fatalf("clientDisconnected for channel %d, want %d", gone.Channel, cb.Channel)
	}
	if cs := e.waitClients(t, 1); cs[0].Channel != ca.Channel {
		t.Fatalf("clients after close %+v", cs)
	}
}

func TestWSClientUpdatedAndViewport(t *testing.T) {
	e := newWSEnv(t, hub.Options{})
	a, chA := e.connect(t)
	b, _ := e.connect(t)
	a.waitFor(core.EventClientConnected)
	a.send(core.EventClientUpdated, map[string]any{"name": "Table", "color": "#112233", "runMode": "tv", "device": "tv",
		"screenWidth": 1920, "screenHeight": 1080, "channel": 99, "address": "spoofed"}, "")
	for _, c := range []*wsClient{a, b} {
		var got core.Client
		c.waitFor(core.EventClientUpdated).decode(t, &got)
		if got.Channel != chA || got.Name != "Table" || got.Color != "#112233" || got.RunMode != "tv" || got.ScreenWidth != 1920 || got.Address != "" {
			t.Fatalf("clientUpdated %+v: registration lost, channel taken from the client, or an address shown to players", got)
		}
		if !got.IsPlayerDisplay() {
			t.Fatal("runMode tv must make a player display")
		}
	}
	a.send(core.RequestMapViewportUpdated, map[string]any{"id": wsMapID, "x": 350, "y": 250, "zoom": 1.5}, "vp-1")
	a.reply("vp-1")
	cl := e.hub.Clients()[0]
	if cl.Address != "127.0.0.1" {
		t.Fatalf("the hub's client %+v: its address is the connection's, not the client's", cl)
	}
	if cl.MapCenterX != 350 || cl.MapCenterY != 250 || cl.MapZoom != 1.5 || cl.Name != "Table" {
		t.Fatalf("client after viewport %+v", cl)
	}
	a.send(core.RequestMapViewportUpdated, map[string]any{"id": wsMapID, "zoom": -1}, "vp-2")
	if m := a.reply("vp-2"); m.Name != "error" {
		t.Fatalf("negative zoom answered %s", m.Name)
	}
	a.send(core.EventClientUpdated, map[string]any{"name": strings.Repeat("x", 300)}, "long")
	if m := a.reply("long"); m.Name != "error" {
		t.Fatalf("an over-long name answered %s", m.Name)
	}
}

func TestWSDragStreamWithRemoteInteractionOn(t *testing.T) {
	e := newWSEnv(t, hub.Options{})
	a, chA := e.connect(t)
	b, _ := e.connect(t)
	a.waitFor(core.EventClientConnected)

	a.send(core.EventTokenMoved, core.Movement{ID: wsTokenID, X: 10, Y: 20, State: core.DragStart}, "")
	a.send(core.EventTokenMoved, core.Movement{ID: wsTokenID, X: 50, Y: 60, State: core.DragControl, Path: []float64{10, 20, 50, 60}}, "")
	a.send(core.EventTokenMoved, core.Movement{ID: wsTokenID, X: 80, Y: 90, State: core.DragEnd}, "end-1")
	for _, c := range []*wsClient{a, b} { // the originator receives its own broadcast
		msgs := c.expectNames(core.EventTokenMoved, core.EventTokenMoved, core.EventTokenMoved, core.EventTokenUpdated)
		var m core.Movement
		msgs[1].decode(t, &m)
		if m.State != core.DragControl || m.X != 50 || m.Source == nil || m.Source.ID != "client-"+itoa(chA) {
			t.Fatalf("control re-broadcast %+v", m)
		}
		var tok core.Token
		msgs[3].decode(t, &tok)
		if tok.X != 80 || tok.Y != 90 {
			t.Fatalf("tokenUpdated at %v,%v", tok.X, tok.Y)
		}
	}
	if m := a.next(); !strings.Contains(string(m.ResponseID), "end-1") {
		t.Fatalf("want the reply to end-1, got %s", m.Name)
	}
	if tok := e.token(t); tok.X != 80 || tok.Y != 90 {
		t.Fatalf("end not committed: %v,%v", tok.X, tok.Y)
	}

	// cancel restores the start position and writes nothing.
	a.send(core.EventTokenMoved, core.Movement{ID: wsTokenID, X: 80, Y: 90, State: core.DragStart}, "")
	a.send(core.EventTokenMoved, core.Movement{ID: wsTokenID, X: 300, Y: 300, State: core.DragControl}, "")
	a.send(core.EventTokenMoved, core.Movement{ID: wsTokenID, X: 300, Y: 300, State: core.DragCancel}, "")
	for _, c := range []*wsClient{a, b} {
		msgs := c.expectNames(core.EventTokenMoved, core.EventTokenMoved, core.EventTokenMoved)
		var m core.Movement
		msgs[2].decode(t, &m)
		if m.State != core.DragCancel || m.X != 80 || m.Y != 90 {
			t.Fatalf("cancel %+v, want the start 80,90", m)
		}
	}
	if tok := e.token(t); tok.X != 80 {
		t.Fatalf("cancel moved the token to %v", tok.X)
	}

	// A client that disconnects mid-drag: its drag is cancelled for the others.
	a.send(core.EventTokenMoved, core.Movement{ID: wsTokenID, X: 80, Y: 90, State: core.DragStart}, "")
	a.send(core.EventTokenMoved, core.Movement{ID: wsTokenID, X: 1, Y: 1, State: core.DragControl}, "")
	b.expectNames(core.EventTokenMoved, core.EventTokenMoved)
	a.conn.Close()
	var m core.Movement
	b.next().decode(t, &m)
	if m.State != core.DragCancel || m.X != 80 {
		t.Fatalf("after the dragger left: %+v, want cancel at 80,90", m)
	}
	b.waitFor(core.EventClientDisconnected)
}

func TestWSRemoteInteractionOffRefusesDragsDoorsPointers(t *testing.T) {
	e := newWSEnv(t, hub.Options{})
	a, _ := e.connect(t)
	b, _ := e.connect(t)
	a.waitFor(core.EventClientConnected)

	var settings core.Settings
	if status := httpJSON(t, "PATCH", e.host.URL+"/host/api/settings", `{"remoteInteraction": false}`, &settings); status != http.StatusOK || settings.RemoteInteraction {
		t.Fatalf("PATCH settings: %d %+v", status, settings)
	}
	for _, c := range []*wsClient{a, b} {
		var d string
		c.next().decode(t, &d)
		if d != core.InteractionNone {
			t.Fatalf("interactionUpdated says %q, want none", d)
		}
	}

	for _, state := range []string{core.DragStart, core.DragControl, core.DragEnd} {
		a.send(core.EventTokenMoved, core.Movement{ID: wsTokenID, X: 500, Y: 500, State: state}, "")
		m := a.next()
		var mv core.Movement
		m.decode(t, &mv)
		if m.Name != core.EventTokenMoved || mv.State != core.DragBlock || mv.X != 10 || mv.Y != 20 {
			t.Fatalf("%s refused with %s %+v, want block at the committed 10,20", state, m.Name, mv)
		}
	}
	a.send(core.RequestUpdateDoor, core.Door{MapID: wsMapID, ID: wsDoorID, State: core.DoorOpen}, "door-1")
	var errData map[string]string
	if m := a.reply("door-1"); m.Name != "error" {
		t.Fatalf("door with interaction off answered %s", m.Name)
	} else {
		m.decode(t, &errData)
	}
	if errData["kind"] != "conflict" || !strings.Contains(errData["message"], "remote interaction") {
		t.Fatalf("door refusal %+v", errData)
	}
	a.send(core.EventPointerUpdated, core.Pointer{X: 1, Y: 2}, "ptr-1")
	if m := a.reply("ptr-1"); m.Name != "error" {
		t.Fatalf("pointer with interaction off answered %s", m.Name)
	}
	// Nobody else saw anything, and nothing was written.
	e.mark(t, a, b)
	if tok := e.token(t); tok.X != 10 {
		t.Fatalf("a refused drag moved the token to %v", tok.X)
	}

	// Merges are not gated (contract 17.6).
	a.send(core.RequestUpdateToken, map[string]any{"id": wsTokenID, "name": "Renamed"}, "")
	b.waitFor(core.EventTokenUpdated)

	// Paused, players move nothing either (both web clients make tokens
	// inert while paused): the sender alone gets block; resumed, the drag
	// goes through.
	httpJSON(t, "PATCH", e.host.URL+"/host/api/settings", `{"remoteInteraction": true, "paused": true}`, &settings)
	b.expectNames(core.EventInteractionUpdated, core.EventSystemPaused)
	a.waitFor(core.EventSystemPaused)
	a.send(core.EventTokenMoved, core.Movement{ID: wsTokenID, X: 30, Y: 30, State: core.DragStart}, "")
	var mv core.Movement
	if m := a.next(); m.Name != core.EventTokenMoved {
		t.Fatalf("a drag while paused answered %s", m.Name)
	} else if m.decode(t, &mv); mv.State != core.DragBlock || mv.X != 10 {
		t.Fatalf("a drag while paused: %+v, want block at the committed 10", mv)
	}
	e.mark(t, a, b)
	httpJSON(t, "PATCH", e.host.URL+"/host/api/settings", `{"paused": false}`, &settings)
	b.expectNames(core.EventSystemPaused)
	a.waitFor(core.EventSystemPaused)
	a.send(core.EventTokenMoved, core.Movement{ID: wsTokenID, X: 30, Y: 30, State: core.DragStart}, "")
	b.expectNames(core.EventTokenMoved)
}

func TestWSDragBlockedWhenTokenLockedMidDrag(t *testing.T) {
	e := newWSEnv(t, hub.Options{})
	a, _ := e.connect(t)
	b, _ := e.connect(t)
	a.waitFor(core.EventClientConnected)
	a.send(core.EventTokenMoved, core.Movement{ID: wsTokenID, X: 10, Y: 20, State: core.DragStart}, "")
	a.send(core.EventTokenMoved, core.Movement{ID: wsTokenID, X: 60, Y: 60, State: core.DragControl}, "")
	b.expectNames(core.EventTokenMoved, core.EventTokenMoved)
	a.expectNames(core.EventTokenMoved, core.EventTokenMoved)
	if status := httpJSON(t, "PATCH", e.public.URL+"/api/tokens/"+wsTokenID, `{"locked": true}`, nil); status != http.StatusOK {
		t.Fatalf("PATCH token: %d", status)
	}
	// The drag ends at once, for everyone, without waiting for the
	// dragger's next message.
	for _, c := range []*wsClient{a, b} {
		msgs := c.expectNames(core.EventTokenUpdated, core.EventTokenMoved) // HTTP writes are broadcast too
		var m core.Movement
		msgs[1].decode(t, &m)
		if m.State != core.DragBlock || m.X != 10 || m.Y != 20 {
			t.Fatalf("after the lock: %+v, want block at 10,20", m)
		}
	}
	// A late control from the dragger is refused to it alone.
	a.send(core.EventTokenMoved, core.Movement{ID: wsTokenID, X: 70, Y: 70, State: core.DragControl}, "")
	var m core.Movement
	a.expectNames(core.EventTokenMoved)[0].decode(t, &m)
	if m.State != core.DragBlock {
		t.Fatalf("late control answered %+v", m)
	}
	e.mark(t, a, b)
}

func TestWSDragBlockedWhenInteractionTurnsOff(t *testing.T) {
	e := newWSEnv(t, hub.Options{})
	a, _ := e.connect(t)
	b, _ := e.connect(t)
	a.waitFor(core.EventClientConnected)
	a.send(core.EventTokenMoved, core.Movement{ID: wsTokenID, X: 10, Y: 20, State: core.DragStart}, "")
	a.send(core.EventTokenMoved, core.Movement{ID: wsTokenID, X: 60, Y: 60, State: core.DragControl}, "")
	b.expectNames(core.EventTokenMoved, core.EventTokenMoved)
	a.expectNames(core.EventTokenMoved, core.EventTokenMoved)
	httpJSON(t, "PATCH", e.host.URL+"/host/api/settings", `{"remoteInteraction": false}`, nil)
	for _, c := range []*wsClient{a, b} {
		msgs := c.expectNames(core.EventInteractionUpdated, core.EventTokenMoved)
		var m core.Movement
		msgs[1].decode(t, &m)
		if m.State != core.DragBlock || m.X != 10 || m.Y != 20 {
			t.Fatalf("after remote interaction went off: %+v, want block at 10,20", m)
		}
	}
	e.mark(t, a, b)
}

func TestWSUpdateDoorAndPointer(t *testing.T) {
	e := newWSEnv(t, hub.Options{})
	// Players see doors of the map on the player screen (a door on a map
	// the GM prepares off screen reaches the host alone).
	if _, err := e.svc.ShowMap(context.Background(), wsMapID); err != nil {
		t.Fatal(err)
	}
	a, chA := e.connect(t)
	b, _ := e.connect(t)
	a.waitFor(core.EventClientConnected)
	a.send(core.RequestUpdateDoor, core.Door{MapID: wsMapID, ID: wsDoorID, State: core.DoorOpen}, "door-1")
	for _, c := range []*wsClient{a, b} {
		msgs := c.expectNames(core.EventMapUpdated, core.EventLineOfSightUpdated)
		var m core.Map
		msgs[0].decode(t, &m)
		if m.Walls[1].Door != core.DoorOpen {
			t.Fatalf("mapUpdated door %q", m.Walls[1].Door)
		}
		if segments := core.SightSegments(&m); len(segments) != 1 {
			t.Fatalf("walls blocking sight with the door open %+v, want only the plain wall", segments)
		}
		var los []sight.Sight
		msgs[1].decode(t, &los)
		if los == nil {
			t.Fatalf("lineOfSightUpdated %s, want an array", msgs[1].Data)
		}
	}
	if m := a.next(); m.Name != core.RequestUpdateDoor || !strings.Contains(string(m.ResponseID), "door-1") {
		t.Fatalf("reply %s %s", m.Name, m.ResponseID)
	}
	a.send(core.RequestUpdateDoor, core.Door{MapID: wsMapID, ID: "w-wall", State: core.DoorOpen}, "door-2")
	if m := a.reply("door-2"); m.Name != "error" {
		t.Fatalf("opening a plain wall answered %s", m.Name)
	}

	a.send(core.EventPointerUpdated, map[string]any{"x": 5, "y": 6, "state": "control"}, "")
	for _, c := range []*wsClient{a, b} {
		var p core.Pointer
		c.waitFor(core.EventPointerUpdated).decode(t, &p)
		if p.X != 5 || p.Source != "client-"+itoa(chA) {
			t.Fatalf("pointer %+v", p)
		}
	}
}

func TestWSMergesMessagesAttributesAndTracking(t *testing.T) {
	e := newWSEnv(t, hub.Options{})
	a, _ := e.connect(t)
	b, _ := e.connect(t)
	a.waitFor(core.EventClientConnected)

	a.send(core.RequestUpdateToken, map[string]any{"id": wsTokenID, "name": "Renamed", "x": 42}, "t-1")
	for _, c := range []*wsClient{a, b} {
		var tok core.Token
		c.expectNames(core.EventTokenUpdated)[0].decode(t, &tok)
		if tok.Name != "Renamed" || tok.X != 42 || tok.Y != 20 {
			t.Fatalf("tokenUpdated %+v: merge lost a field", tok)
		}
	}
	a.reply("t-1")

	a.send(core.RequestUpdateEntity, map[string]any{"id": wsEntityID, "data": map[string]any{"hp": 4}}, "")
	for _, c := range []*wsClient{a, b} {
		msgs := c.expectNames(core.EventEntityUpdated, core.EventCombatantUpdated)
		var cb core.Combatant
		msgs[1].decode(t, &cb)
		if cb.Data["hp"] != 4.0 {
			t.Fatalf("the unique entity's combatant was not kept in step: %v", cb.Data)
		}
	}
	a.send(core.RequestUpdateCombatant, map[string]any{"id": wsCombatant, "data": map[string]any{"hp": 7}}, "")
	for _, c := range []*wsClient{a, b} {
		msgs := c.expectNames(core.EventCombatantUpdated, core.EventEntityUpdated)
		var en core.Entity
		msgs[1].decode(t, &en)
		if en.Data["hp"] != 7.0 {
			t.Fatalf("the shared combatant did not push hp to its entity: %v", en.Data)
		}
	}
	a.send(core.RequestUpdateEntity, map[string]any{"name": "no id"}, "bad-1")
	if m := a.reply("bad-1"); m.Name != "error" {
		t.Fatalf("merge without id answered %s", m.Name)
	}

	a.send(core.EventClientUpdated, map[string]any{"name": "Ellie", "color": "#abcdef"}, "")
	a.waitFor(core.EventClientUpdated)
	b.waitFor(core.EventClientUpdated)
	a.send(core.RequestCreateMessage, map[string]any{"text": "I hit for [[7]]"}, "msg-1")
	for _, c := range []*wsClient{a, b} {
		var m core.Message
		c.waitFor(core.EventMessageCreated).decode(t, &m)
		if m.Text != "I hit for 7" || len(m.Rolls) != 1 || m.Source != "Ellie" || m.Color != "#abcdef" || m.Campaign != wsCampaign {
			t.Fatalf("messageCreated %+v: dice not rolled or source not the client's", m)
		}
	}
	a.send(core.RequestCreateMessage, map[string]any{"text": "  "}, "msg-2")
	if m := a.reply("msg-2"); m.Name != "error" {
		t.Fatalf("empty message answered %s", m.Name)
	}

	a.send(core.RequestGetAttribute, core.Attribute{EntityID: wsEntityID, Attributes: core.Object{"str": nil}}, "q-42")
	var attr core.Attribute
	got := a.reply("q-42")
	got.decode(t, &attr)
	if got.Name != core.RequestGetAttribute || attr.Attributes["str"] != 16.0 || len(attr.Attributes) != 1 {
		t.Fatalf("getAttribute answered %s %+v, want str 16", got.Name, attr)
	}
	a.send(core.RequestSetAttribute, core.Attribute{EntityID: wsEntityID, Attributes: core.Object{"str": 18}}, "")
	for _, c := range []*wsClient{a, b} {
		c.waitFor(core.EventEntityUpdated)
		c.expectNames(core.EventCombatantUpdated) // a unique entity's combatant follows
	}
	a.send(core.RequestGetAttribute, core.Attribute{EntityID: wsEntityID}, "q-43")
	a.reply("q-43").decode(t, &attr)
	if attr.Attributes["str"] != 18.0 || attr.Attributes["dex"] != 12.0 {
		t.Fatalf("after setAttribute: %+v", attr.Attributes)
	}

	e.mark(t, b)
	a.send(core.EventTrackedObjectCreated, map[string]any{"id": 7, "x": 1, "y": 2}, "")
	a.send(core.EventTrackedObjectUpdated, map[string]any{"id": 7, "x": 3, "y": 4}, "")
	a.send(core.EventTrackedObjectCreated, map[string]any{"id": 8, "type": "token"}, "")
	a.send(core.EventTrackedObjectDeleted, map[string]any{"id": 8}, "")
	b.expectNames(core.EventTrackedObjectCreated, core.EventTrackedObjectUpdated, core.EventTrackedObjectCreated, core.EventTrackedObjectDeleted)
	var snap core.Snapshot
	httpJSON(t, "GET", e.public.URL+"/api", "", &snap)
	if len(snap.TrackedObjects) != 1 || *snap.TrackedObjects[0].X != 3 {
		t.Fatalf("snapshot trackedObjects %+v, want object 7 at 3,4", snap.TrackedObjects)
	}
	a.send(core.EventTrackedObjectsUpdated, []map[string]any{{"id": 1}, {"id": 2}}, "")
	b.expectNames(core.EventTrackedObjectsUpdated)
	httpJSON(t, "GET", e.public.URL+"/api", "", &snap)
	if len(snap.TrackedObjects) != 2 {
		t.Fatalf("after trackedObjectsUpdated: %+v", snap.TrackedObjects)
	}
}

func TestWSIgnoredNamesAndMalformedFrames(t *testing.T) {
	e := newWSEnv(t, hub.Options{})
	a, _ := e.connect(t)
	b, _ := e.connect(t)
	a.waitFor(core.EventClientConnected)

	// Names not in contract 6.2 are ignored, even known ones.
	for _, name := range []string{core.RequestCreateEntity, core.RequestCreateCombatant, core.RequestDeleteEntity,
		core.RequestDeleteCombatant, core.EventGameUpdated, core.EventTokenUpdated, "noSuchEvent"} {
		a.send(name, map[string]any{"id": wsEntityID}, "ignored-"+name)
	}
	e.mark(t, a, b)
	if _, err := e.svc.Entity(t.Context(), "", wsEntityID); err != nil {
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
		a.sendRaw(tc.frame)
		m := a.reply(tc.id)
		var d map[string]string
		m.decode(t, &d)
		if m.Name != "error" || d["message"] == "" {
			t.Fatalf("frame %s answered %s %s, want an error with a message", tc.frame, m.Name, m.Data)
		}
	}
	a.sendRaw(`not json at all`)
	if m := a.next(); m.Name != "error" || len(m.ResponseID) != 0 {
		t.Fatalf("garbage answered %s %s", m.Name, m.ResponseID)
	}
	// Neither client was closed or disturbed.
	e.mark(t, a, b)
	e.waitClients(t, 2)
}

func TestWSOriginRule(t *testing.T) {
	e := newWSEnv(t, hub.Options{AllowOrigins: []string{"https://table.example"}})
	host := strings.TrimPrefix(e.public.URL, "http://")
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
		conn, resp, err := websocket.DefaultDialer.Dial(e.wsURL("/"), h)
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
	if !strings.Contains(e.logs.String(), "evil.example") {
		t.Error("a refused Origin is not logged")
	}
}

func TestWSOversizedFrameClosesWith1009(t *testing.T) {
	e := newWSEnv(t, hub.Options{})
	a, _ := e.connect(t)
	b, _ := e.connect(t)
	a.waitFor(core.EventClientConnected)
	big := `{"name":"createMessage","data":{"text":"` + strings.Repeat("x", 1<<20) + `"}}`
	a.sendRaw(big)
	err := a.closeEnd()
	var ce *websocket.CloseError
	if !errors.As(err, &ce) || ce.Code != websocket.CloseMessageTooBig {
		t.Fatalf("oversized frame ended with %v, want close 1009", err)
	}
	b.waitFor(core.EventClientDisconnected)
	e.mark(t, b)
	e.waitClients(t, 1)
	// A frame just under the limit is fine.
	c, _ := e.connect(t)
	c.sendRaw(`{"name":"createMessage","requestId":"ok","data":{"text":"` + strings.Repeat("y", 1<<20-100) + `"}}`)
	c.reply("ok")
}

func TestWSSlowClientIsDroppedOthersKeepReceiving(t *testing.T) {
	e := newWSEnv(t, hub.Options{SendQueue: 16, WriteWait: 2 * time.Second})
	e.shapesUnchecked = true // it publishes padded frames of its own
	fast, _ := e.connect(t)
	// The slow client completes the handshake and never reads again.
	slow, _, err := websocket.DefaultDialer.Dial(e.wsURL("/"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer slow.Close()
	fast.waitFor(core.EventClientConnected)
	e.waitClients(t, 2)

	const events = 400
	payload := strings.Repeat("z", 64<<10) // 400 x 64 KiB overflows any loopback socket buffer
	var wg sync.WaitGroup
	wg.Add(1)
	var received atomic.Int64
	go func() {
		defer wg.Done()
		for received.Load() < events {
			m, ok := <-fast.in
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
		e.svc.Publish(core.Event{Name: core.EventMessagesUpdated, Data: map[string]any{"n": i, "pad": payload}})
	}
	wg.Wait()
	if received.Load() != events {
		t.Fatalf("fast client received %d of %d", received.Load(), events)
	}
	cs := e.waitClients(t, 1)
	if len(cs) != 1 {
		t.Fatalf("slow client still listed: %+v", cs)
	}
	if !strings.Contains(e.logs.String(), "too slow") {
		t.Fatalf("the drop is not logged:\n%s", e.logs.String())
	}
	// Whatever the slow client reads now ends with the connection closed.
	// It read nothing within its write allowance (WriteWait), so the frame
	// under way was cut and the close frame (1013) could not follow it
	// (TestWSSlowReaderGetsCloseCodeBeforeTheEnd reads in time); gorilla
	// then reports 1006 (closed without a close frame).
	slow.SetReadDeadline(time.Now().Add(wsWait))
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
	e := newWSEnv(t, hub.Options{})
	const writers, each = 3, 15
	clients := make([]*wsClient, writers)
	for i := range clients {
		clients[i], _ = e.connect(t)
	}
	for _, c := range clients {
		e.waitClients(t, writers)
		_ = c
	}
	e.mark(t) // settle
	for _, c := range clients {
		for {
			if m := c.next(); m.Name == core.EventReload {
				break
			}
		}
	}
	var wg sync.WaitGroup
	for i, c := range clients {
		wg.Add(1)
		go func(i int, c *wsClient) {
			defer wg.Done()
			for j := 0; j < each; j++ {
				c.send(core.RequestUpdateToken, map[string]any{"id": wsTokenID, "name": "w" + itoa(i) + "-" + itoa(j)}, "")
			}
		}(i, c)
	}
	wg.Wait()
	var first []string
	for i, c := range clients {
		var seq []string
		for len(seq) < writers*each {
			m := c.next()
			if m.Name != core.EventTokenUpdated {
				continue
			}
			var tok core.Token
			m.decode(t, &tok)
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
	if tok := e.token(t); tok.Name != first[len(first)-1] {
		t.Fatalf("store holds %q, the last broadcast was %q", tok.Name, first[len(first)-1])
	}
}

func TestWSKeepaliveDropsSilentClients(t *testing.T) {
	e := newWSEnv(t, hub.Options{PongWait: time.Second})
	live, _ := e.connect(t) // its reader answers pings
	silent, _, err := websocket.DefaultDialer.Dial(e.wsURL("/"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer silent.Close()
	e.waitClients(t, 2)
	time.Sleep(2500 * time.Millisecond) // 2.5 x PongWait: only pongs keep the live client in
	cs := e.waitClients(t, 1)
	live.waitFor(core.EventClientDisconnected)
	e.mark(t, live)
	if len(cs) != 1 {
		t.Fatal("silent client kept")
	}
}

func TestWSHostSettingsAPI(t *testing.T) {
	e := newWSEnv(t, hub.Options{})
	var s core.Settings
	if status := httpJSON(t, "GET", e.host.URL+"/host/api/settings", "", &s); status != http.StatusOK || !s.RemoteInteraction || s.Paused {
		t.Fatalf("GET settings: %d %+v, want remote interaction on by default", status, s)
	}
	var errBody map[string]string
	for _, body := range []string{`{"remoteInteraction": "yes"}`, `{"remote": true}`, `not json`, `{"paused": true} {}`} {
		if status := httpJSON(t, "PATCH", e.host.URL+"/host/api/settings", body, &errBody); status != http.StatusBadRequest || errBody["message"] == "" {
			t.Errorf("PATCH %s: %d %v, want 400 with a message", body, status, errBody)
		}
	}
	a, _ := e.connect(t)
	httpJSON(t, "PATCH", e.host.URL+"/host/api/settings", `{"paused": true}`, &s)
	if !s.Paused || !s.RemoteInteraction {
		t.Fatalf("after pause: %+v", s)
	}
	var d bool
	a.expectNames(core.EventSystemPaused)[0].decode(t, &d)
	if !d {
		t.Fatalf("systemPaused %v, want the bare true", d)
	}
	httpJSON(t, "PATCH", e.host.URL+"/host/api/settings", `{"paused": true}`, &s)
	e.mark(t, a) // no change, no event
	if status := httpJSON(t, "GET", e.public.URL+"/host/api/settings", "", nil); status == http.StatusOK {
		t.Fatal("the host settings are reachable on the public listener")
	}
}

func TestWSHubCloseSendsGoingAway(t *testing.T) {
	e := newWSEnv(t, hub.Options{})
	a, _ := e.connect(t)
	e.hub.Close()
	var ce *websocket.CloseError
	if err := a.closeEnd(); !errors.As(err, &ce) || ce.Code != websocket.CloseGoingAway {
		t.Fatalf("close ended with %v, want 1001", err)
	}
	if _, resp, err := websocket.DefaultDialer.Dial(e.wsURL("/"), nil); err == nil || resp == nil || resp.StatusCode != http.StatusServiceUnavailable {
		t.Fatalf("dial after close: %v", err)
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

func TestWSHostVetoAndClients(t *testing.T) {
	e := newWSEnv(t, hub.Options{})
	a, chA := e.connect(t)
	b, _ := e.connect(t)
	a.waitFor(core.EventClientConnected)
	a.send(core.RequestMapViewportUpdated, map[string]any{"id": wsMapID, "x": 7, "y": 8, "zoom": 2}, "vp")
	a.reply("vp")
	var clients []core.Client
	if status := httpJSON(t, "GET", e.host.URL+"/host/api/clients", "", &clients); status != http.StatusOK || len(clients) != 2 {
		t.Fatalf("GET /host/api/clients: %d %+v", status, clients)
	}
	if clients[0].Channel != chA || clients[0].MapZoom != 2 || clients[0].MapCenterX != 7 {
		t.Fatalf("host clients %+v: want channel %d looking at 7,8 zoom 2", clients[0], chA)
	}

	a.send(core.EventTokenMoved, core.Movement{ID: wsTokenID, X: 10, Y: 20, State: core.DragStart}, "")
	a.send(core.EventTokenMoved, core.Movement{ID: wsTokenID, X: 300, Y: 300, State: core.DragControl}, "")
	b.expectNames(core.EventTokenMoved, core.EventTokenMoved)
	a.expectNames(core.EventTokenMoved, core.EventTokenMoved)
	var res map[string]bool
	if status := httpJSON(t, "POST", e.host.URL+"/host/api/drags/"+wsTokenID+"/block", "", &res); status != http.StatusOK || !res["blocked"] {
		t.Fatalf("veto: %d %v", status, res)
	}
	for _, c := range []*wsClient{a, b} {
		var m core.Movement
		c.expectNames(core.EventTokenMoved)[0].decode(t, &m)
		if m.State != core.DragBlock || m.X != 10 || m.Y != 20 {
			t.Fatalf("veto broadcast %+v, want block at 10,20", m)
		}
	}
	// The dragger's next message starts afresh; a veto with no drag is a no-op.
	if httpJSON(t, "POST", e.host.URL+"/host/api/drags/"+wsTokenID+"/block", "", &res); res["blocked"] {
		t.Fatal("a second veto reported a drag")
	}
	if status := httpJSON(t, "POST", e.host.URL+"/host/api/drags/nope/block", "", nil); status != http.StatusNotFound {
		t.Fatalf("veto of an unknown token: %d", status)
	}
	e.mark(t, a, b)
}
