package routes

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/vttapp/companion/core/mapobjects"
	"github.com/vttapp/companion/internal/testkit"
)

// A valid object of each kind of core.MapKinds, for the pipeline's tests:
// a kind added to the table without one here fails them.
var sampleObjects = map[string]string{
	"walls":        `{"id": "w-1", "data": [0, 0, 140, 0, 140, 140], "type": "door"}`,
	"lights":       `{"id": "l-1", "x": 70, "y": 70, "radiusMin": 2, "radiusMax": 4, "color": "#ffcc88"}`,
	"markers":      `{"id": "k-1", "x": 10, "y": 20, "label": "1a", "hidden": false}`,
	"drawings":     `{"id": "d-1", "data": [0, 0, 70, 70], "shape": "rectangle", "strokeColor": "#ff0000"}`,
	"areaEffects":  `{"id": "a-1", "x": 100, "y": 100, "shape": "sphere", "radius": 140}`,
	"measurements": `{"id": "m-1", "data": [0, 0, 350, 0], "type": "grid", "color": "#00ff00"}`,
	"tiles":        `{"id": "t-1", "x": 0, "y": 0, "width": 140, "height": 70}`,
	"sounds":       `{"id": "s-1", "x": 70, "y": 70, "radius": 6, "url": "/campaigns/c/audio/rain.ogg"}`,
}

// Every kind goes through the one pipeline: added, listed, patched and
// deleted over the host API, and each change reaches players on the map
// on the player screen with the kind's event (walls: mapUpdated).
func TestHostAPIKeepsEveryKindOfMapObject(t *testing.T) {
	e := newConsoleEnv(t)
	player := e.playerSocket(t)
	player.waitFor("app")
	for _, k := range mapobjects.MapKinds {
		body, ok := sampleObjects[k.Field]
		if !ok {
			t.Fatalf("no sample %s: add one to sampleObjects", k.Field)
		}
		base := "/host/api/maps/" + mapID + "/" + k.Field
		event := k.Event
		if event == "" {
			event = "mapUpdated"
		}
		created := e.call(t, "POST", base, body)
		if created.status != 201 {
			t.Fatalf("%s: POST %d %s", k.Field, created.status, created.body)
		}
		id := created.json(t)["id"].(string)
		player.waitFor(event, id)

		list := e.call(t, "GET", base, "").array(t)
		if len(list) != 1 || list[0]["id"] != id {
			t.Fatalf("%s: GET = %v", k.Field, list)
		}
		patch := `{"x": 35}`
		if strings.Contains(body, `"data"`) {
			patch = `{"data": [0, 0, 35, 35]}`
		}
		patched := e.call(t, "PATCH", base+"/"+id, patch)
		if patched.status != 200 {
			t.Fatalf("%s: PATCH %d %s", k.Field, patched.status, patched.body)
		}
		player.waitFor(event, id, "35")
		if r := e.call(t, "DELETE", base+"/"+id, ""); r.status != 204 {
			t.Fatalf("%s: DELETE %d %s", k.Field, r.status, r.body)
		}
		if list := e.call(t, "GET", base, "").array(t); len(list) != 0 {
			t.Fatalf("%s: after DELETE, GET = %v", k.Field, list)
		}
		wantError(t, e.call(t, "DELETE", base+"/"+id, ""), 404, "no "+k.Noun)
	}
}

// The bad input of issue 35: each refused with a clear 400 or 404 and
// nothing of it stored, not even the good objects sent beside a bad one.
func TestHostAPIRefusesBadMapObjectsWhole(t *testing.T) {
	e := newConsoleEnv(t)
	walls := "/host/api/maps/" + mapID + "/walls"
	wantError(t, e.call(t, "POST", walls, `{"data": [0, 0]}`), 400, "at least two points")
	wantError(t, e.call(t, "POST", walls, `{"data": [0, 0, 1e12, 0]}`), 400, "'data' must be a number from")
	wantError(t, e.call(t, "POST", walls, `{"data": [0, 0, 10]}`), 400, "flat list of points")
	wantError(t, e.call(t, "POST", walls, `{"data": [0, 0, 1e400, 0]}`), 400, "")
	wantError(t, e.call(t, "POST", walls, `{"data": [0, 0, 70, 0], "type": "moat"}`), 400, "'type' is one of")
	wantError(t, e.call(t, "POST", walls, `{"data": [0, 0, 70, 0], "door": "open"}`), 400, "only a wall of type door")
	wantError(t, e.call(t, "POST", walls, `{"data": [0, 0, 70, 0], "height": "tall"}`), 400, "")
	wantError(t, e.call(t, "POST", walls, `[{"id": "good", "data": [0, 0, 70, 0]}, {"id": "bad", "data": [0, 0]}]`), 400, "at least two points")
	wantError(t, e.call(t, "POST", "/host/api/maps/"+mapID+"/lights", `{"x": 1, "y": 1, "radiusMax": -1}`), 400, "radius in grid units")
	wantError(t, e.call(t, "POST", "/host/api/maps/"+mapID+"/lights", `{"x": 1, "y": 1, "radiusMin": 5, "radiusMax": 2}`), 400, "bright radius")
	wantError(t, e.call(t, "POST", "/host/api/maps/"+mapID+"/markers", `{"x": "here", "y": 1}`), 400, "'x' must be a number")
	wantError(t, e.call(t, "POST", "/host/api/maps/"+mapID+"/portals", `{"x": 1, "y": 1}`), 404, "its kinds of objects are walls, lights")
	wantError(t, e.call(t, "GET", "/host/api/maps/"+mapID+"/portals", ""), 404, "a map holds no 'portals'")
	wantError(t, e.call(t, "PATCH", walls+"/nope", `{"data": [0, 0, 1, 1]}`), 404, "no wall with id 'nope'")
	wantError(t, e.call(t, "POST", "/host/api/maps/nope/walls", `{"data": [0, 0, 70, 0]}`), 404, "no map")
	wantError(t, e.call(t, "POST", walls, `not json`), 400, "")

	var many strings.Builder
	many.WriteString("[")
	for i := range 20000 {
		if i > 0 {
			many.WriteString(",")
		}
		fmt.Fprintf(&many, `{"data": [%d, 0, %d, 70]}`, i, i)
	}
	many.WriteString("]")
	// Refused by the body's own bound on its objects and arrays (a 413,
	// before any is decoded); the count of one write is bounded in core
	// (MaxMapObjectsPerWrite) for bodies that pass it.
	wantError(t, e.call(t, "POST", walls, many.String()), 413, "objects and arrays")

	if list := e.call(t, "GET", walls, "").array(t); len(list) != 0 {
		t.Fatalf("refused writes stored walls: %v", list)
	}

	// A patch that would break a wall leaves it as it was.
	if r := e.call(t, "POST", walls, `{"id": "w", "data": [0, 0, 70, 0]}`); r.status != 201 {
		t.Fatalf("POST: %d %s", r.status, r.body)
	}
	wantError(t, e.call(t, "PATCH", walls+"/w", `{"data": [0, 0]}`), 400, "at least two points")
	wantError(t, e.call(t, "PATCH", walls+"/w", `{"id": "v"}`), 400, "does not match")
	wantError(t, e.call(t, "POST", walls, `{"id": "w", "data": [0, 0, 70, 0]}`), 409, "already has a wall")
	if list := e.call(t, "GET", walls, "").array(t); len(list) != 1 || fmt.Sprint(list[0]["data"]) != "[0 0 70 0]" {
		t.Fatalf("a refused patch changed the wall: %v", list)
	}

	// A map deleted meanwhile: its objects cannot be written.
	if r := e.call(t, "DELETE", "/host/api/maps/"+consoleHallID, ""); r.status != 204 {
		t.Fatalf("delete map: %d %s", r.status, r.body)
	}
	wantError(t, e.call(t, "POST", "/host/api/maps/"+consoleHallID+"/walls", `{"data": [0, 0, 70, 0]}`), 404, "no map")
	wantError(t, e.call(t, "PATCH", "/host/api/maps/"+consoleHallID+"/walls/w", `{"data": [0, 0, 70, 0]}`), 404, "no map")
}

// Hidden means hidden: a hidden marker and one on the game master's layer
// never reach players, a closed secret door is a plain wall to them, and
// what is drawn on a map off the player screen reaches the host alone.
func TestPlayersNeverReceiveHiddenMapObjects(t *testing.T) {
	e := newConsoleEnv(t)
	host, player := e.hostSocket(t), e.playerSocket(t)
	host.waitFor("app")
	player.waitFor("app")
	markers := "/host/api/maps/" + mapID + "/markers"
	e.call(t, "POST", markers, `[{"id": "secret-note", "x": 1, "y": 1}, {"id": "dm-note", "x": 1, "y": 1, "hidden": false, "layer": "dm"}, {"id": "shown-note", "x": 2, "y": 2, "hidden": false}]`)
	host.waitFor("markersUpdated", "secret-note", "dm-note", "shown-note")
	got := player.waitFor("markersUpdated", "shown-note")
	if strings.Contains(string(got.Data), "secret-note") || strings.Contains(string(got.Data), "dm-note") {
		t.Fatalf("players received hidden markers: %s", got.Data)
	}

	walls := "/host/api/maps/" + mapID + "/walls"
	e.call(t, "POST", walls, `{"id": "hidden-door", "data": [0, 0, 70, 0], "type": "secretDoor"}`)
	host.waitFor("mapUpdated", "hidden-door", "secretDoor")
	got = player.waitFor("mapUpdated", "hidden-door")
	if strings.Contains(string(got.Data), "secretDoor") || strings.Contains(string(got.Data), `"door"`) {
		t.Fatalf("players learnt of a closed secret door: %s", got.Data)
	}
	snapshot := e.publicCall(t, "GET", "/api", "")
	if strings.Contains(string(snapshot.body), "secretDoor") || strings.Contains(string(snapshot.body), "secret-note") {
		t.Fatalf("GET /api shows players hidden objects: %s", snapshot.body)
	}
	// Nor can a player open it, or a door of a map off screen.
	player.SendJSON(map[string]any{"name": "updateDoor", "requestId": "find", "data": map[string]any{"mapId": mapID, "id": "hidden-door", "state": "open"}})
	if r := player.AwaitReply(2*time.Second, "find", nil); r.Name != "error" || !strings.Contains(string(r.Data), "not a door") {
		t.Fatalf("a player opened a closed secret door: %s %s", r.Name, r.Data)
	}
	e.call(t, "POST", "/host/api/maps/"+consoleHallID+"/walls", `{"id": "staged-door", "data": [0, 0, 70, 0], "type": "door"}`)
	player.SendJSON(map[string]any{"name": "updateDoor", "requestId": "staged", "data": map[string]any{"mapId": consoleHallID, "id": "staged-door", "state": "open"}})
	if r := player.AwaitReply(2*time.Second, "staged", nil); r.Name != "error" || !strings.Contains(string(r.Data), "no map") {
		t.Fatalf("a player opened a door on a map off screen: %s %s", r.Name, r.Data)
	}
	e.call(t, "PATCH", walls+"/hidden-door", `{"door": "open"}`)
	player.waitFor("mapUpdated", "hidden-door", "secretDoor", `"door":"open"`)

	// Off screen: the host alone hears of it, id included.
	e.call(t, "POST", "/host/api/maps/"+consoleHallID+"/lights", `{"id": "staged-light", "x": 5, "y": 5, "radiusMax": 3}`)
	host.waitFor("lightsUpdated", "staged-light")
	e.call(t, "POST", markers, `{"id": "after", "x": 3, "y": 3, "hidden": false}`)
	player.WaitFor(2*time.Second, func(env testkit.Envelope) {
		if strings.Contains(string(env.Data), "staged-light") {
			t.Fatalf("players heard of a light on a map off screen: %s %s", env.Name, env.Data)
		}
	}, "markersUpdated", "after")
}

// The map's own line of sight settings change over PATCH /host/api/maps/{id}:
// players get the map and its sights; bad values are refused whole.
func TestHostChangesAMapsLineOfSight(t *testing.T) {
	e := newConsoleEnv(t)
	player := e.playerSocket(t)
	player.waitFor("app")
	wantError(t, e.call(t, "PATCH", "/host/api/maps/"+mapID, `{"losDaylight": 2}`), 400, "'losDaylight' is from 0")
	wantError(t, e.call(t, "PATCH", "/host/api/maps/"+mapID, `{"losVisionLimit": -5}`), 400, "'losVisionLimit' is -1")
	wantError(t, e.call(t, "PATCH", "/host/api/maps/"+mapID, `{"lineOfSight": true, "losDaylight": -1}`), 400, "losDaylight")
	wantError(t, e.call(t, "PATCH", "/host/api/maps/"+mapID, `{}`), 400, "nothing to change")
	r := e.call(t, "PATCH", "/host/api/maps/"+mapID, `{"lineOfSight": true, "losDaylight": 0.25, "losVisionLimit": 12}`)
	if r.status != 200 {
		t.Fatalf("PATCH: %d %s", r.status, r.body)
	}
	player.waitFor("mapUpdated", `"lineOfSight":true`, `"losDaylight":0.25`, `"losVisionLimit":12`)
	player.waitFor("lineOfSightUpdated")
}
