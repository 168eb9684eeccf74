package routes

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"image"
	"image/color"
	"image/png"
	"mime/multipart"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/fog"
	"github.com/vttapp/companion/wire"
)

const consoleDoorID = "w-door-1"

// sizeCave gives the fixture's map a size, a door, and fog of war.
func (e *consoleEnv) sizeCave(t *testing.T) {
	t.Helper()
	err := e.store.Update(context.Background(), func(tx core.Tx) error {
		m, err := tx.Map(mapID)
		if err != nil {
			return err
		}
		m.Width, m.Height, m.GridSize, m.FogOfWar, m.LineOfSight = 700, 350, 70, true, true
		m.Walls = []core.Wall{{ID: consoleDoorID, Data: []float64{350, 0, 350, 350}, Type: core.WallDoor, Door: core.DoorClosed}}
		m.Tokens = nil
		return tx.PutMap(m)
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestHostPlacesHidesAndDeletesTokens(t *testing.T) {
	e := newConsoleEnv(t)
	host, player := e.hostSocket(t), e.playerSocket(t)
	player.waitFor("app")
	host.waitFor("app")

	var tok core.Token
	e.decode(t, e.call(t, "POST", "/host/api/maps/"+mapID+"/tokens", `{"reference": "/monster/goblin", "x": 140, "y": 70}`), 201, &tok)
	if tok.Name != "Goblin" || tok.Width != 1 || tok.Role != core.RoleHostile || tok.EntityID == nil || *tok.EntityID != goblinID {
		t.Fatalf("placed %+v", tok)
	}
	player.waitFor("tokenUpdated", tok.ID, `"name":"Goblin"`)

	e.decode(t, e.call(t, "PATCH", "/host/api/tokens/"+tok.ID, `{"hidden": true}`), 200, &tok)
	got := player.waitFor("tokenUpdated", tok.ID)
	if string(got.Data) != `{"id":"`+tok.ID+`","hidden":true,"size":""}` {
		t.Fatalf("players got %s after hiding", got.Data)
	}
	host.waitFor("tokenUpdated", tok.ID, `"name":"Goblin"`, `"hidden":true`)
	var snap struct {
		Map struct{ Tokens []core.Token } `json:"map"`
	}
	e.decodePublic(t, "/api", &snap)
	for _, st := range snap.Map.Tokens {
		if st.ID == tok.ID {
			t.Fatal("GET /api shows the hidden token")
		}
	}

	if r := e.call(t, "DELETE", "/host/api/tokens/"+tok.ID, ""); r.status != 204 {
		t.Fatalf("delete: %d %s", r.status, r.body)
	}
	host.waitFor("tokensUpdated", `"mapId":"`+mapID+`"`)
	wantError(t, e.call(t, "DELETE", "/host/api/tokens/"+tok.ID, ""), 404, "no token")
	wantError(t, e.call(t, "POST", "/host/api/maps/"+mapID+"/tokens", `{"refrence": "/monster/goblin"}`), 400, "refrence")
	wantError(t, e.call(t, "POST", "/host/api/maps/nope/tokens", `{"entityId": "`+goblinID+`"}`), 404, "no map")
}

func TestHostDoorsIgnoreRemoteInteraction(t *testing.T) {
	e := newConsoleEnv(t)
	e.sizeCave(t)
	if r := e.call(t, "PATCH", "/host/api/settings", `{"interaction": "none"}`); r.status != 200 {
		t.Fatalf("settings: %d", r.status)
	}
	player := e.playerSocket(t)
	player.waitFor("app")
	var out map[string]any
	e.decode(t, e.call(t, "POST", "/host/api/maps/"+mapID+"/doors/"+consoleDoorID, `{"state": "open"}`), 200, &out)
	player.waitFor("mapUpdated", `"door":"open"`)
	player.waitFor("lineOfSightUpdated")
	wantError(t, e.call(t, "POST", "/host/api/maps/"+mapID+"/doors/"+consoleDoorID, `{"state": "ajar"}`), 400, "state")
	wantError(t, e.call(t, "POST", "/host/api/maps/"+mapID+"/doors/nope", `{"state": "open"}`), 404, "no wall")
}

func TestHostPaintsFog(t *testing.T) {
	e := newConsoleEnv(t)
	e.sizeCave(t)
	player := e.playerSocket(t)
	player.waitFor("app")
	var out struct {
		Fog      string `json:"fog"`
		FogOfWar bool   `json:"fogOfWar"`
	}
	e.decode(t, e.call(t, "POST", "/host/api/maps/"+mapID+"/fog", `{"mode": "reveal", "shape": "rect", "x": 0, "y": 0, "width": 140, "height": 140}`), 200, &out)
	if !strings.HasPrefix(out.Fog, "/campaigns/"+campaignID+"/fog/"+mapID+"-") || !out.FogOfWar {
		t.Fatalf("fog %+v", out)
	}
	first := filepath.Join(e.dataDir, filepath.FromSlash(out.Fog))
	env := player.waitFor("fogUpdated", mapID)
	var sent core.FogImage
	json.Unmarshal(env.Data, &sent)
	raw, err := base64.StdEncoding.DecodeString(sent.Image)
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	if g := color.GrayModel.Convert(img.At(2, 2)).(color.Gray); g.Y != 255 {
		t.Fatalf("revealed corner is %v", g)
	}
	if g := color.GrayModel.Convert(img.At(30, 15)).(color.Gray); g.Y != 0 {
		t.Fatalf("far corner is %v", g)
	}
	if b := img.Bounds(); b != image.Rect(0, 0, 40, 20) {
		t.Fatalf("mask %v", b)
	}

	// The next stroke builds on the mask; the old file goes.
	e.decode(t, e.call(t, "POST", "/host/api/maps/"+mapID+"/fog", `{"mode": "reveal", "shape": "brush", "path": [600, 300, 650, 300], "radius": 40}`), 200, &out)
	if _, err := os.Stat(first); !os.IsNotExist(err) {
		t.Fatalf("previous mask still there: %v", err)
	}
	data, err := os.ReadFile(filepath.Join(e.dataDir, filepath.FromSlash(out.Fog)))
	if err != nil {
		t.Fatal(err)
	}
	m := &core.Map{Name: "Cave", Width: 700, Height: 350, GridSize: 70}
	mask, err := fog.Decode(data, m)
	if err != nil {
		t.Fatal(err)
	}
	if !mask.Revealed(35, 35) || !mask.Revealed(620, 300) || mask.Revealed(400, 100) {
		t.Fatal("the second stroke lost the first or painted the wrong place")
	}

	e.decode(t, e.call(t, "POST", "/host/api/maps/"+mapID+"/fog", `{"fogOfWar": false}`), 200, &out)
	player.waitFor("mapUpdated", `"fogOfWar":false`)
	wantError(t, e.call(t, "POST", "/host/api/maps/"+mapID+"/fog", `{"mode": "reveal", "shape": "hexagon"}`), 400, "shape")
	wantError(t, e.call(t, "POST", "/host/api/maps/"+mapID+"/fog", `{}`), 400, "expected")
}

func TestHostScreenControls(t *testing.T) {
	e := newConsoleEnv(t)
	player := e.playerSocket(t)
	player.waitFor("app")
	if r := e.call(t, "POST", "/host/api/screen/focus", `{"x": 100, "y": 50, "zoom": true}`); r.status != 200 {
		t.Fatalf("focus: %d %s", r.status, r.body)
	}
	player.waitFor("mapFocus", `"x":100`, `"pan":true`, `"zoom":true`, `"color":"#ffcc00"`)
	if r := e.call(t, "POST", "/host/api/screen/fit", ""); r.status != 200 {
		t.Fatalf("fit: %d %s", r.status, r.body)
	}
	player.waitFor("mapFitScreen", mapID)
	if r := e.call(t, "POST", "/host/api/screen/frame", `{"x": 10, "y": 20, "zoom": 2}`); r.status != 200 {
		t.Fatalf("frame: %d %s", r.status, r.body)
	}
	player.waitFor("mapFrameUpdated", mapID, `"zoom":2`)

	var screen core.Screen
	e.decode(t, e.call(t, "PATCH", "/host/api/screen/overlay", `{"overlayHandoutText": "The door is sealed.", "overlayHandoutStyle": "letter"}`), 200, &screen)
	if screen.OverlayType != "handout" {
		t.Fatalf("screen %+v", screen)
	}
	player.waitFor("screenUpdated", "The door is sealed.")

	// An uploaded image becomes the overlay, served to players.
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	fw, _ := mw.CreateFormFile("file", "Old_cellar-map.png")
	png.Encode(fw, image.NewGray(image.Rect(0, 0, 4, 4)))
	mw.Close()
	r := e.call(t, "POST", "/host/api/screen/handout", body.String(), "Content-Type", mw.FormDataContentType())
	if r.status != 200 {
		t.Fatalf("handout: %d %s", r.status, r.body)
	}
	json.Unmarshal(r.body, &screen)
	if screen.OverlayType != "image" || !strings.HasPrefix(screen.OverlayImage, "/campaigns/"+campaignID+"/handouts/") {
		t.Fatalf("screen %+v", screen)
	}
	resp, err := http.Get(e.public.URL + screen.OverlayImage)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("players get the handout with %d", resp.StatusCode)
	}
	// The journal names it by the file the game master uploaded, not by
	// the id it is kept under.
	var journal struct{ Entries []core.JournalEntry }
	e.decode(t, e.call(t, "GET", "/host/api/journal", ""), 200, &journal)
	if n := len(journal.Entries); n == 0 || journal.Entries[n-1].URL != screen.OverlayImage || journal.Entries[n-1].Title != "Old cellar map" {
		t.Fatalf("the journal after the upload: %+v", journal.Entries)
	}
	screen = core.Screen{}
	e.decode(t, e.call(t, "DELETE", "/host/api/screen/overlay", ""), 200, &screen)
	if screen.OverlayType != "" || screen.OverlayImage != "" || screen.OverlayHandoutText != "" {
		t.Fatalf("after taking it down: %+v", screen)
	}
	player.waitFor("screenUpdated", `"overlayImage":""`)

	// Whose sight players see: each seat's own token's, then the party's.
	e.decode(t, e.call(t, "PUT", "/host/api/screen/vision", `{"sharedVision": "never"}`), 200, &screen)
	if screen.SharedVision != core.SharedVisionNever {
		t.Fatalf("after choosing each seat's own vision: %+v", screen)
	}
	player.waitFor("screenUpdated", `"sharedVision":"never"`)
	var snap struct{ Screen core.Screen }
	resp, err = http.Get(e.public.URL + "/api")
	if err != nil {
		t.Fatal(err)
	}
	json.NewDecoder(resp.Body).Decode(&snap)
	resp.Body.Close()
	if snap.Screen.SharedVision != core.SharedVisionNever {
		t.Errorf("the players' snapshot says sharedVision %q, want never", snap.Screen.SharedVision)
	}
	wantError(t, e.call(t, "PUT", "/host/api/screen/vision", `{"sharedVision": "sometimes"}`), 400, "sharedVision")
	wantError(t, e.call(t, "PUT", "/host/api/screen/vision", `{"shared": "never"}`), 400, "shared")
	e.decode(t, e.call(t, "PUT", "/host/api/screen/vision", `{"sharedVision": "always"}`), 200, &screen)
	player.waitFor("screenUpdated", `"sharedVision":"always"`)
}

func TestHostCombatAndPrivateRolls(t *testing.T) {
	e := newConsoleEnv(t)
	host, player := e.hostSocket(t), e.playerSocket(t)
	player.waitFor("app")
	host.waitFor("app")
	var tok core.Token
	e.decode(t, e.call(t, "POST", "/host/api/maps/"+mapID+"/tokens", `{"entityId": "`+goblinID+`", "x": 70, "y": 70}`), 201, &tok)
	var added []core.Combatant
	e.decode(t, e.call(t, "POST", "/host/api/combatants", `{"tokenId": "`+tok.ID+`"}`), 201, &added)
	goblin := added[0]
	if goblin.Name != "Goblin" || goblin.Data["hit_points"] != 7.0 || goblin.Data["max_hit_points"] != 7.0 {
		t.Fatalf("combatant %+v", goblin)
	}
	// dnd5e rolls hostile combatants at once (autoRoll): 10 + Dexterity
	// modifier (no dexterity in the fixture: +0).
	if len(goblin.Initiative) != 1 || goblin.Initiative[0].Value != 10.0 {
		t.Fatalf("initiative %+v", goblin.Initiative)
	}
	var game wire.GameControl
	e.decode(t, e.call(t, "POST", "/host/api/combatants/initiative", `{"combatants": ["`+goblin.ID+`"]}`), 200, &game)
	if len(game.TurnOrder) != 2 {
		t.Fatalf("turn order %+v", game.TurnOrder)
	}
	var c core.Combatant
	e.decode(t, e.call(t, "POST", "/host/api/combatants/"+goblin.ID+"/hitpoints", `{"damage": 4}`), 200, &c)
	if c.Data["hit_points"] != 3.0 || !c.Bloodied {
		t.Fatalf("after 4 damage: %+v", c)
	}
	player.waitFor("gameUpdated", `"bloodied":true`)
	e.decode(t, e.call(t, "POST", "/host/api/combatants/"+goblin.ID+"/effects", `{"name": "Poisoned", "duration": 1, "durationUnit": "round"}`), 200, &c)
	if len(c.Effects) != 1 || c.Effects[0].ID == "" {
		t.Fatalf("effects %+v", c.Effects)
	}
	e.decode(t, e.call(t, "PATCH", "/host/api/combatants/"+goblin.ID, `{"hidden": true}`), 200, &c)
	host.waitFor("combatantUpdated", `"name":"Goblin"`, `"hidden":true`)
	wantError(t, e.call(t, "POST", "/host/api/combatants/"+goblin.ID+"/hitpoints", `{"damage": -1}`), 400, "damage")
	wantError(t, e.call(t, "POST", "/host/api/combatants", `{"tokenId": "nope"}`), 404, "no token")
	if r := e.call(t, "DELETE", "/host/api/combatants/"+goblin.ID, ""); r.status != 204 {
		t.Fatalf("delete combatant: %d", r.status)
	}

	// A private roll: the host's socket and log have it, players nothing.
	var m core.Message
	e.decode(t, e.call(t, "POST", "/host/api/messages", `{"text": "/r 1d20 PRIVATE-ROLL", "private": true}`), 201, &m)
	if !m.Private {
		t.Fatalf("message %+v", m)
	}
	host.waitFor("messageCreated", "PRIVATE-ROLL", `"private":true`)
	e.decode(t, e.call(t, "POST", "/host/api/messages", `{"text": "The goblin snarls", "creature": "Goblin"}`), 201, &m)
	player.never("messageCreated", "PRIVATE-ROLL", "messageCreated")
	var snap struct{ Messages []core.Message }
	e.decodePublic(t, "/api", &snap)
	if len(snap.Messages) != 1 || snap.Messages[0].Creature != "Goblin" {
		t.Fatalf("players' messages %+v", snap.Messages)
	}
	var log []core.Message
	e.decode(t, e.call(t, "GET", "/host/api/messages", ""), 200, &log)
	if len(log) != 2 || !log[0].Private {
		t.Fatalf("host log %+v", log)
	}
}

// decodePublic reads a GET on the public listener.
func (e *consoleEnv) decodePublic(t *testing.T, path string, v any) {
	t.Helper()
	resp, err := http.Get(e.public.URL + path)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if err := json.NewDecoder(resp.Body).Decode(v); err != nil {
		t.Fatal(err)
	}
}

func TestHostCreatesRenamesAndDeletesMaps(t *testing.T) {
	e := newConsoleEnv(t)
	player := e.playerSocket(t)
	player.waitFor("app")

	var m core.Map
	e.decode(t, e.call(t, "POST", "/host/api/maps", `{"name": "Crypt", "width": 1400, "height": 700, "gridType": "hexRow", "gridSize": 50}`), 201, &m)
	if m.Name != "Crypt" || m.Width != 1400 || m.GridType != "hexRow" || m.GridSize != 50 || m.ID == "" {
		t.Fatalf("map %+v", m)
	}
	wantError(t, e.call(t, "POST", "/host/api/maps", `{"name": "", "width": 10, "height": 10}`), 400, "name")
	wantError(t, e.call(t, "POST", "/host/api/maps", `{"name": "X", "width": 0, "height": 10}`), 400, "width")
	wantError(t, e.call(t, "POST", "/host/api/maps", `{"name": "X", "width": 10, "height": 10, "gridType": "triangle"}`), 400, "gridType")

	// With a background: its size becomes the map's, the file is served.
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	mw.WriteField("name", "Swamp")
	fw, _ := mw.CreateFormFile("file", "swamp.png")
	png.Encode(fw, image.NewGray(image.Rect(0, 0, 320, 160)))
	mw.Close()
	r := e.call(t, "POST", "/host/api/maps", body.String(), "Content-Type", mw.FormDataContentType())
	var swamp core.Map
	e.decode(t, r, 201, &swamp)
	if swamp.Width != 320 || swamp.Height != 160 || !strings.HasPrefix(swamp.Image, "/campaigns/"+campaignID+"/maps/") {
		t.Fatalf("swamp %+v", swamp)
	}
	// The background is the game master's while the map is off screen,
	// and everyone's once it is shown.
	served := func(base string) int {
		t.Helper()
		resp, err := http.Get(base + swamp.Image)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	if got := served(e.host.URL); got != 200 {
		t.Fatalf("background served to the host with %d", got)
	}
	if got := served(e.public.URL); got != 404 {
		t.Fatalf("the background of a map off screen served to players with %d", got)
	}

	// Renaming the map on screen tells players; deleting it clears the screen.
	if r := e.call(t, "POST", "/host/api/screen", `{"mapId": "`+swamp.ID+`"}`); r.status != 200 {
		t.Fatalf("show: %d", r.status)
	}
	if got := served(e.public.URL); got != 200 {
		t.Fatalf("background of the map on screen served with %d", got)
	}
	e.decode(t, e.call(t, "PATCH", "/host/api/maps/"+swamp.ID, `{"name": "Black Swamp"}`), 200, &swamp)
	player.waitFor("mapUpdated", "Black Swamp")
	if r := e.call(t, "DELETE", "/host/api/maps/"+swamp.ID, ""); r.status != 204 {
		t.Fatalf("delete: %d %s", r.status, r.body)
	}
	player.waitFor("screenUpdated")
	if _, err := os.Stat(filepath.Join(e.dataDir, filepath.FromSlash(swamp.Image))); !os.IsNotExist(err) {
		t.Fatalf("background still there: %v", err)
	}
	wantError(t, e.call(t, "DELETE", "/host/api/maps/"+swamp.ID, ""), 404, "no map")
	var view core.HostCampaign
	e.decode(t, e.call(t, "GET", "/host/api/campaign", ""), 200, &view)
	if view.Screen.MapID != "" {
		t.Fatalf("screen still shows %s", view.Screen.MapID)
	}
}

// A token carries a light from the console (the token panel's "Carry a
// light"): the patch its button sends turns on a token's vision and its
// light; putting it out keeps the radii for next time.
func TestHostTokenCarriesALight(t *testing.T) {
	e := newConsoleEnv(t)
	player := e.playerSocket(t)
	player.waitFor("app")
	var tok core.Token
	e.decode(t, e.call(t, "POST", "/host/api/maps/"+mapID+"/tokens", `{"reference": "/monster/goblin", "x": 140, "y": 70}`), 201, &tok)
	e.call(t, "PATCH", "/host/api/tokens/"+tok.ID, `{"role": "friendly"}`)
	e.decode(t, e.call(t, "PATCH", "/host/api/tokens/"+tok.ID, `{"vision": {"light": true, "lightRadiusMin": 2, "lightRadiusMax": 4, "lightColor": "#ffe08a", "enabled": true}}`), 200, &tok)
	if v := tok.Vision; v == nil || !v.Enabled || !v.Light || v.LightRadiusMin != 2 || v.LightRadiusMax != 4 || v.LightColor != "#ffe08a" || v.ID == "" {
		t.Fatalf("the token's vision after lighting it: %+v", v)
	}
	player.waitFor("tokenUpdated", tok.ID, `"light":true`, `"lightRadiusMax":4`)
	e.decode(t, e.call(t, "PATCH", "/host/api/tokens/"+tok.ID, `{"vision": {"light": false}}`), 200, &tok)
	if v := tok.Vision; v == nil || v.Light || v.LightRadiusMax != 4 || !v.Enabled {
		t.Fatalf("the token's vision after putting the light out: %+v", v)
	}
	player.waitFor("tokenUpdated", tok.ID, `"light":false`)
	wantError(t, e.call(t, "PATCH", "/host/api/tokens/"+tok.ID, `{"vision": {"lightRadiusMax": -1}}`), 400, "lightRadiusMax")
	var kept core.Token
	resp, err := http.Get(e.public.URL + "/api/tokens/" + tok.ID)
	if err != nil {
		t.Fatal(err)
	}
	json.NewDecoder(resp.Body).Decode(&kept)
	resp.Body.Close()
	if kept.Vision == nil || kept.Vision.LightRadiusMax != 4 {
		t.Fatalf("a refused patch changed the token: %+v", kept.Vision)
	}
}
