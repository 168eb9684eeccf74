package api

import (
	"encoding/json"
	"io"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"
	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/tests/e2e"
)

const (
	demoIlsaToken   = "5e0ca000-0000-4000-8000-000000000102" // friendly, a player character
	demoBrannoc     = "5e0ca000-0000-4000-8000-000000000101" // friendly, a player character
	demoHoundToken  = "5e0ca000-0000-4000-8000-000000000105" // hostile
	demoChapelDoor  = "5e0ca000-0000-4000-8000-000000000203"
	demoChapelMapID = "5e0ca000-0000-4000-8000-000000000400"
)

// rcClient is one browser running the real client: a WebSocket to /ws.
type rcClient struct {
	t    *testing.T
	conn *websocket.Conn
}

func rcDial(t *testing.T, s *e2e.Server) *rcClient {
	t.Helper()
	conn, _, err := websocket.DefaultDialer.Dial("ws"+strings.TrimPrefix(s.URL, "http")+"/ws", nil)
	if err != nil {
		t.Fatalf("dial /ws: %v\n%s", err, s.Output())
	}
	t.Cleanup(func() { conn.Close() })
	return &rcClient{t: t, conn: conn}
}

func (c *rcClient) send(name string, data any) {
	c.t.Helper()
	if err := c.conn.WriteJSON(map[string]any{"name": name, "data": data}); err != nil {
		c.t.Fatalf("send %s: %v", name, err)
	}
}

// next returns the next message named name, skipping the others.
func (c *rcClient) next(name string) e2e.WsMsg {
	c.t.Helper()
	deadline := time.Now().Add(e2e.WsWait)
	for {
		c.conn.SetReadDeadline(deadline)
		var m e2e.WsMsg
		if err := c.conn.ReadJSON(&m); err != nil {
			c.t.Fatalf("waiting for %s: %v", name, err)
		}
		if m.Name == name {
			return m
		}
	}
}

// nextBlock returns the next tokenMoved of token id in state block, the
// others' drags skipped (it fails on timeout when none comes).
// ping sends a ping and waits for its answer: the server handles a
// connection's frames in order, so every frame sent before it has been
// acted on, and what it changed sent, by then.
func (c *rcClient) ping() {
	c.t.Helper()
	c.send(core.RequestPing, nil)
	c.next(core.RequestPing)
}

func (c *rcClient) nextBlock(id string) map[string]any {
	c.t.Helper()
	for {
		m := obj(c.t, c.next(core.EventTokenMoved).Data)
		if m["id"] == id && (m["state"] == "block" || m["state"] == float64(3)) {
			return m
		}
	}
}

// obj decodes JSON into a generic object, as the client's JavaScript sees it.
func obj(t *testing.T, b []byte) map[string]any {
	t.Helper()
	var v map[string]any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("not a JSON object: %v: %.300s", err, b)
	}
	return v
}

func rcGetAPI(t *testing.T, s *e2e.Server) map[string]any {
	t.Helper()
	resp, err := http.Get(s.URL + "/api")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 {
		t.Fatalf("GET /api: %d %s", resp.StatusCode, b)
	}
	return obj(t, b)
}

func rcPatchSettings(t *testing.T, s *e2e.Server, body string) {
	t.Helper()
	if status := e2e.HttpJSON(t, "PATCH", s.HostURL+"/host/api/settings", body, nil); status != http.StatusOK {
		t.Fatalf("PATCH settings %s: %d", body, status)
	}
}

func TestRealClientSequence(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and starts the companion binary")
	}
	s := e2e.StartServer(t, e2e.ServerOptions{})

	// GET /api, as getData() reads it.
	api := rcGetAPI(t, s)
	build, ok := api["build"].(float64)
	if !ok || !(build == 1 || build >= 2280) {
		t.Fatalf("build %v: the client shows 'Incompatible server version' unless it is 1 or at least 2280", api["build"])
	}
	if p, ok := api["paused"].(bool); !ok || p {
		t.Fatalf("paused %v, want the bare false", api["paused"])
	}
	rcCheckScreen(t, api["screen"].(map[string]any), "all")
	rcCheckMap(t, api["map"].(map[string]any))
	rcCheckCreatures(t, api["game"].(map[string]any))
	for _, m := range api["messages"].([]any) {
		if _, ok := m.(map[string]any)["content"]; !ok {
			t.Fatalf("message without content: %v", m)
		}
	}

	// Two browsers connect to /ws; each sends clientUpdated first.
	// b dials once a has its app event: the server numbers a connection
	// after its handshake has answered, so two dials in a row could make b
	// channel 1, which the seat assignment below gives to a.
	a := rcDial(t, s)
	a.next(core.EventApp)
	b := rcDial(t, s)
	b.next(core.EventApp)
	a.send(core.EventClientUpdated, map[string]any{"name": "Ellie", "color": "#4caf50", "runMode": "normal", "device": nil, "screenWidth": 1280, "screenHeight": 800})
	b.send(core.EventClientUpdated, map[string]any{"name": "Tom", "color": "#2196f3", "runMode": "normal", "screenWidth": 800, "screenHeight": 600})
	a.next(core.EventClientUpdated)

	// An integer-state drag of a vision token: a gets integers and the
	// polygon on control and end, b (which never sent integers) names.
	for i, step := range []struct{ x, y, state int }{{245, 385, 0}, {300, 390, 1}, {320, 400, 2}} {
		a.send(core.EventTokenMoved, map[string]any{"id": demoBrannoc, "x": step.x, "y": step.y, "state": step.state})
		got := obj(t, a.next(core.EventTokenMoved).Data)
		if got["state"] != float64(step.state) || got["x"] != float64(step.x) {
			t.Fatalf("step %d: the integer sender got %v", i, got)
		}
		other := obj(t, b.next(core.EventTokenMoved).Data)
		if other["state"] != []string{"start", "control", "end"}[i] {
			t.Fatalf("step %d: the other client got state %v, want the name", i, other["state"])
		}
		poly, _ := got["polygon"].([]any)
		if step.state != 0 && len(poly) < 6 {
			t.Fatalf("step %d: no vision polygon on %v", i, got)
		}
	}
	tok := obj(t, a.next(core.EventTokenUpdated).Data)
	if sight := tok["vision"].(map[string]any)["sight"].(map[string]any); sight["x"] != float64(320) || !strings.HasPrefix(sight["key"].(string), "vision-") {
		t.Fatalf("tokenUpdated vision.sight %v", sight)
	}

	// createMessage with content, a chat line and a roll.
	a.send(core.RequestCreateMessage, map[string]any{"type": "chat", "content": "I check the ceiling."})
	msg := obj(t, a.next(core.EventMessageCreated).Data)
	if msg["content"] != "I check the ceiling." || msg["text"] != "I check the ceiling." || msg["type"] != "chat" ||
		msg["source"] != "Ellie" || msg["color"] != "#4caf50" || msg["created"] == nil {
		t.Fatalf("chat message %v", msg)
	}
	// A roll as the real client sends it: a command message, its title
	// and kind in brackets, its own id, creature and date (ignored).
	a.send(core.RequestCreateMessage, map[string]any{"id": "", "type": "command", "source": "Ellie", "color": "#4caf50",
		"creature": "", "content": "/r 1d20+5 [dagger:attack]", "created": "2026-01-02T03:04:05.000Z"})
	msg = obj(t, a.next(core.EventMessageCreated).Data)
	content, _ := msg["content"].(map[string]any)
	if msg["type"] != "roll" || content == nil || content["name"] != "dagger" || content["type"] != "attack" ||
		content["formula"] != "1d20+5" || content["result"] == nil || !strings.Contains(content["detail"].(string), "]+5") || msg["rolls"] == nil {
		t.Fatalf("roll message %v", msg)
	}

	// Pause: systemPaused carries the bare boolean.
	rcPatchSettings(t, s, `{"paused": true}`)
	if d := string(a.next(core.EventSystemPaused).Data); d != "true" {
		t.Fatalf("systemPaused data %s, want true", d)
	}
	rcPatchSettings(t, s, `{"paused": false}`)
	if d := string(a.next(core.EventSystemPaused).Data); d != "false" {
		t.Fatalf("systemPaused data %s, want false", d)
	}

	// Interaction off: the bare mode, and a refused drag snaps back with
	// block as an integer for a, as a name for b.
	rcPatchSettings(t, s, `{"remoteInteraction": false}`)
	if d := string(a.next(core.EventInteractionUpdated).Data); d != `"none"` {
		t.Fatalf("interactionUpdated data %s, want \"none\"", d)
	}
	a.send(core.EventTokenMoved, map[string]any{"id": demoBrannoc, "x": 500, "y": 500, "state": 0})
	if got := obj(t, a.next(core.EventTokenMoved).Data); got["state"] != float64(3) || got["x"] != float64(320) {
		t.Fatalf("refused drag answered %v, want state 3 at the committed 320", got)
	}
	b.send(core.EventTokenMoved, map[string]any{"id": demoBrannoc, "x": 500, "y": 500, "state": "start"})
	if got := b.nextBlock(demoBrannoc); got["state"] != "block" {
		t.Fatalf("refused drag answered %v to the name sender", got)
	}
	rcCheckScreen(t, rcGetAPI(t, s)["screen"].(map[string]any), "none")

	// Token mode: a player drags the token of the seat they hold (the
	// Encounter+ client knows nothing of seats: the game master gives it
	// one from the host console); hostiles are the game master's.
	rcPatchSettings(t, s, `{"interaction": "token"}`)
	if d := string(b.next(core.EventInteractionUpdated).Data); d != `"token"` {
		t.Fatalf("interactionUpdated data %s", d)
	}
	b.send(core.EventTokenMoved, map[string]any{"id": demoIlsaToken, "x": 10, "y": 10, "state": "start"})
	if got := b.nextBlock(demoIlsaToken); got["state"] != "block" {
		t.Fatalf("token mode let a client without a seat drag a character: %v", got)
	}
	if status := e2e.HttpJSON(t, "POST", s.HostURL+"/host/api/seats/"+e2e.DemoIlsaChar+"/assign", `{"channel": 1}`, nil); status != http.StatusOK {
		t.Fatalf("assigning Ilsa's seat to Ellie: %d", status)
	}
	a.next(core.EventSeatChanged)
	a.send(core.EventTokenMoved, map[string]any{"id": demoIlsaToken, "x": 400, "y": 300, "state": 0})
	if got := obj(t, a.next(core.EventTokenMoved).Data); got["state"] != float64(0) {
		t.Fatalf("token mode refused a's first player token: %v", got)
	}
	a.send(core.EventTokenMoved, map[string]any{"id": demoIlsaToken, "x": 400, "y": 300, "state": 2})
	a.next(core.EventTokenUpdated)
	b.send(core.EventTokenMoved, map[string]any{"id": demoIlsaToken, "x": 10, "y": 10, "state": "start"})
	if got := b.nextBlock(demoIlsaToken); got["state"] != "block" || got["x"] != float64(400) {
		t.Fatalf("b dragging a's character answered %v, want block at 400", got)
	}
	b.send(core.EventTokenMoved, map[string]any{"id": demoHoundToken, "x": 10, "y": 10, "state": "start"})
	if got := b.nextBlock(demoHoundToken); got["state"] != "block" {
		t.Fatalf("b dragging a hostile token in token mode answered %v", got)
	}

	// A door: lineOfSightUpdated is an array of sights.
	a.send(core.RequestUpdateDoor, map[string]any{"mapId": demoChapelMapID, "id": demoChapelDoor, "state": "open"})
	var sights []map[string]any
	if err := json.Unmarshal(a.next(core.EventLineOfSightUpdated).Data, &sights); err != nil || len(sights) == 0 {
		t.Fatalf("lineOfSightUpdated is not a non-empty array: %v", err)
	}
	foes := rcFoeVisionKeys(api["map"].(map[string]any))
	if len(foes) == 0 {
		t.Fatal("the demo map has no foe with vision; this test needs one")
	}
	for _, sg := range sights {
		key, _ := sg["key"].(string)
		if !strings.HasPrefix(key, "vision-") && !strings.HasPrefix(key, "light-") || sg["polygon"] == nil {
			t.Fatalf("sight %v", sg)
		}
		if foes[key] {
			t.Fatalf("lineOfSightUpdated carries a foe's sight %s: the client would light what it sees", key)
		}
	}

	// The reference the API hands out opens the entity page.
	for _, path := range []string{"/monster/cinder-hound", "/monster.cinder-hound"} {
		resp, err := http.Get(s.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != 200 {
			t.Fatalf("%s: %d", path, resp.StatusCode)
		}
	}
}

// rcFoeVisionKeys are the sight keys of the map's hostile and neutral
// tokens with vision.
func rcFoeVisionKeys(m map[string]any) map[string]bool {
	keys := map[string]bool{}
	for _, raw := range m["tokens"].([]any) {
		tok := raw.(map[string]any)
		if v, _ := tok["vision"].(map[string]any); v != nil && tok["role"] != "friendly" && tok["player"] != true {
			keys["vision-"+v["id"].(string)] = true
		}
	}
	return keys
}

func rcCheckScreen(t *testing.T, screen map[string]any, mode string) {
	t.Helper()
	if screen["interaction"] != mode || screen["remoteInteraction"] != (mode != "none") || screen["sharedVision"] != "always" {
		t.Fatalf("screen %v, want interaction %s", screen, mode)
	}
	for _, k := range []string{"overlayImage", "overlayHandoutText", "overlayHandoutStyle", "width", "height", "tableTopMode", "scrollLock"} {
		if _, ok := screen[k]; !ok {
			t.Fatalf("screen has no %s: %v", k, screen)
		}
	}
}

func rcCheckMap(t *testing.T, m map[string]any) {
	t.Helper()
	// The client centres its view on x/zoom + width/2: the demo map opens
	// centred, so x and y are 0.
	if m["x"] != float64(0) || m["y"] != float64(0) {
		t.Fatalf("map x, y = %v, %v, want the viewport offset 0, 0", m["x"], m["y"])
	}
	if m["lineOfSight"] != true {
		t.Fatal("the demo map has line of sight off; this test needs it on")
	}
	for _, raw := range m["tokens"].([]any) {
		tok := raw.(map[string]any)
		if tok["size"] != "M" {
			t.Fatalf("token %s size %v", tok["name"], tok["size"])
		}
		if _, linked := tok["bloodied"]; !linked {
			t.Fatalf("demo token %s is linked to a combatant but has no bloodied", tok["name"])
		}
		_, hasHealth := tok["health"]
		if hostile := tok["role"] == "hostile"; hostile == hasHealth {
			t.Fatalf("token %s (%s) health present=%v: friendly tokens give it, hostile ones never", tok["name"], tok["role"], hasHealth)
		}
		v, _ := tok["vision"].(map[string]any)
		if v == nil {
			continue
		}
		// The client draws every sight it gets: players get the party's
		// alone, never what a foe sees.
		if tok["role"] != "friendly" && tok["player"] != true {
			if v["sight"] != nil {
				t.Fatalf("foe %s carries its sight to players: %v", tok["name"], v["sight"])
			}
			continue
		}
		sight, _ := v["sight"].(map[string]any)
		if sight == nil || sight["key"] != "vision-"+v["id"].(string) || sight["x"] != tok["x"] || len(sight["polygon"].([]any)) < 6 {
			t.Fatalf("token %s vision.sight %v", tok["name"], v["sight"])
		}
	}
	for _, raw := range m["lights"].([]any) {
		l := raw.(map[string]any)
		if sight, _ := l["sight"].(map[string]any); l["enabled"] == true && (sight == nil || sight["key"] != "light-"+l["id"].(string)) {
			t.Fatalf("light %v has no sight", l)
		}
	}
}

func rcCheckCreatures(t *testing.T, game map[string]any) {
	t.Helper()
	rows, _ := game["creatures"].([]any)
	if len(rows) != 5 || len(game["combatants"].([]any)) != 5 {
		t.Fatalf("game.creatures %v beside %d combatants", game["creatures"], len(game["combatants"].([]any)))
	}
	last := 0.0
	for i, raw := range rows {
		c := raw.(map[string]any)
		for _, k := range []string{"id", "uid", "type", "name", "role", "rank", "initiative", "health", "hitpoints", "bloodied", "dead", "hidden", "tokenId", "image", "player"} {
			if _, ok := c[k]; !ok {
				t.Fatalf("creature %d has no %s: %v", i, k, c)
			}
		}
		if rank := c["rank"].(float64); rank <= last {
			t.Fatalf("creatures not in turn order at %d: %v", i, c)
		} else {
			last = rank
		}
		if _, ok := c["initiative"].(float64); !ok {
			t.Fatalf("initiative %v is not a number", c["initiative"])
		}
		if c["role"] == "hostile" && (c["health"] != nil || c["hitpoints"] != nil) {
			t.Fatalf("a hostile creature's hit points reached players: %v", c)
		}
		if c["role"] == "friendly" && c["health"] == nil {
			t.Fatalf("a friendly creature has no health: %v", c)
		}
	}
	if first := rows[0].(map[string]any); first["name"] != "Ilsa Reedwhisper" || first["initiative"] != float64(19) {
		t.Fatalf("first creature %v, want Ilsa at 19", first)
	}
}

// rcDialAs is rcDial for a browser that sends cookie with its handshake.
func rcDialAs(t *testing.T, s *e2e.Server, cookie *http.Cookie) *rcClient {
	t.Helper()
	h := http.Header{}
	h.Set("Cookie", cookie.String())
	conn, _, err := websocket.DefaultDialer.Dial("ws"+strings.TrimPrefix(s.URL, "http")+"/ws", h)
	if err != nil {
		t.Fatalf("dial /ws: %v\n%s", err, s.Output())
	}
	t.Cleanup(func() { conn.Close() })
	return &rcClient{t: t, conn: conn}
}

// rcClientCookie is the installed-client cookie that GET /client/ sets.
func rcClientCookie(t *testing.T, s *e2e.Server) *http.Cookie {
	t.Helper()
	resp, err := http.Get(s.URL + "/client/")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	for _, c := range resp.Cookies() {
		if c.Name == "companion_client" {
			return c
		}
	}
	t.Fatalf("GET /client/ set no companion_client cookie: %v", resp.Header["Set-Cookie"])
	return nil
}

// What the real client's source shows and its trial needs: a page of the
// installed client that has never dragged reads others' drags as the
// client's integers (it compares them with its ControlState numbers, and a
// name leaves the token marked as controlled, refusing its own drags); a
// drag ended for everyone, and the end of a refused integer drag, reach it
// as end at the committed position (block would leave it so marked too);
// the colour it makes up for itself may have fewer than six digits.
func TestRealClientInstalledPagesReadIntegers(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and starts the companion binary")
	}
	s := e2e.StartServer(t, e2e.ServerOptions{})
	builtIn := rcClientCookie(t, s)
	if builtIn.Value != "" || builtIn.MaxAge >= 0 {
		t.Fatalf("the built-in client's page should clear the cookie: %+v", builtIn)
	}
	zipPath := t.TempDir() + "/web-client.zip"
	if err := os.WriteFile(zipPath, fakeWebClient(t, "1.0.0"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, out, errOut := e2e.ImportRun(t, "client", "install", "--host-addr", strings.TrimPrefix(s.HostURL, "http://"), zipPath); code != 0 {
		t.Fatalf("client install: %d %s %s", code, out, errOut)
	}
	cookie := rcClientCookie(t, s)
	if len(cookie.Value) != 24 || cookie.Path != "/ws" || !cookie.HttpOnly {
		t.Fatalf("installed client's cookie %+v", cookie)
	}
	if again := rcClientCookie(t, s); again.Value != cookie.Value {
		t.Fatalf("the installed client's mark changed between two loads: %q, %q", cookie.Value, again.Value)
	}

	watcher := rcDialAs(t, s, cookie)
	dragger := rcDial(t, s) // a contract client: names
	watcher.next(core.EventApp)
	dragger.next(core.EventApp)
	watcher.send(core.EventClientUpdated, map[string]any{"name": "Ellie", "color": "#a3f1", "runMode": "normal", "device": nil, "screenWidth": 1280, "screenHeight": 800})
	var cl core.Client
	if err := json.Unmarshal(watcher.next(core.EventClientUpdated).Data, &cl); err != nil || cl.Color != "#00a3f1" || cl.Name != "Ellie" {
		t.Fatalf("clientUpdated with the client's own colour #a3f1 registered %+v (%v)", cl, err)
	}

	for i, state := range []string{"start", "control", "end"} {
		dragger.send(core.EventTokenMoved, map[string]any{"id": demoBrannoc, "x": 300 + i*10, "y": 390, "state": state})
		if got := obj(t, dragger.next(core.EventTokenMoved).Data); got["state"] != state {
			t.Fatalf("the name sender got %v", got)
		}
		if got := obj(t, watcher.next(core.EventTokenMoved).Data); got["state"] != float64(i) {
			t.Fatalf("%s reached the installed client's page as %v, want %d", state, got["state"], i)
		}
	}

	// A drag the mode switch ends: block for the name sender, end where
	// the token goes back to for the installed client's page.
	dragger.send(core.EventTokenMoved, map[string]any{"id": demoBrannoc, "x": 200, "y": 390, "state": "start"})
	dragger.next(core.EventTokenMoved)
	if got := obj(t, watcher.next(core.EventTokenMoved).Data); got["state"] != float64(0) {
		t.Fatalf("start reached the installed client's page as %v", got)
	}
	rcPatchSettings(t, s, `{"interaction": "none"}`)
	if got := dragger.nextBlock(demoBrannoc); got["x"] != float64(320) {
		t.Fatalf("the ended drag reached its dragger as %v, want block at the committed 320", got)
	}
	if got := obj(t, watcher.next(core.EventTokenMoved).Data); got["state"] != float64(2) || got["x"] != float64(320) {
		t.Fatalf("the ended drag reached the installed client's page as %v, want end (2) at the committed 320", got)
	}

	// A refused drag: block while it lasts, end (not block) for its end.
	watcher.send(core.EventTokenMoved, map[string]any{"id": demoBrannoc, "x": 600, "y": 600, "state": 0})
	if got := watcher.nextBlock(demoBrannoc); got["x"] != float64(320) {
		t.Fatalf("refused start answered %v, want block at the committed 320", got)
	}
	watcher.send(core.EventTokenMoved, map[string]any{"id": demoBrannoc, "x": 610, "y": 600, "state": 2})
	if got := obj(t, watcher.next(core.EventTokenMoved).Data); got["state"] != float64(2) || got["x"] != float64(320) {
		t.Fatalf("refused end answered %v, want end (2) at the committed 320", got)
	}
	dragger.send(core.EventTokenMoved, map[string]any{"id": demoBrannoc, "x": 600, "y": 600, "state": "end"})
	if got := dragger.nextBlock(demoBrannoc); got["state"] != "block" {
		t.Fatalf("a contract client's refused end answered %v, want block", got)
	}

	// Removing the client clears the mark on the next page load.
	if code, out, errOut := e2e.ImportRun(t, "client", "remove", "--host-addr", strings.TrimPrefix(s.HostURL, "http://")); code != 0 {
		t.Fatalf("client remove: %d %s %s", code, out, errOut)
	}
	if c := rcClientCookie(t, s); c.Value != "" || c.MaxAge >= 0 {
		t.Fatalf("after removal the page should clear the cookie: %+v", c)
	}
	// A browser that kept the old cookie (the built-in page came from its
	// cache), or one made up, gets names: the cookie must name the client
	// installed now.
	rcPatchSettings(t, s, `{"interaction": "all"}`)
	for _, stale := range []*http.Cookie{cookie, {Name: cookie.Name, Value: "installed"}} {
		page := rcDialAs(t, s, stale)
		page.next(core.EventApp)
		dragger.send(core.EventTokenMoved, map[string]any{"id": demoBrannoc, "x": 330, "y": 390, "state": "start"})
		if got := obj(t, page.next(core.EventTokenMoved).Data); got["state"] != "start" {
			t.Fatalf("cookie %q: the built-in client's page got state %v, want the name", stale.Value, got["state"])
		}
		dragger.send(core.EventTokenMoved, map[string]any{"id": demoBrannoc, "x": 330, "y": 390, "state": "end"})
		page.next(core.EventTokenMoved)
	}
}

// A pause stops players' drags for every client, as the real client makes
// its tokens inert while paused (and so does ours): a drag the real client
// starts anyway (it re-reads the pause only on some events) gets block with
// the committed position, and after resuming the same drag goes through.
func TestRealClientDragWhilePausedIsRefused(t *testing.T) {
	s := e2e.StartServer(t, e2e.ServerOptions{})
	a := rcDial(t, s)
	a.next(core.EventApp)
	a.send(core.EventClientUpdated, map[string]any{"name": "Ellie", "color": "#4caf50", "runMode": "normal", "screenWidth": 1280, "screenHeight": 800})
	rcPatchSettings(t, s, `{"paused": true}`)
	a.send(core.EventTokenMoved, map[string]any{"id": demoBrannoc, "x": 245, "y": 385, "state": 0})
	if got := a.nextBlock(demoBrannoc); got["x"] != float64(245) || got["y"] != float64(385) {
		t.Fatalf("a drag start while paused: %v, want block at the committed 245, 385", got)
	}
	a.send(core.EventTokenMoved, map[string]any{"id": demoBrannoc, "x": 320, "y": 400, "state": 2})
	a.ping() // the end, had it been taken, is committed by now
	if tok := rcToken(t, s, demoBrannoc); tok["x"] != float64(245) {
		t.Fatalf("a paused drag moved Brannoc to %v", tok["x"])
	}
	rcPatchSettings(t, s, `{"paused": false}`)
	for _, step := range []struct{ x, y, state int }{{245, 385, 0}, {320, 400, 2}} {
		a.send(core.EventTokenMoved, map[string]any{"id": demoBrannoc, "x": step.x, "y": step.y, "state": step.state})
	}
	a.next(core.EventTokenUpdated)
	if tok := rcToken(t, s, demoBrannoc); tok["x"] != float64(320) {
		t.Fatalf("after resuming, the drag left Brannoc at %v, want 320", tok["x"])
	}
}

// rcToken is a token of the map on the player screen, from GET /api.
func rcToken(t *testing.T, s *e2e.Server, id string) map[string]any {
	t.Helper()
	for _, tok := range rcGetAPI(t, s)["map"].(map[string]any)["tokens"].([]any) {
		if m := tok.(map[string]any); m["id"] == id {
			return m
		}
	}
	t.Fatalf("no token %s on the player screen", id)
	return nil
}
