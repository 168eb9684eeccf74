package routes

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"
	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/dice"
	"github.com/vttapp/companion/hub"
	"github.com/vttapp/companion/internal/testkit"
)

// seatEnv is the public handler with its hub at hand (kicks, seats given
// by the game master).
type seatEnv struct {
	*testEnv
	hub *hub.Hub
}

func newSeatEnv(t *testing.T) *seatEnv {
	t.Helper()
	g := testkit.NewGame(t, testkit.GameOptions{Roller: dice.NewSeededRoller(23)})
	live := hub.New(g.Service, g.Bus, g.Log, hub.Options{})
	srv := httptest.NewServer(NewPublicHandler(Config{Service: g.Service, Hub: live, Systems: g.Holder, DataDir: g.DataDir, Log: g.Log}))
	t.Cleanup(func() { live.Close(); srv.Close() })
	return &seatEnv{testEnv: &testEnv{srv: srv, svc: g.Service, store: g.Store, events: g.Events, dataDir: g.DataDir, logs: g.Logs, holder: g.Holder}, hub: live}
}

// dial opens a WebSocket with headers (pairs), or returns the refusal.
func (e *seatEnv) dial(t *testing.T, path string, headers ...string) (*websocket.Conn, *http.Response, error) {
	t.Helper()
	h := http.Header{}
	for i := 0; i+1 < len(headers); i += 2 {
		h.Set(headers[i], headers[i+1])
	}
	ws, resp, err := websocket.DefaultDialer.Dial("ws"+strings.TrimPrefix(e.srv.URL, "http")+path, h)
	if err == nil {
		t.Cleanup(func() { ws.Close() })
	}
	return ws, resp, err
}

// request sends one envelope and returns the answer to it (its error
// envelope included), skipping broadcasts.
func request(t *testing.T, ws *websocket.Conn, name string, data any) (string, map[string]any) {
	t.Helper()
	id := name + "-" + time.Now().Format("150405.000000000")
	if err := ws.WriteJSON(map[string]any{"name": name, "data": data, "requestId": id}); err != nil {
		t.Fatal(err)
	}
	for {
		ws.SetReadDeadline(time.Now().Add(10 * time.Second))
		var env struct {
			Name       string          `json:"name"`
			Data       json.RawMessage `json:"data"`
			ResponseID string          `json:"responseId"`
		}
		if err := ws.ReadJSON(&env); err != nil {
			t.Fatalf("waiting for the answer to %s: %v", name, err)
		}
		if env.ResponseID == id {
			var v map[string]any
			json.Unmarshal(env.Data, &v)
			return env.Name, v
		}
	}
}

// closedWith waits for the server to close ws and returns the code.
func closedWith(t *testing.T, ws *websocket.Conn) int {
	t.Helper()
	ws.SetReadDeadline(time.Now().Add(10 * time.Second))
	for {
		_, _, err := ws.ReadMessage()
		if err == nil {
			continue
		}
		var ce *websocket.CloseError
		if errors.As(err, &ce) {
			return ce.Code
		}
		t.Fatalf("the connection ended without a close code: %v", err)
	}
}

func cookieOf(t *testing.T, r reply, name string) *http.Cookie {
	t.Helper()
	for _, c := range (&http.Response{Header: r.header}).Cookies() {
		if c.Name == name {
			if !c.HttpOnly || c.SameSite != http.SameSiteLaxMode || c.Path != "/" {
				t.Fatalf("cookie %s is not HttpOnly, SameSite=Lax on /: %+v", name, c)
			}
			return c
		}
	}
	t.Fatalf("no %s cookie in %v", name, r.header)
	return nil
}

// TestJoinKeyOverHTTP: with the key off the contract holds; with it on
// every path but health and the icon wants the key; a page gets the ask
// page, the API 401 {"message"}; a link's key becomes a pass cookie.
func TestJoinKeyOverHTTP(t *testing.T) {
	e := newSeatEnv(t)
	ctx := context.Background()
	if r := e.do(t, "GET", "/api", ""); r.status != 200 {
		t.Fatalf("key off, GET /api: %d", r.status)
	}
	st, err := e.svc.SetJoinKey(ctx, true)
	if err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{"/api", "/api/seats", "/api/system", "/api/monsters", "/api/me", "/campaigns/x.png", "/monster/goblin"} {
		wantError(t, e.do(t, "GET", path, ""), http.StatusUnauthorized, "ask the game master for the link")
	}
	wantError(t, e.do(t, "POST", "/api/messages", `{"text":"hi"}`), http.StatusUnauthorized, "join key")
	wantError(t, e.do(t, "GET", "/api?key=wrong", ""), http.StatusUnauthorized, "no longer valid")
	wantError(t, e.do(t, "GET", "/api", "", "X-Companion-Key", st.SpectatorKey+"x"), http.StatusUnauthorized, "no longer valid")
	for _, path := range []string{"/", "/index.html", "/client/", "/monster/goblin"} {
		r := e.do(t, "GET", path, "", "Accept", "text/html,*/*")
		if r.status != http.StatusUnauthorized || !strings.Contains(string(r.body), "Ask the game master for the link") ||
			!strings.HasPrefix(r.header.Get("Content-Type"), "text/html") || strings.Contains(string(r.body), st.Key) {
			t.Fatalf("GET %s without the key: %d %s\n%.300s", path, r.status, r.header.Get("Content-Type"), r.body)
		}
	}
	for _, path := range []string{"/api/-/live", "/icon.png"} {
		if r := e.do(t, "GET", path, ""); r.status != 200 {
			t.Fatalf("%s needs no key: %d", path, r.status)
		}
	}
	if r := e.do(t, "GET", "/api", "", "X-Companion-Key", st.Key); r.status != 200 {
		t.Fatalf("the key as a header: %d", r.status)
	}
	if r := e.do(t, "GET", "/api?key="+st.Key, ""); r.status != 200 {
		t.Fatalf("the key as a query parameter: %d", r.status)
	}

	// A link: the key becomes this browser's pass, and leaves the URL.
	r := e.do(t, "GET", "/client/?runMode=tv&key="+url.QueryEscape(st.Key), "")
	if r.status != http.StatusSeeOther || r.header.Get("Location") != "/client/?runMode=tv" {
		t.Fatalf("a link with the key: %d to %q", r.status, r.header.Get("Location"))
	}
	pass := cookieOf(t, r, "companion_pass")
	if strings.Contains(pass.Value, st.Key) {
		t.Fatal("the pass is the key")
	}
	withPass := []string{"Cookie", "companion_pass=" + pass.Value}
	if r := e.do(t, "GET", "/api", "", withPass...); r.status != 200 {
		t.Fatalf("the pass on the API: %d", r.status)
	}
	landing := e.do(t, "GET", "/", "", withPass...)
	if landing.status != 200 || !strings.Contains(string(landing.body), "key="+st.Key) || !strings.Contains(string(landing.body), "key="+st.SpectatorKey) {
		t.Fatalf("the landing page for a player with a pass: %d\n%s", landing.status, landing.body)
	}

	// The WebSocket: refused without the key, admitted with the pass or the key.
	_, resp, err := e.dial(t, "/ws")
	if err == nil || resp == nil || resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("an upgrade without the key: %v %v", err, resp)
	}
	if _, _, err := e.dial(t, "/ws", withPass...); err != nil {
		t.Fatalf("an upgrade with the pass: %v", err)
	}
	if _, _, err := e.dial(t, "/ws?key="+url.QueryEscape(st.Key)); err != nil {
		t.Fatalf("an upgrade with the key: %v", err)
	}

	// The spectators' key: reads, never writes; its landing page shows
	// the spectators' link only.
	spec := []string{"X-Companion-Key", st.SpectatorKey}
	if r := e.do(t, "GET", "/api", "", spec...); r.status != 200 {
		t.Fatalf("a spectator reads: %d", r.status)
	}
	wantError(t, e.do(t, "POST", "/api/messages", `{"text":"hi [[1d20]]"}`, spec...), http.StatusForbidden, "spectator cannot chat")
	wantError(t, e.do(t, "PATCH", "/api/monsters/"+goblinID, `{"notes":"x"}`, spec...), http.StatusForbidden, "spectator")
	wantError(t, e.do(t, "PATCH", "/api/tokens/"+tokenA, `{"x":1}`, spec...), http.StatusForbidden, "spectator")
	wantError(t, e.do(t, "POST", "/api/seats/"+heroID+"/take", `{"player":"x"}`, spec...), http.StatusForbidden, "spectator cannot take a seat")
	if r := e.do(t, "POST", "/api/import", `{"url":"https://example.com/a.module"}`, spec...); r.status != http.StatusForbidden || !strings.Contains(string(r.body), `"error"`) {
		t.Fatalf("a spectator's import offer: %d %s", r.status, r.body)
	}
	specLanding := e.do(t, "GET", "/", "", spec...)
	if !strings.Contains(string(specLanding.body), "key="+st.SpectatorKey) || strings.Contains(string(specLanding.body), st.Key) {
		t.Fatalf("a spectator's landing page:\n%s", specLanding.body)
	}

	// New keys: the old pass and key are refused.
	if _, err := e.svc.NewJoinKeys(ctx); err != nil {
		t.Fatal(err)
	}
	wantError(t, e.do(t, "GET", "/api", "", withPass...), http.StatusUnauthorized, "no longer valid")
	wantError(t, e.do(t, "GET", "/api?key="+st.Key, ""), http.StatusUnauthorized, "no longer valid")
	if strings.Contains(e.logs.String(), st.Key) || strings.Contains(e.logs.String(), pass.Value) {
		t.Fatal("a key or a pass reached the log")
	}
}

// TestSeatsOverHTTP: the seat list, taking a seat, the sheet and its
// actions, and every refusal of the seat API.
func TestSeatsOverHTTP(t *testing.T) {
	e := newSeatEnv(t)
	seats := e.do(t, "GET", "/api/seats", "").json(t)["seats"].([]any)
	if len(seats) != 1 || seats[0].(map[string]any)["name"] != "Hero" || seats[0].(map[string]any)["taken"] != false {
		t.Fatalf("seats %v", seats)
	}
	if me := e.do(t, "GET", "/api/me", "").json(t); me["role"] != "player" || me["seat"] != nil || me["joinKey"] != false {
		t.Fatalf("me without a seat: %v", me)
	}
	wantError(t, e.do(t, "POST", "/api/me/hitpoints", `{"damage":1}`), http.StatusForbidden, "take a seat first")
	wantError(t, e.do(t, "POST", "/api/seats/"+goblinID+"/take", `{}`), http.StatusNotFound, "no seat")

	taken := e.do(t, "POST", "/api/seats/"+heroID+"/take", `{"player":"Ann"}`).json(t)
	token, _ := taken["seatToken"].(string)
	if len(token) < 40 {
		t.Fatalf("take: %v", taken)
	}
	wantError(t, e.do(t, "POST", "/api/seats/"+heroID+"/take", `{"player":"Bob"}`), http.StatusConflict, "taken by Ann")
	if seats := e.do(t, "GET", "/api/seats", "").body; !strings.Contains(string(seats), `"player":"Ann"`) || strings.Contains(string(seats), token) {
		t.Fatalf("the seat list after: %s", seats)
	}
	seat := []string{"X-Companion-Seat", token}
	if me := e.do(t, "GET", "/api/me", "", seat...).json(t); me["seat"].(map[string]any)["id"] != heroID {
		t.Fatalf("me: %v", me)
	}
	hp := e.do(t, "POST", "/api/me/hitpoints", `{"damage":5}`, seat...).json(t)
	if hp["current"] != 25.0 || hp["temp"] != 0.0 {
		t.Fatalf("5 damage: %v", hp)
	}
	wantError(t, e.do(t, "POST", "/api/me/hitpoints", `{"damage":5,"healing":1}`, seat...), http.StatusBadRequest, "give one of")
	sheet := e.do(t, "GET", "/api/me/character", "", seat...).json(t)
	if sheet["seat"].(map[string]any)["id"] != heroID || sheet["hitPoints"].(map[string]any)["current"] != 25.0 {
		t.Fatalf("sheet %v", sheet)
	}
	rolled := e.do(t, "POST", "/api/me/actions/check-str", `{"options":["advantage"]}`, seat...)
	msgs, _ := rolled.json(t)["messages"].([]any)
	if len(msgs) == 0 {
		t.Fatalf("an action: %d %s", rolled.status, rolled.body)
	}
	content := msgs[0].(map[string]any)["content"].(map[string]any)
	if len(msgs) != 1 || content["type"] != "check" || content["name"] != "Strength check (advantage)" || content["formula"] != "2d20kh1" {
		t.Fatalf("an action: %s", rolled.body)
	}
	wantError(t, e.do(t, "POST", "/api/me/actions/nope", ``, seat...), http.StatusNotFound, "no action")
	wantError(t, e.do(t, "PATCH", "/api/me/character", `{"data":{"strength":20}}`, seat...), http.StatusForbidden, "may not change 'strength'")
	wantError(t, e.do(t, "PATCH", "/api/me/character", `{"name":"Zed"}`, seat...), http.StatusForbidden, "only the data")
	wantError(t, e.do(t, "PATCH", "/api/me/character", `{"data":{"hit_points":99}}`, seat...), http.StatusForbidden, "damage, healing")
	if r := e.do(t, "PATCH", "/api/me/character", `{"data":{"max_hit_points":40}}`, seat...); r.status != 200 {
		t.Fatalf("an editable field: %d %s", r.status, r.body)
	}
	wantError(t, e.do(t, "POST", "/api/me/end-turn", ``, seat...), http.StatusConflict, "not Hero's turn")

	// A seat link keeps the token in a cookie for a browser that cannot.
	link := e.do(t, "GET", "/client/?seat="+url.QueryEscape(token), "")
	if link.status != http.StatusSeeOther || link.header.Get("Location") != "/client/" {
		t.Fatalf("a seat link: %d %q", link.status, link.header.Get("Location"))
	}
	c := cookieOf(t, link, "companion_seat")
	if me := e.do(t, "GET", "/api/me", "", "Cookie", "companion_seat="+c.Value).json(t); me["seat"] == nil {
		t.Fatalf("the seat cookie: %v", me)
	}
	if r := e.do(t, "POST", "/api/me/leave", ``, seat...); r.status != http.StatusNoContent {
		t.Fatalf("leave: %d", r.status)
	}
	wantError(t, e.do(t, "POST", "/api/me/hitpoints", `{"healing":1}`, seat...), http.StatusForbidden, "seat was freed")
}

// TestSpectatorAndKickOverWebSocket: a spectator is refused every change
// on the socket; a kicked client is closed, loses its seat and, with the
// join key on, cannot come back through its old link while the others
// stay; new keys drop everyone.
func TestSpectatorAndKickOverWebSocket(t *testing.T) {
	e := newSeatEnv(t)
	ctx := context.Background()
	a, _, err := e.dial(t, "/ws")
	if err != nil {
		t.Fatal(err)
	}
	request(t, a, "clientUpdated", map[string]any{"name": "Ann"})
	if name, v := request(t, a, "setRole", map[string]any{"role": "spectator"}); name != "setRole" || v["role"] != "spectator" {
		t.Fatalf("setRole: %s %v", name, v)
	}
	if name, v := request(t, a, "tokenMoved", map[string]any{"id": tokenA, "x": 5, "y": 5, "state": "start"}); name != "tokenMoved" || v["state"] != "block" {
		t.Fatalf("a spectator's drag: %s %v", name, v)
	}
	for _, probe := range []struct {
		name string
		data any
	}{
		{"createMessage", map[string]any{"text": "hello"}},
		{"createMessage", map[string]any{"text": "/r 1d20"}},
		{"updateToken", map[string]any{"id": tokenA, "x": 9}},
		{"updateEntity", map[string]any{"id": goblinID, "notes": "x"}},
		{"pointerUpdated", map[string]any{"id": "p", "x": 1, "y": 1}},
		{"takeSeat", map[string]any{"seatId": heroID}},
		{"rollAction", map[string]any{"action": "check-str"}},
		{"updateDoor", map[string]any{"id": "door", "state": "open"}},
	} {
		if name, v := request(t, a, probe.name, probe.data); name != "error" || v["kind"] != "forbidden" {
			t.Fatalf("a spectator's %s: %s %v", probe.name, name, v)
		}
	}
	request(t, a, "setRole", map[string]any{"role": "player"})
	if name, _ := request(t, a, "createMessage", map[string]any{"text": "back"}); name != "createMessage" {
		t.Fatalf("a player again could not chat: %s", name)
	}
	// The game master makes it a spectator: it cannot undo that.
	channel := e.hub.HostClients()[0].Channel
	if err := e.hub.SetSpectator(ctx, channel, true); err != nil {
		t.Fatal(err)
	}
	if name, v := request(t, a, "setRole", map[string]any{"role": "player"}); name != "error" || v["kind"] != "forbidden" {
		t.Fatalf("undoing the game master's spectator: %s %v", name, v)
	}
	e.hub.SetSpectator(ctx, channel, false)

	// Kick, key off: closed, seat freed; the client may come back, seatless.
	_, taken := request(t, a, "takeSeat", map[string]any{"seatId": heroID, "player": "Ann"})
	token := taken["seatToken"].(string)
	kicked, err := e.hub.Kick(ctx, channel)
	if err != nil || kicked.Closed != 1 || kicked.NewKeys {
		t.Fatalf("kick: %+v %v", kicked, err)
	}
	if code := closedWith(t, a); code != hub.CloseKicked {
		t.Fatalf("closed with %d, want %d", code, hub.CloseKicked)
	}
	if _, err := e.svc.ResumeSeat(ctx, core.Actor{}, token); !core.IsNotFound(err) {
		t.Fatalf("a kicked client's seat token still holds the seat: %v", err)
	}

	// Key on: two devices with passes; kick one.
	st, _ := e.svc.SetJoinKey(ctx, true)
	passOf := func() string {
		return cookieOf(t, e.do(t, "GET", "/client/?key="+url.QueryEscape(st.Key), ""), "companion_pass").Value
	}
	passB, passC := passOf(), passOf()
	b, _, err := e.dial(t, "/ws", "Cookie", "companion_pass="+passB)
	if err != nil {
		t.Fatal(err)
	}
	c, _, err := e.dial(t, "/ws", "Cookie", "companion_pass="+passC)
	if err != nil {
		t.Fatal(err)
	}
	request(t, b, "clientUpdated", map[string]any{"name": "Bob"})
	request(t, c, "clientUpdated", map[string]any{"name": "Cy"})
	var bChannel int
	for _, cl := range e.hub.HostClients() {
		if cl.Name == "Bob" {
			bChannel = cl.Channel
		}
	}
	kicked, err = e.hub.Kick(ctx, bChannel)
	if err != nil || !kicked.NewKeys {
		t.Fatalf("kick with the key on: %+v %v", kicked, err)
	}
	if code := closedWith(t, b); code != hub.CloseKicked {
		t.Fatalf("b closed with %d", code)
	}
	// b's old link and pass open nothing, over HTTP and WebSocket.
	wantError(t, e.do(t, "GET", "/api", "", "Cookie", "companion_pass="+passB), http.StatusUnauthorized, "no longer valid")
	if r := e.do(t, "GET", "/client/?key="+url.QueryEscape(st.Key), "", "Accept", "text/html"); r.status != http.StatusUnauthorized {
		t.Fatalf("the kicked client's old link: %d", r.status)
	}
	for _, h := range [][]string{{"Cookie", "companion_pass=" + passB}, {"X-Companion-Key", st.Key}} {
		if _, resp, err := e.dial(t, "/ws", h...); err == nil || resp.StatusCode != http.StatusUnauthorized {
			t.Fatalf("the kicked client came back over the socket with %s", h[0])
		}
	}
	// c stays, with its pass.
	if name, _ := request(t, c, "createMessage", map[string]any{"text": "still here"}); name != "createMessage" {
		t.Fatalf("the other device was dropped: %s", name)
	}
	if r := e.do(t, "GET", "/api", "", "Cookie", "companion_pass="+passC); r.status != 200 {
		t.Fatalf("the other device's pass: %d", r.status)
	}
	// New keys on purpose: c is dropped.
	if _, err := e.svc.NewJoinKeys(ctx); err != nil {
		t.Fatal(err)
	}
	if code := closedWith(t, c); code != hub.CloseJoinKeyChanged {
		t.Fatalf("c closed with %d after new keys", code)
	}
}

// TestKickOfAReconnectedDevice: a phone whose connection dropped comes back
// on a new channel while the console still lists the old one. Kicking that
// row reaches the device by the seat it holds (the old answer was "no
// client on channel N", and the phone stayed); a channel nobody held a
// seat or pass on is still unknown.
func TestKickOfAReconnectedDevice(t *testing.T) {
	e := newSeatEnv(t)
	ctx := context.Background()
	a, _, err := e.dial(t, "/ws")
	if err != nil {
		t.Fatal(err)
	}
	request(t, a, "clientUpdated", map[string]any{"name": "Ann"})
	_, taken := request(t, a, "takeSeat", map[string]any{"seatId": heroID, "player": "Ann"})
	token, _ := taken["seatToken"].(string)
	if token == "" {
		t.Fatalf("takeSeat: %v", taken)
	}
	old := e.hub.HostClients()[0].Channel
	a.Close() // the phone's connection drops

	waitClients := func(want int) {
		t.Helper()
		deadline := time.Now().Add(10 * time.Second)
		for len(e.hub.HostClients()) != want {
			if time.Now().After(deadline) {
				t.Fatalf("%d clients connected, want %d", len(e.hub.HostClients()), want)
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	waitClients(0)
	b, _, err := e.dial(t, "/ws")
	if err != nil {
		t.Fatal(err)
	}
	request(t, b, "clientUpdated", map[string]any{"name": "Ann"})
	if name, v := request(t, b, "takeSeat", map[string]any{"seatToken": token}); name != "takeSeat" {
		t.Fatalf("coming back to the seat: %s %v", name, v)
	}
	if now := e.hub.HostClients()[0].Channel; now == old {
		t.Fatalf("the reconnection kept channel %d", old)
	}

	kicked, err := e.hub.Kick(ctx, old)
	if err != nil || kicked.Closed != 1 {
		t.Fatalf("kick of the old row: %+v %v", kicked, err)
	}
	if code := closedWith(t, b); code != hub.CloseKicked {
		t.Fatalf("the reconnected phone closed with %d, want %d", code, hub.CloseKicked)
	}
	if _, err := e.svc.ResumeSeat(ctx, core.Actor{}, token); !core.IsNotFound(err) {
		t.Fatalf("the kicked phone's seat token still holds the seat: %v", err)
	}

	// A seatless, passless connection that left is nobody to find.
	c, _, err := e.dial(t, "/ws")
	if err != nil {
		t.Fatal(err)
	}
	request(t, c, "clientUpdated", map[string]any{"name": "Cy"})
	waitClients(1)
	cChannel := e.hub.HostClients()[0].Channel
	c.Close()
	waitClients(0)
	if _, err := e.hub.Kick(ctx, cChannel); !core.IsNotFound(err) {
		t.Fatalf("kick of a gone seatless channel: %v, want not found", err)
	}
}
