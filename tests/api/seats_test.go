package api

import (
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"
	"github.com/vttapp/companion/internal/testkit"
	"github.com/vttapp/companion/tests/e2e"
)

// seatPhone is a player's browser: its pass cookie and its socket, every
// frame it received kept.
type seatPhone struct {
	*walkSocket
	pass string
}

// joinLinks reads the join key from the host console.
func joinLinks(t *testing.T, srv *e2e.Server) (key, spectator string) {
	t.Helper()
	var join struct {
		Enabled                bool
		Key, SpectatorKey      string
		PlayerLink, ClientLink string
		PlayerLinkQR           string
	}
	e2e.NewAPIClient(t, srv.HostURL).Get("/host/api/join", &join)
	if !join.Enabled || join.Key == "" || !strings.Contains(join.PlayerLink, "/client/?key="+join.Key) || !strings.HasPrefix(join.PlayerLinkQR, "data:image/png;base64,") {
		t.Fatalf("the join key is not on, or its link has no key: %+v", join)
	}
	return join.Key, join.SpectatorKey
}

// openLink opens the client's link as a phone's browser does and returns
// the pass it was given.
func openLink(t *testing.T, srv *e2e.Server, key string) string {
	t.Helper()
	r := e2e.NewAPIClient(t, srv.URL).Do("GET", "/client/?key="+url.QueryEscape(key), "")
	if r.Status != http.StatusSeeOther {
		t.Fatalf("opening the link: %d %s", r.Status, r.Body)
	}
	for _, c := range (&http.Response{Header: r.Header}).Cookies() {
		if c.Name == "companion_pass" {
			return c.Value
		}
	}
	t.Fatal("the link gave no pass")
	return ""
}

// phone opens the link and the socket with the pass, registered as name.
func phone(t *testing.T, srv *e2e.Server, key, name string) *seatPhone {
	t.Helper()
	pass := openLink(t, srv, key)
	conn, _, err := websocket.DefaultDialer.Dial("ws"+strings.TrimPrefix(srv.URL, "http")+"/ws", http.Header{"Cookie": {"companion_pass=" + pass}})
	if err != nil {
		t.Fatalf("%s's socket: %v", name, err)
	}
	s := &walkSocket{t: t, conn: conn}
	go func() {
		for {
			_, data, err := conn.ReadMessage()
			if err != nil {
				s.mu.Lock()
				var ce *websocket.CloseError
				if errors.As(err, &ce) {
					s.frames = append(s.frames, []byte("CLOSED "+itoa(ce.Code)))
				}
				s.mu.Unlock()
				return
			}
			s.mu.Lock()
			s.frames = append(s.frames, data)
			s.mu.Unlock()
		}
	}()
	t.Cleanup(func() { conn.Close() })
	s.send("clientUpdated", map[string]any{"name": name, "color": "#4caf50"}, "")
	return &seatPhone{walkSocket: s, pass: pass}
}

// answer waits for the answer to requestID and decodes its data.
func (p *seatPhone) answer(requestID string) (string, map[string]any) {
	p.t.Helper()
	p.waitFor(`"responseId":"` + requestID + `"`)
	for _, f := range p.all() {
		if strings.Contains(string(f), `"responseId":"`+requestID+`"`) {
			var env struct {
				Name string
				Data map[string]any
			}
			json.Unmarshal(f, &env)
			return env.Name, env.Data
		}
	}
	return "", nil
}

// TestTwoPhonesTakeSeatsPlayAndOneIsKicked is the acceptance walk
// on the server side: the key is on, two phones join through the link,
// each takes a character; one rolls "Warhammer attack" and both see it;
// the game master deals 7 damage and the phone hears of it; the phone
// heals itself and the game master sees it; token mode lets each drag only
// their own token; a spectator sees but cannot act; a kicked phone cannot
// come back with its old link. Neither key, pass nor seat token ever
// reaches another player.
func TestTwoPhonesTakeSeatsPlayAndOneIsKicked(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and starts the companion binary")
	}
	srv := e2e.StartServer(t, e2e.ServerOptions{Args: []string{"--join-key"}})
	host := e2e.NewAPIClient(t, srv.HostURL)
	public := e2e.NewAPIClient(t, srv.URL)
	key, spectatorKey := joinLinks(t, srv)
	if r := public.Do("GET", "/client/", "", "Accept", "text/html"); r.Status != 401 || !strings.Contains(string(r.Body), "Ask the game master") {
		t.Fatalf("the client without the link: %d", r.Status)
	}

	alice, bo := phone(t, srv, key, "Alice"), phone(t, srv, key, "Bo")
	watcher := phone(t, srv, spectatorKey, "TV")
	alice.send("takeSeat", map[string]any{"seatId": e2e.DemoBrannocChar, "player": "Alice"}, "a-seat")
	bo.send("takeSeat", map[string]any{"seatId": e2e.DemoIlsaChar, "player": "Bo"}, "b-seat")
	_, aSeat := alice.answer("a-seat")
	_, bSeat := bo.answer("b-seat")
	aToken, _ := aSeat["seatToken"].(string)
	bToken, _ := bSeat["seatToken"].(string)
	if aToken == "" || bToken == "" {
		t.Fatalf("seats: %v %v", aSeat, bSeat)
	}
	watcher.send("takeSeat", map[string]any{"seatId": e2e.DemoQuillChar}, "w-seat")
	if name, v := watcher.answer("w-seat"); name != "error" || v["kind"] != "forbidden" {
		t.Fatalf("a spectator took a seat: %s %v", name, v)
	}
	var seats struct{ Seats []map[string]any }
	if err := json.Unmarshal(public.Do("GET", "/api/seats", "", "X-Companion-Key", spectatorKey).Body, &seats); err != nil || len(seats.Seats) != 3 {
		t.Fatalf("the seat list: %v", seats)
	}

	// Alice rolls her warhammer: both phones see the attack and its dice.
	alice.send("rollAction", map[string]any{"action": "attack-warhammer", "follow": true}, "a-roll")
	if name, res := alice.answer("a-roll"); name != "rollAction" || len(res["messages"].([]any)) != 2 {
		t.Fatalf("the attack: %s %v", name, res)
	}
	for _, p := range []*seatPhone{alice, bo, watcher} {
		p.waitFor(`"messageCreated"`, `"name":"Warhammer attack"`, `"type":"attack"`, `"detail":"[`)
		p.waitFor(`"messageCreated"`, `"type":"damage"`)
	}
	// The game master deals 7 damage; Alice heals herself by 3.
	if r := host.Do("POST", "/host/api/combatants/"+e2e.DemoBrannocCombatant+"/hitpoints", `{"damage": 7}`); r.Status != 200 {
		t.Fatalf("7 damage: %d %s", r.Status, r.Body)
	}
	alice.waitFor(`"combatantUpdated"`, e2e.DemoBrannocCombatant, `"hit_points":17`)
	alice.send("changeHitPoints", map[string]any{"healing": 3}, "a-heal")
	if _, hp := alice.answer("a-heal"); hp["current"] != 20.0 {
		t.Fatalf("healing: %v", hp)
	}
	var campaign struct {
		Game struct{ Combatants []map[string]any }
	}
	host.Get("/host/api/campaign", &campaign)
	for _, c := range campaign.Game.Combatants {
		if c["id"] == e2e.DemoBrannocCombatant && c["data"].(map[string]any)["hit_points"] != 20.0 {
			t.Fatalf("the host console sees %v", c["data"])
		}
	}
	// Bo cannot heal Alice's character, nor write it.
	bo.send("updateEntity", map[string]any{"id": e2e.DemoBrannocChar, "data": map[string]any{"max_hit_points": 99}}, "b-write")
	if name, v := bo.answer("b-write"); name != "error" || v["kind"] != "forbidden" {
		t.Fatalf("Bo wrote Alice's character: %s %v", name, v)
	}

	// Token mode: each drags their own token only; the spectator none.
	if r := host.Do("PATCH", "/host/api/settings", `{"interaction": "token"}`); r.Status != 200 {
		t.Fatal(r.Status)
	}
	alice.waitFor(`"interactionUpdated"`)
	for _, try := range []struct {
		p      *seatPhone
		token  string
		refuse bool
	}{
		{alice, e2e.DemoBrannocID, false}, {alice, e2e.DemoIlsaID, true}, {bo, e2e.DemoIlsaID, false}, {bo, e2e.DemoBrannocID, true},
		{bo, e2e.DemoHoundID, true}, {watcher, e2e.DemoQuillID, true},
	} {
		id := "drag-" + itoa(len(try.p.all()))
		try.p.send("tokenMoved", map[string]any{"id": try.token, "x": 320, "y": 460, "state": "start"}, id)
		_, v := try.p.answer(id)
		if refused := v["state"] == "block"; refused != try.refuse {
			t.Fatalf("a drag of %s answered %v (refusal expected: %v)", try.token, v, try.refuse)
		}
		try.p.send("tokenMoved", map[string]any{"id": try.token, "x": 320, "y": 460, "state": "end"}, "")
	}
	watcher.send("createMessage", map[string]any{"text": "I am only watching"}, "w-chat")
	if name, v := watcher.answer("w-chat"); name != "error" || v["kind"] != "forbidden" {
		t.Fatalf("the spectator chatted: %s %v", name, v)
	}

	// Bo is kicked: his phone closes, his old link opens nothing; Alice stays.
	var clients []struct {
		Channel int
		Name    string
		Seat    string
		Role    string
	}
	host.Get("/host/api/clients", &clients)
	boChannel := 0
	for _, c := range clients {
		if c.Name == "Bo" {
			boChannel = c.Channel
			if c.Seat != e2e.DemoIlsaChar || c.Role != "player" {
				t.Fatalf("the host console's row of Bo: %+v", c)
			}
		}
	}
	if r := host.Do("POST", "/host/api/clients/"+itoa(boChannel)+"/kick", ""); r.Status != 200 || !strings.Contains(string(r.Body), `"newKeys":true`) {
		t.Fatalf("kick: %d %s", r.Status, r.Body)
	}
	bo.waitFor("CLOSED 4403")
	if r := public.Do("GET", "/client/?key="+url.QueryEscape(key), "", "Accept", "text/html"); r.Status != 401 {
		t.Fatalf("the kicked phone's old link: %d", r.Status)
	}
	if r := public.Do("GET", "/api", "", "Cookie", "companion_pass="+bo.pass); r.Status != 401 {
		t.Fatalf("the kicked phone's pass: %d", r.Status)
	}
	if _, resp, err := websocket.DefaultDialer.Dial("ws"+strings.TrimPrefix(srv.URL, "http")+"/ws", http.Header{"Cookie": {"companion_pass=" + bo.pass}}); err == nil || resp.StatusCode != 401 {
		t.Fatal("the kicked phone's socket came back")
	}
	alice.send("createMessage", map[string]any{"text": "still playing"}, "")
	alice.waitFor(`"messageCreated"`, "still playing")
	newKey, _ := joinLinks(t, srv)
	if newKey == key {
		t.Fatal("the kick drew no new key")
	}

	// Nothing secret reached anyone it was not for.
	secrets := map[string]string{"the players' key": key, "the new key": newKey, "Alice's pass": alice.pass,
		"Bo's pass": bo.pass, "the TV's pass": watcher.pass, "Alice's seat token": aToken, "Bo's seat token": bToken}
	for who, p := range map[string]*seatPhone{"Alice": alice, "Bo": bo, "TV": watcher} {
		for _, f := range p.all() {
			for what, secret := range secrets {
				if !strings.Contains(string(f), secret) {
					continue
				}
				if (who == "Alice" && what == "Alice's seat token" || who == "Bo" && what == "Bo's seat token") && strings.Contains(string(f), `"responseId"`) {
					continue // the answer to one's own takeSeat
				}
				t.Errorf("%s received %s: %.200s", who, what, f)
			}
		}
	}
	for _, path := range []string{"/", "/api", "/api/seats", "/api/clients", "/api/me", "/client/"} {
		body := string(public.Do("GET", path, "", "X-Companion-Key", spectatorKey).Body)
		if strings.Contains(body, newKey) || strings.Contains(body, aToken) || strings.Contains(body, alice.pass) {
			t.Errorf("the spectators' GET %s carries a players' secret", path)
		}
	}
}

// TestSeatsAndTheKeySurviveARestart: the seat token, the pass and the key
// a player had still work after the server restarts.
func TestSeatsAndTheKeySurviveARestart(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and starts the companion binary")
	}
	data := t.TempDir()
	srv := e2e.StartServer(t, e2e.ServerOptions{DataDir: data, Args: []string{"--join-key"}})
	key, _ := joinLinks(t, srv)
	pass := openLink(t, srv, key)
	withPass := []string{"Cookie", "companion_pass=" + pass}
	taken := e2e.NewAPIClient(t, srv.URL).Do("POST", "/api/seats/"+e2e.DemoIlsaChar+"/take", `{"player": "Bo"}`, withPass...)
	token, _ := taken.Object(t)["seatToken"].(string)
	if taken.Status != 200 || token == "" {
		t.Fatalf("take: %d %s", taken.Status, taken.Body)
	}
	srv.Stop(t)

	srv = e2e.StartServer(t, e2e.ServerOptions{DataDir: data}) // no flag: the key stays on
	public := e2e.NewAPIClient(t, srv.URL)
	if r := public.Do("GET", "/api", ""); r.Status != 401 {
		t.Fatalf("after a restart, without the key: %d", r.Status)
	}
	me := public.Do("GET", "/api/me", "", append(withPass, "X-Companion-Seat", token)...)
	seat, _ := me.Object(t)["seat"].(map[string]any)
	if me.Status != 200 || seat == nil || seat["id"] != e2e.DemoIlsaChar || seat["player"] != "Bo" {
		t.Fatalf("after a restart, the pass and the seat token: %d %s", me.Status, me.Body)
	}
	ws := testkit.Dial(t, srv.URL+"/ws?key="+url.QueryEscape(key), nil)
	sendRequest(t, ws, "takeSeat", `{"seatToken":"`+token+`"}`, "back")
	ws.WaitFor(10*time.Second, nil, "takeSeat", e2e.DemoIlsaChar)
}

// TestTheJoinKeyNeverReachesTheLog: with the key on and the log at debug
// level, a session that uses every way of carrying a key, a pass and a
// seat token (and wrong ones, a kick and new keys) writes none of them to
// the log. The start banner prints the link with the key, as the
// game master needs: the test checks it does, so that the log's silence
// means something.
func TestTheJoinKeyNeverReachesTheLog(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and starts the companion binary")
	}
	srv := e2e.StartServer(t, e2e.ServerOptions{Args: []string{"--join-key", "--log-level", "debug", "--log-format", "json"}})
	host, public := e2e.NewAPIClient(t, srv.HostURL), e2e.NewAPIClient(t, srv.URL)
	key, spectatorKey := joinLinks(t, srv)
	pass := openLink(t, srv, key)
	public.Do("GET", "/api", "", "X-Companion-Key", key)
	public.Do("GET", "/api?key="+url.QueryEscape(key), "")
	public.Do("GET", "/api", "", "X-Companion-Key", key+"wrong")
	public.Do("GET", "/client/?key="+url.QueryEscape(spectatorKey)+"x", "", "Accept", "text/html")
	taken := public.Do("POST", "/api/seats/"+e2e.DemoQuillChar+"/take", `{"player": "Chen"}`, "Cookie", "companion_pass="+pass)
	token, _ := taken.Object(t)["seatToken"].(string)
	public.Do("GET", "/client/?seat="+url.QueryEscape(token), "", "Cookie", "companion_pass="+pass)
	public.Do("POST", "/api/me/hitpoints", `{"damage": 1}`, "X-Companion-Seat", token, "Cookie", "companion_pass="+pass)
	public.Do("POST", "/api/me/actions/nothing", `{}`, "X-Companion-Seat", token+"x", "Cookie", "companion_pass="+pass)
	ws := testkit.Dial(t, srv.URL+"/ws?key="+url.QueryEscape(key), nil)
	ws.Send("clientUpdated", `{"name":"Chen"}`)
	sendRequest(t, ws, "takeSeat", `{"seatToken":"`+token+`"}`, "t1")
	ws.WaitFor(10*time.Second, nil, "takeSeat")
	sendRequest(t, ws, "takeSeat", `{"seatToken":"`+token+`-old"}`, "t2")
	ws.WaitFor(10*time.Second, nil, "error", "pick a seat again")
	if _, resp, err := websocket.DefaultDialer.Dial("ws"+strings.TrimPrefix(srv.URL, "http")+"/ws?key=nope"+key, nil); err == nil || resp.StatusCode != 401 {
		t.Fatal("a wrong key opened a socket")
	}
	var clients []struct{ Channel int }
	host.Get("/host/api/clients", &clients)
	host.Do("POST", "/host/api/clients/"+itoa(clients[0].Channel)+"/kick", "")
	newKey, _ := joinLinks(t, srv)
	host.Do("POST", "/host/api/join/new-key", "")
	latest, _ := joinLinks(t, srv)
	// A marker: a socket on the latest key sends an event the server only
	// logs (at debug level); once that line is in the output, so is every
	// line before it.
	last := testkit.Dial(t, srv.URL+"/ws?key="+url.QueryEscape(latest), nil)
	last.Send("createEntity", `{"name":"marker"}`)
	for deadline := time.Now().Add(10 * time.Second); !strings.Contains(srv.Output(), "parsed and ignored"); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the marker's log line never came:\n%s", srv.Output())
		}
	}

	var logLines, banner []string
	for _, line := range strings.Split(srv.Output(), "\n") {
		if json.Valid([]byte(line)) && strings.HasPrefix(line, "{") {
			logLines = append(logLines, line)
		} else {
			banner = append(banner, line)
		}
	}
	if len(logLines) < 20 {
		t.Fatalf("only %d log lines at debug level: the test sees nothing", len(logLines))
	}
	if !strings.Contains(strings.Join(banner, "\n"), "?key="+key) {
		t.Fatalf("the banner does not print the link with the key:\n%s", strings.Join(banner, "\n"))
	}
	secrets := map[string]string{"key": key, "spectator key": spectatorKey, "new key": newKey, "latest key": latest,
		"pass": pass, "seat token": token}
	for _, line := range logLines {
		for what, s := range secrets {
			if strings.Contains(line, s) {
				t.Errorf("the log carries the %s: %s", what, line)
			}
		}
	}
}

// sendRequest writes an envelope with a requestId (the testkit socket's
// Send asks for no answer).
func sendRequest(t *testing.T, s *testkit.Socket, name, data, requestID string) {
	t.Helper()
	if err := s.Conn.WriteMessage(websocket.TextMessage, []byte(`{"name":"`+name+`","requestId":"`+requestID+`","data":`+data+`}`)); err != nil {
		t.Fatal(err)
	}
}
