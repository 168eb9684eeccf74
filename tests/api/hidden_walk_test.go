package api

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"mime/multipart"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gorilla/websocket"
	"github.com/vttapp/companion/internal/testkit"
	"github.com/vttapp/companion/tests/e2e"
)

const walkWait = 10 * time.Second

// walkSocket records every frame a player's socket receives, whole.
type walkSocket struct {
	t      *testing.T
	conn   *websocket.Conn
	mu     sync.Mutex
	frames [][]byte
}

func walkDial(t *testing.T, base string) *walkSocket {
	t.Helper()
	conn, _, err := websocket.DefaultDialer.Dial("ws"+strings.TrimPrefix(base, "http")+"/ws", nil)
	if err != nil {
		t.Fatalf("dial: %v", err)
	}
	s := &walkSocket{t: t, conn: conn}
	go func() {
		for {
			_, data, err := conn.ReadMessage()
			if err != nil {
				return
			}
			s.mu.Lock()
			s.frames = append(s.frames, data)
			s.mu.Unlock()
		}
	}()
	t.Cleanup(func() { conn.Close() })
	return s
}

func (s *walkSocket) send(name string, data any, requestID string) {
	s.t.Helper()
	msg := map[string]any{"name": name, "data": data}
	if requestID != "" {
		msg["requestId"] = requestID
	}
	if err := s.conn.WriteJSON(msg); err != nil {
		s.t.Fatal(err)
	}
}

// waitFor waits for a frame containing every part.
func (s *walkSocket) waitFor(parts ...string) {
	s.t.Helper()
	deadline := time.Now().Add(walkWait)
	for time.Now().Before(deadline) {
		s.mu.Lock()
		for _, f := range s.frames {
			if containsEvery(string(f), parts) {
				s.mu.Unlock()
				return
			}
		}
		s.mu.Unlock()
		time.Sleep(10 * time.Millisecond)
	}
	s.t.Fatalf("no frame with %q within %v", parts, walkWait)
}

func (s *walkSocket) all() [][]byte {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([][]byte(nil), s.frames...)
}

func containsEvery(s string, parts []string) bool {
	for _, p := range parts {
		if !strings.Contains(s, p) {
			return false
		}
	}
	return true
}

// walkMaps is a loose collection for the demo campaign: the hall the
// players will see, with a friendly and a hostile token with vision, a
// token hidden all along and objects on the dm layer; and a lair that
// never reaches the player screen.
const walkMaps = `[
 {"id": "walk-hall-map", "name": "Walk Hall", "width": 700, "height": 700, "gridSize": 70, "lineOfSight": true,
  "walls": [{"id": "walk-wall", "data": [350, 0, 350, 300]},
            {"id": "walk-door", "data": [350, 300, 350, 400], "type": "door", "door": "closed"}],
  "tokens": [
   {"id": "walk-hero", "name": "Walk Hero", "role": "friendly", "player": true, "x": 105, "y": 105,
    "vision": {"id": "walk-hero-vision", "enabled": true}},
   {"id": "walk-guard", "name": "Walk Guard", "role": "hostile", "x": 525, "y": 525,
    "vision": {"id": "walk-foe-vision", "enabled": true}},
   {"id": "walk-hidden-imported", "name": "SECRET-IMPORTED-HIDDEN", "hidden": true, "x": 595, "y": 595}],
  "markers": [{"id": "walk-dm-marker", "name": "SECRET-DM-MARKER", "layer": "dm", "hidden": false, "x": 10, "y": 10},
              {"id": "walk-hidden-marker", "name": "SECRET-HIDDEN-MARKER", "x": 20, "y": 20}],
  "tiles": [{"id": "walk-dm-tile", "name": "SECRET-DM-TILE", "layer": "dm", "x": 35, "y": 35, "width": 70, "height": 70}],
  "drawings": [{"id": "walk-dm-drawing", "text": "SECRET-DM-DRAWING", "layer": "dm"}],
  "areaEffects": [{"id": "walk-dm-area", "name": "SECRET-DM-AREA", "layer": "dm"}],
  "lights": [{"id": "walk-light", "enabled": true, "x": 105, "y": 105, "radiusMax": 20}]},
 {"id": "walk-lair-map", "name": "SECRET-OFFSCREEN-MAP", "width": 700, "height": 700, "gridSize": 70,
  "tokens": [{"id": "walk-lair-imported", "name": "SECRET-OFFSCREEN-IMPORTED", "x": 35, "y": 35}]}
]`

// The demo's foes and their vision ids (examples/dnd5e/sample/campaign).
var walkDemoFoeSights = []string{"vision-5e0ca000-0000-4000-8000-000000000154", "vision-5e0ca000-0000-4000-8000-000000000155"}

const walkDemoHoundCombatant = "5e0ca000-0000-4000-8000-000000000502"

// walkDemoHoundEntity is the demo compendium's Cinder Hound.
const walkDemoHoundEntity = "5e0c0000-0000-4000-8000-000000000003"

func TestPlayersNeverReceiveWhatTheGameMasterHides(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and starts the companion binary")
	}
	srv := e2e.StartServer(t, e2e.ServerOptions{})
	host := e2e.NewAPIClient(t, srv.HostURL)
	public := e2e.NewAPIClient(t, srv.URL)
	hostWS := testkit.Dial(t, srv.HostURL+"/host/ws", http.Header{"Origin": {srv.HostURL}})
	hostWS.WaitFor(walkWait, nil, "app")
	var bodies []walkBody // every public HTTP answer, checked at the end
	read := func(path string) e2e.ApiReply {
		t.Helper()
		r := public.Do("GET", path, "")
		bodies = append(bodies, walkBody{path, r})
		return r
	}
	hostDo := func(method, path, body string, want int) map[string]any {
		t.Helper()
		r := host.Do(method, path, body)
		if r.Status != want {
			t.Fatalf("%s %s: %d %s", method, path, r.Status, r.Body)
		}
		var v map[string]any
		json.Unmarshal(r.Body, &v)
		return v
	}

	// Two players, one of them on integer drag states as the installed
	// Encounter+ client (it switches with its first integer drag).
	p1, p2 := walkDial(t, srv.URL), walkDial(t, srv.URL)
	p1.send("clientUpdated", map[string]any{"name": "Ellie", "color": "#4caf50"}, "")
	p2.send("clientUpdated", map[string]any{"name": "Tom", "color": "#2196f3"}, "")
	read("/api")     // the demo's chapel, with its foes' vision
	read("/client/") // its page names the player screen's picture

	// Seats: Tom takes one; the game master gives Ellie another. Each seat
	// token goes to its player alone (checked at the end).
	p2.send("takeSeat", map[string]any{"seatId": e2e.DemoIlsaChar, "player": "Tom"}, "tom-seat")
	p2.waitFor(`"responseId":"tom-seat"`, "seatToken")
	tomToken := walkSeatToken(t, p2, `"responseId":"tom-seat"`)
	var clients []struct {
		Channel int
		Name    string
	}
	host.Get("/host/api/clients", &clients)
	for _, c := range clients {
		if c.Name == "Ellie" {
			hostDo("POST", "/host/api/seats/"+e2e.DemoQuillChar+"/assign", `{"channel": `+itoa(c.Channel)+`}`, 200)
		}
	}
	p1.waitFor(`"seatChanged"`, "seatToken")
	ellieToken := walkSeatToken(t, p1, `"seatChanged"`)
	read("/api/seats")
	var campaign struct {
		Campaign struct{ ID string }
	}
	host.Get("/host/api/campaign", &campaign)
	demo := campaign.Campaign.ID
	if r := read("/campaigns/" + demo + "/maps/drowned-chapel.png"); r.Status != 200 {
		t.Errorf("the image of the map on the player screen: %d, want it served", r.Status)
	}

	// The game master imports the hall and the lair into the campaign and
	// shows the hall.
	var form bytes.Buffer
	mw := multipart.NewWriter(&form)
	mw.WriteField("destination", demo)
	fw, _ := mw.CreateFormFile("file", "walk.zip")
	fw.Write(testkit.Zip(t, "maps.json", walkMaps))
	mw.Close()
	if r := host.Do("POST", "/host/api/import", form.String(), "Content-Type", mw.FormDataContentType()); r.Status != 201 && r.Status != 200 {
		t.Fatalf("import: %d %s", r.Status, r.Body)
	}
	p1.waitFor(`"reload"`)
	// A module with a map of its own: its picture, like a campaign map's,
	// stays the game master's while the map is off the player screen.
	form.Reset()
	mw = multipart.NewWriter(&form)
	fw, _ = mw.CreateFormFile("file", "vault.module")
	fw.Write(testkit.Zip(t, "module.json", `{"id": "walk-vault", "name": "Walk Vault", "system": "dnd5e"}`,
		"maps.json", `[{"id": "walk-vault-map", "name": "SECRET-MODULE-MAP", "image": "maps/vault.png", "width": 70, "height": 70}]`,
		"maps/vault.png", "\x89PNG\r\n\x1a\nSECRET-MODULE-PICTURE"))
	mw.Close()
	if r := host.Do("POST", "/host/api/import", form.String(), "Content-Type", mw.FormDataContentType()); r.Status != 201 && r.Status != 200 {
		t.Fatalf("import the module: %d %s", r.Status, r.Body)
	}
	var vault struct{ Image string }
	host.Get("/host/api/maps/walk-vault-map", &vault)
	if vault.Image == "" || host.Do("GET", vault.Image, "").Status != 200 {
		t.Fatalf("the module map's picture %q is not served to the game master", vault.Image)
	}
	hostDo("POST", "/host/api/screen", `{"mapId": "walk-hall-map"}`, 200)
	p1.waitFor(`"mapLoaded"`, "walk-hall-map")
	p2.send("tokenMoved", map[string]any{"id": "walk-hero", "x": 140, "y": 105, "state": 0}, "")
	p2.send("tokenMoved", map[string]any{"id": "walk-hero", "x": 140, "y": 105, "state": 2}, "")
	p2.waitFor(`"tokenUpdated"`, "walk-hero", `"x":140`, `"mapId":"walk-hall-map"`) // events say which map they are about
	p1.waitFor(`"tokenMoved"`, "walk-hero", `"mapId":"walk-hall-map"`)

	// A token placed hidden, then named; a visible one hidden, then renamed.
	hidden := hostDo("POST", "/host/api/maps/walk-hall-map/tokens", `{"reference": "/monster/cinder-hound", "x": 630, "y": 105, "hidden": true}`, 201)["id"].(string)
	hostDo("PATCH", "/host/api/tokens/"+hidden, `{"name": "SECRET-HIDDEN-TOKEN"}`, 200)
	hostDo("PATCH", "/host/api/tokens/walk-guard", `{"hidden": true}`, 200)
	hostDo("PATCH", "/host/api/tokens/walk-guard", `{"name": "SECRET-RENAMED-WHILE-HIDDEN", "x": 455}`, 200)
	hostDo("PATCH", "/host/api/tokens/walk-guard", `{"hidden": false, "name": "Walk Guard"}`, 200) // back, as it was shown
	// The next encounter, on the lair off screen.
	offscreen := hostDo("POST", "/host/api/maps/walk-lair-map/tokens", `{"reference": "/monster/cinder-hound", "x": 105, "y": 105}`, 201)["id"].(string)
	hostDo("PATCH", "/host/api/tokens/"+offscreen, `{"name": "SECRET-OFFSCREEN-TOKEN"}`, 200)
	hostDo("PATCH", "/host/api/tokens/walk-lair-imported", `{"name": "SECRET-OFFSCREEN-RENAMED"}`, 200)
	// The lair prepared off screen: a room of walls, a door, a light and
	// every other kind of map object, through the one host API (issue 35);
	// on the hall on screen, a hidden marker, objects on the dm layer and
	// a secret door (a plain wall to players until opened).
	for kind, body := range map[string]string{
		"walls":        `[{"id": "walk-staged-wall", "data": [0, 0, 700, 0, 700, 700]}, {"id": "walk-staged-door", "data": [0, 0, 0, 700], "type": "door"}]`,
		"lights":       `{"id": "walk-staged-light", "x": 350, "y": 350, "radiusMin": 2, "radiusMax": 4, "color": "#fedcba"}`,
		"markers":      `{"id": "walk-staged-marker", "name": "SECRET-STAGED-MARKER", "x": 35, "y": 35, "hidden": false}`,
		"drawings":     `{"id": "walk-staged-drawing", "data": [0, 0, 70, 70], "text": "SECRET-STAGED-DRAWING"}`,
		"areaEffects":  `{"id": "walk-staged-area", "x": 70, "y": 70, "radius": 70, "name": "SECRET-STAGED-AREA"}`,
		"measurements": `{"id": "walk-staged-measure", "data": [0, 0, 140, 0], "name": "SECRET-STAGED-MEASURE"}`,
		"tiles":        `{"id": "walk-staged-tile", "x": 0, "y": 0, "width": 70, "height": 70, "name": "SECRET-STAGED-TILE"}`,
	} {
		if r := host.Do("POST", "/host/api/maps/walk-lair-map/"+kind, body); r.Status != 201 {
			t.Fatalf("draw %s on the staged map: %d %s", kind, r.Status, r.Body)
		}
	}
	hostDo("PATCH", "/host/api/maps/walk-lair-map/lights/walk-staged-light", `{"radiusMax": 6}`, 200)
	hostDo("DELETE", "/host/api/maps/walk-lair-map/walls/walk-staged-wall", "", 204)
	hostDo("POST", "/host/api/maps/walk-hall-map/markers", `{"id": "walk-new-hidden-marker", "name": "SECRET-NEW-HIDDEN-MARKER", "x": 30, "y": 30}`, 201)
	hostDo("POST", "/host/api/maps/walk-hall-map/tiles", `{"id": "walk-new-dm-tile", "name": "SECRET-NEW-DM-TILE", "x": 30, "y": 30, "layer": "dm"}`, 201)
	hostDo("POST", "/host/api/maps/walk-hall-map/drawings", `{"id": "walk-new-hidden-drawing", "data": [0, 0, 9, 9], "hidden": true}`, 201)
	hostDo("POST", "/host/api/maps/walk-hall-map/walls", `{"id": "walk-secret-door", "data": [600, 0, 600, 100], "type": "secretDoor"}`, 201)

	// A hidden combatant on the hidden token, acting first; the visible
	// Cinder Hound with a GM note, an effect with numbers, and the hidden
	// token as its own.
	added := host.Do("POST", "/host/api/combatants", `{"tokenId": "`+hidden+`", "name": "SECRET-HIDDEN-COMBATANT", "hidden": true}`)
	var combatants []map[string]any
	if err := json.Unmarshal(added.Body, &combatants); err != nil || added.Status != 201 || len(combatants) != 1 {
		t.Fatalf("add the hidden combatant: %d %s", added.Status, added.Body)
	}
	hiddenCombatant := combatants[0]["id"].(string)
	hostDo("PUT", "/host/api/combatants/"+hiddenCombatant+"/initiative", `{"value": 30}`, 200)
	hostDo("POST", "/host/api/combatants/"+hiddenCombatant+"/effects", `{"name": "SECRET-HIDDEN-EFFECT", "duration": 1}`, 200)
	hostDo("PATCH", "/host/api/combatants/"+walkDemoHoundCombatant, `{"notes": "SECRET-GM-NOTE", "tokenId": "`+hidden+`"}`, 200)
	hostDo("PATCH", "/host/api/combatants/"+walkDemoHoundCombatant, `{"effects": [{"id": "walk-rage", "name": "Rage", "notes": "SECRET-EFFECT-NOTE", "data": {"SECRET-EFFECT-DATA": 2}, "modifiers": [{"id": "m", "name": "SECRET-EFFECT-MODIFIER", "enabled": true}]}]}`, 200)
	for _, action := range []string{"next", "next", "next", "next", "next", "next", "previous", "next"} {
		hostDo("POST", "/host/api/game/"+action, "", 200)
	}
	// A private roll.
	hostDo("POST", "/host/api/messages", `{"text": "SECRET-PRIVATE-ROLL [[1d20]]", "private": true}`, 201)
	// The game master's notes on Tom's character and on a monster (the
	// original's shape: an entity's notes are the game master's); Tom then
	// reads his sheet and writes his character, and a player writes the
	// monster's notes over, which keeps them as stored.
	hostWS.SendJSON(map[string]any{"name": "updateEntity", "requestId": "note-1", "data": map[string]any{"id": e2e.DemoIlsaChar, "notes": "SECRET-CHARACTER-NOTE"}})
	hostWS.AwaitReply(walkWait, "note-1", nil)
	hostWS.SendJSON(map[string]any{"name": "updateEntity", "requestId": "note-2", "data": map[string]any{"id": walkDemoHoundEntity, "notes": "SECRET-MONSTER-NOTE"}})
	hostWS.AwaitReply(walkWait, "note-2", nil)
	p2.send("getCharacter", nil, "tom-sheet")
	p2.waitFor(`"responseId":"tom-sheet"`)
	p2.send("updateCharacter", map[string]any{"data": map[string]any{"death_saves": map[string]any{"successes": 1}}}, "tom-edit")
	p2.waitFor(`"responseId":"tom-edit"`)
	p1.send("updateEntity", map[string]any{"id": walkDemoHoundEntity, "notes": "overwritten by a player"}, "note-3")
	p1.waitFor(`"responseId":"note-3"`)

	// The game master drags the hidden token, the lair's token and the foe.
	for _, id := range []string{hidden, offscreen, "walk-guard"} {
		for _, state := range []string{"start", "control", "end"} {
			hostWS.Send("tokenMoved", `{"id": "`+id+`", "x": 420, "y": 140, "state": "`+state+`"}`)
		}
	}

	// The players play: a party drag and a foe's drag (both tell the
	// integer player too), a door, and requests about what they cannot see.
	for _, id := range []string{"walk-hero", "walk-guard"} {
		for _, state := range []string{"start", "control", "control", "end"} {
			p1.send("tokenMoved", map[string]any{"id": id, "x": 210, "y": 175, "state": state}, "")
		}
	}
	p1.send("updateDoor", map[string]any{"mapId": "walk-hall-map", "id": "walk-door", "state": "open"}, "")
	p1.waitFor(`"lineOfSightUpdated"`)
	for i, probe := range []struct {
		name string
		data any
	}{
		{"updateToken", map[string]any{"id": hidden, "name": "x"}},
		{"updateToken", map[string]any{"id": offscreen, "name": "x"}},
		{"tokenMoved", map[string]any{"id": hidden, "x": 1, "y": 1, "state": "start"}},
		{"tokenMoved", map[string]any{"id": offscreen, "x": 1, "y": 1, "state": "start"}},
		{"tokenMoved", map[string]any{"id": "walk-hidden-imported", "x": 1, "y": 1, "state": "cancel"}},
		{"updateCombatant", map[string]any{"id": hiddenCombatant, "name": "x"}},
		{"clientUpdated", map[string]any{"name": "Ellie", "tokenId": hidden}},
		{"getAttribute", map[string]any{"entityId": hiddenCombatant}},
		{"updateDoor", map[string]any{"mapId": "walk-lair-map", "id": "walk-staged-door", "state": "open"}},
		{"updateDoor", map[string]any{"mapId": "walk-hall-map", "id": "walk-secret-door", "state": "open"}},
	} {
		p1.send(probe.name, probe.data, "probe-"+itoa(i))
	}
	// A player who joins late reads the game as it now stands.
	p3 := walkDial(t, srv.URL)
	p3.send("clientUpdated", map[string]any{"name": "Late"}, "")
	p1.send("createMessage", map[string]any{"content": "walk done"}, "")
	for _, p := range []*walkSocket{p1, p2, p3} {
		p.waitFor(`"messageCreated"`, "walk done") // every broadcast before it has arrived
	}

	// Every public HTTP path, as a player.
	read("/api")
	if page := read("/client/"); strings.Contains(string(page.Body), vault.Image) || strings.Contains(string(page.Body), "drowned-chapel.png") {
		t.Errorf("the player client's page names a picture off the player screen (%s or the chapel's): %.400s", vault.Image, page.Body)
	}
	read("/api/system")
	read("/api/clients")
	read("/api/openapi.json")
	var system struct {
		Definitions struct {
			Entities map[string]struct{ Collection string }
		}
	}
	public.Get("/api/system", &system)
	for kind, def := range system.Definitions.Entities {
		if def.Collection == "" {
			continue
		}
		for _, schema := range []string{"list", "basic", "model", "view"} {
			read("/api/" + def.Collection + "?schema=" + schema)
		}
		var rows []e2e.ApiEntity
		public.Get("/api/"+def.Collection+"?schema=basic", &rows)
		for _, e := range rows {
			read("/api/" + def.Collection + "/" + e.ID + "?references=true")
			read("/api/" + def.Collection + "/" + e.ID + "?schema=view")
			read("/" + kind + "/" + e.Slug)
			read("/" + kind + "." + e.ID)
		}
	}
	for _, id := range []string{hidden, offscreen, "walk-hidden-imported", "walk-lair-imported"} {
		if r := read("/api/tokens/" + id); r.Status != 404 {
			t.Errorf("GET /api/tokens/%s: %d, want 404 as for an unknown id", id, r.Status)
		}
	}
	for _, id := range []string{"walk-hero", "walk-guard"} {
		read("/api/tokens/" + id)
	}
	if r := read("/api/combatants/" + hiddenCombatant); r.Status != 404 {
		t.Errorf("GET /api/combatants/<hidden>: %d, want 404", r.Status)
	}
	read("/api/combatants/" + walkDemoHoundCombatant)
	// The data folders: every file there is, and the data files an older
	// version kept, at every campaign, module and import folder.
	dataFiles := []string{"campaign.json", "module.json", "maps.json", "combatants.json", "game.json", "screen.json",
		"messages.json", "characters.json", "monsters.json", "spells.json", "items.json", "pages.json"}
	for _, folder := range []string{"campaigns", "modules", "others"} {
		root := filepath.Join(srv.DataDir, folder)
		filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return nil
			}
			rel, _ := filepath.Rel(srv.DataDir, path)
			url := "/" + filepath.ToSlash(rel)
			if d.IsDir() {
				for _, name := range dataFiles {
					if r := read(url + "/" + name); r.Status != 404 {
						t.Errorf("GET %s/%s: %d, want 404", url, name, r.Status)
					}
				}
				return nil
			}
			read(url)
			return nil
		})
	}
	if r := read("/campaigns/" + demo + "/combatants.json"); r.Status != 404 {
		t.Errorf("the demo's combatants.json: %d", r.Status)
	}
	if r := read(vault.Image); r.Status != 404 {
		t.Errorf("GET %s, a module map's picture off the player screen: %d, want 404", vault.Image, r.Status)
	}
	if r := read("/campaigns/" + demo + "/maps/drowned-chapel.png"); r.Status != 404 {
		t.Errorf("the demo's map image, its map off the player screen: %d, want 404 (it was served while shown)", r.Status)
	}

	// Nothing of it reached a player.
	secretIDs := []string{hidden, offscreen, hiddenCombatant, "walk-hidden-imported", "walk-lair-imported", "walk-lair-map",
		"walk-dm-marker", "walk-hidden-marker", "walk-dm-tile", "walk-dm-drawing", "walk-dm-area",
		"walk-staged-wall", "walk-staged-door", "walk-staged-light", "walk-staged-marker", "walk-staged-drawing",
		"walk-staged-area", "walk-staged-measure", "walk-staged-tile", "#fedcba",
		"walk-new-hidden-marker", "walk-new-dm-tile", "walk-new-hidden-drawing", "secretDoor",
		"SECRET-MODULE-MAP", "SECRET-MODULE-PICTURE"}
	foeSights := append([]string{"vision-walk-foe-vision"}, walkDemoFoeSights...)
	for _, b := range bodies {
		text := string(b.reply.Body)
		walkNoSecret(t, "GET "+b.path, text, foeSights)
		if b.reply.Status == 200 {
			walkNoSecret(t, "GET "+b.path, text, secretIDs)
		}
	}
	frames := 0
	seatTokens := map[string][]string{"Ellie": {tomToken}, "Tom": {ellieToken}, "Late": {tomToken, ellieToken}}
	for _, b := range bodies {
		walkNoSecret(t, "GET "+b.path, string(b.reply.Body), []string{tomToken, ellieToken})
	}
	for who, p := range map[string]*walkSocket{"Ellie": p1, "Tom": p2, "Late": p3} {
		for _, f := range p.all() {
			frames++
			text := string(f)
			walkNoSecret(t, who+"'s frame (another player's seat token)", text, seatTokens[who])
			walkNoSecret(t, who+"'s frame", text, foeSights)
			if !strings.Contains(text, `"responseId":"probe-`) { // a refusal may repeat the id the player sent
				walkNoSecret(t, who+"'s frame", text, secretIDs)
			}
			if strings.Contains(text, `"tokenMoved"`) && strings.Contains(text, `"walk-guard"`) && strings.Contains(text, `"polygon"`) {
				t.Errorf("%s got the foe's drag with its polygon: %.300s", who, text)
			}
		}
	}
	// Players' network addresses are the game master's (the host console
	// lists them): not in GET /api/clients, not in a client event.
	for _, b := range bodies {
		if strings.Contains(string(b.reply.Body), `"address":"127.`) {
			t.Errorf("GET %s shows a client's address: %.200s", b.path, b.reply.Body)
		}
	}
	for who, p := range map[string]*walkSocket{"Ellie": p1, "Tom": p2, "Late": p3} {
		for _, f := range p.all() {
			if strings.Contains(string(f), `"address":"127.`) {
				t.Errorf("%s's frame shows a client's address: %.200s", who, f)
			}
		}
	}
	// The notes a player wrote over were not kept: the game master's are.
	var hound struct{ Notes string }
	host.Get("/host/api/entities/monsters/"+walkDemoHoundEntity, &hound)
	if hound.Notes != "SECRET-MONSTER-NOTE" {
		t.Errorf("the monster's notes after a player's write: %q, want the game master's kept", hound.Notes)
	}
	if frames < 60 || len(bodies) < 50 {
		t.Fatalf("the walk saw %d frames and %d HTTP answers: too few to mean anything", frames, len(bodies))
	}
	t.Logf("%d frames, %d HTTP answers: none carries what the game master hides", frames, len(bodies))
}

type walkBody struct {
	path  string
	reply e2e.ApiReply
}

// walkNoSecret fails when text carries "SECRET" or any of more.
func walkNoSecret(t *testing.T, what, text string, more []string) {
	t.Helper()
	for _, s := range append([]string{"SECRET"}, more...) {
		if strings.Contains(text, s) {
			i := strings.Index(text, s)
			t.Errorf("%s carries %s: ...%s...", what, s, text[max(0, i-120):min(len(text), i+80)])
			return
		}
	}
}

// walkSeatToken reads the seat token from the frame of p that contains
// marker.
func walkSeatToken(t *testing.T, p *walkSocket, marker string) string {
	t.Helper()
	for _, f := range p.all() {
		if !strings.Contains(string(f), marker) {
			continue
		}
		var env struct {
			Data struct {
				SeatToken string `json:"seatToken"`
			}
		}
		if json.Unmarshal(f, &env) == nil && len(env.Data.SeatToken) > 20 {
			return env.Data.SeatToken
		}
	}
	t.Fatalf("no seat token in a frame with %s", marker)
	return ""
}
