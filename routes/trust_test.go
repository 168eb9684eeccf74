package routes

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"
	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/core/engine"
	"github.com/vttapp/companion/hub"
)

// The attacks of issue 32 ("Trust at the table"), made as a hostile
// player on the network would make them: the join key on, a seat held,
// from an address of the LAN (devices_helpers_test.go).

// channelOf is the channel of the connected client registered as name.
func (e *lanEnv) channelOf(t *testing.T, name string) int {
	t.Helper()
	for _, c := range e.hub.HostClients() {
		if c.Name == name {
			return c.Channel
		}
	}
	t.Fatalf("no client named %s", name)
	return 0
}

func passHeader(pass string) []string { return []string{"Cookie", passCookie + "=" + pass} }

// Item 2: a kicked device's other passes (minted from the same link
// before the kick) answered 200 and reopened a socket. A kick now ends
// every pass and every seat the device holds; the other devices stay.
func TestAKickEndsEveryPassAndSeatOfTheDevice(t *testing.T) {
	e := newLANEnv(t)
	ctx := context.Background()
	st, err := e.svc.SetJoinKey(ctx, true)
	if err != nil {
		t.Fatal(err)
	}
	key := url.QueryEscape(st.Key)
	mallory, ann := e.device(5), e.device(6)
	p1, _ := mallory.pass(t, key)
	p2, _ := mallory.pass(t, key) // a spare, with its cookie cleared
	p3, _ := mallory.pass(t, key, passHeader(p1)...)
	pAnn, _ := ann.pass(t, key)
	if p1 == "" || p2 == "" || p3 == "" || pAnn == "" {
		t.Fatal("no pass minted")
	}
	// The spare takes a seat over HTTP; the first one plays on the socket.
	taken := mallory.do(t, "POST", "/api/seats/"+heroID+"/take", `{"player": "Mal"}`, passHeader(p2)...)
	if taken.status != 200 {
		t.Fatalf("take a seat: %d %s", taken.status, taken.body)
	}
	seatToken := taken.json(t)["seatToken"].(string)
	ws, _, err := mallory.dial(t, passHeader(p1)...)
	if err != nil {
		t.Fatal(err)
	}
	request(t, ws, "clientUpdated", map[string]any{"name": "Mallory"})

	kicked, err := e.hub.Kick(ctx, e.channelOf(t, "Mallory"))
	if err != nil || !kicked.NewKeys {
		t.Fatalf("kick: %+v %v", kicked, err)
	}
	if code := closedWith(t, ws); code != hub.CloseKicked {
		t.Fatalf("closed with %d", code)
	}
	for i, p := range []string{p1, p2, p3} {
		if r := mallory.do(t, "GET", "/api", "", passHeader(p)...); r.status != http.StatusUnauthorized {
			t.Errorf("the kicked device's pass %d answers %d, want 401", i+1, r.status)
		}
		if _, resp, err := mallory.dial(t, passHeader(p)...); err == nil || resp.StatusCode != http.StatusUnauthorized {
			t.Errorf("the kicked device's pass %d reopened a socket", i+1)
		}
	}
	if p, r := mallory.pass(t, key); p != "" || r.status != http.StatusUnauthorized {
		t.Errorf("the old link minted a pass after the kick: %d", r.status)
	}
	if _, err := e.svc.ResumeSeat(ctx, core.Actor{}, seatToken); !core.IsNotFound(err) {
		t.Errorf("the seat the spare pass took is still held: %v", err)
	}
	if r := ann.do(t, "GET", "/api", "", passHeader(pAnn)...); r.status != 200 {
		t.Errorf("another device's pass after the kick: %d", r.status)
	}
}

// Item 3: 520 pass requests from one address in a second evicted every
// other device's pass from the 500-entry table. Minting is now bounded
// per address, and no device's pass is evicted for another's.
func TestOneAddressMintingPassesLocksNoOneOut(t *testing.T) {
	e := newLANEnv(t)
	ctx := context.Background()
	st, _ := e.svc.SetJoinKey(ctx, true)
	key := url.QueryEscape(st.Key)
	ann := e.device(6)
	pAnn, _ := ann.pass(t, key)
	mallory := e.device(5)
	minted, refused := 0, 0
	for range 520 {
		p, r := mallory.pass(t, key)
		switch {
		case p != "":
			minted++
		case r.status == http.StatusTooManyRequests:
			refused++
			if !strings.Contains(string(r.body), "too many passes") {
				t.Fatalf("the refusal: %s", r.body)
			}
		default:
			t.Fatalf("a mint answered %d %s", r.status, r.body)
		}
	}
	if minted > core.PassMintBurst+1 || refused < 500 {
		t.Fatalf("one address minted %d passes (refused %d), want at most %d", minted, refused, core.PassMintBurst+1)
	}
	if r := ann.do(t, "GET", "/api", "", passHeader(pAnn)...); r.status != 200 {
		t.Fatalf("another device's pass after the flood: %d", r.status)
	}
	status, _ := e.svc.JoinStatus(ctx)
	t.Logf("520 requests from one address: %d passes minted, %d refused; %d passes kept", minted, refused, status.Passes)
}

// Item 4: a client the game master made a spectator could still chat over
// HTTP and take the player role back after a reconnect with its pass. The
// role is the pass's now, on every path, until the game master changes
// it; without a pass (key off), its address's.
func TestTheGameMastersSpectatorHoldsOnEveryPath(t *testing.T) {
	e := newLANEnv(t)
	ctx := context.Background()
	st, _ := e.svc.SetJoinKey(ctx, true)
	sam := e.device(7)
	p, _ := sam.pass(t, url.QueryEscape(st.Key))
	ws, _, err := sam.dial(t, passHeader(p)...)
	if err != nil {
		t.Fatal(err)
	}
	request(t, ws, "clientUpdated", map[string]any{"name": "Sam"})
	if err := e.hub.SetSpectator(ctx, e.channelOf(t, "Sam"), true); err != nil {
		t.Fatal(err)
	}
	refusedEverywhere := func(what string, ws *websocket.Conn, headers []string) {
		t.Helper()
		wantError(t, sam.do(t, "POST", "/api/messages", `{"text": "hi"}`, headers...), http.StatusForbidden, "spectator")
		if name, v := request(t, ws, "setRole", map[string]any{"role": "player"}); name != "error" || v["kind"] != "forbidden" {
			t.Errorf("%s: taking the player role back: %s %v", what, name, v)
		}
		if name, v := request(t, ws, "createMessage", map[string]any{"text": "hi"}); name != "error" || v["kind"] != "forbidden" {
			t.Errorf("%s: chat on the socket: %s %v", what, name, v)
		}
	}
	refusedEverywhere("the same connection", ws, passHeader(p))
	ws.Close()
	again, _, err := sam.dial(t, passHeader(p)...)
	if err != nil {
		t.Fatal(err)
	}
	request(t, again, "clientUpdated", map[string]any{"name": "Sam"})
	refusedEverywhere("after a reconnect", again, passHeader(p))

	// The game master makes it a player again.
	if err := e.hub.SetSpectator(ctx, e.channelOf(t, "Sam"), false); err != nil {
		t.Fatal(err)
	}
	if r := sam.do(t, "POST", "/api/messages", `{"text": "back"}`, passHeader(p)...); r.status != 200 {
		t.Fatalf("a player again, over HTTP: %d %s", r.status, r.body)
	}

	// Key off: the device holds no pass; its address holds the role.
	if _, err := e.svc.SetJoinKey(ctx, false); err != nil {
		t.Fatal(err)
	}
	tv := e.device(8)
	ws2, _, err := tv.dial(t)
	if err != nil {
		t.Fatal(err)
	}
	request(t, ws2, "clientUpdated", map[string]any{"name": "Tess"})
	if err := e.hub.SetSpectator(ctx, e.channelOf(t, "Tess"), true); err != nil {
		t.Fatal(err)
	}
	wantError(t, tv.do(t, "POST", "/api/messages", `{"text": "hi"}`), http.StatusForbidden, "spectator")
	ws2.Close()
	ws3, _, err := tv.dial(t)
	if err != nil {
		t.Fatal(err)
	}
	if name, v := request(t, ws3, "setRole", map[string]any{"role": "player"}); name != "error" || v["kind"] != "forbidden" {
		t.Errorf("key off, after a reconnect: taking the player role back: %s %v", name, v)
	}
}

// Item 1 over HTTP: with seats, the server names the speaker, and a roll
// is always the server's.
func TestForgedSpeakersAndRollsOverHTTP(t *testing.T) {
	e := newLANEnv(t)
	ctx := context.Background()
	st, _ := e.svc.SetJoinKey(ctx, true)
	ann, mal := e.device(5), e.device(6)
	pa, _ := ann.pass(t, url.QueryEscape(st.Key))
	pm, _ := mal.pass(t, url.QueryEscape(st.Key))
	token := ann.do(t, "POST", "/api/seats/"+heroID+"/take", `{"player": "Ann"}`, passHeader(pa)...).json(t)["seatToken"].(string)
	seated := append(passHeader(pa), "X-Companion-Seat", token)

	post := func(d *device, body string, headers []string) map[string]any {
		t.Helper()
		r := d.do(t, "POST", "/api/messages", body, headers...)
		if r.status != 200 {
			t.Fatalf("POST %s: %d %s", body, r.status, r.body)
		}
		return r.json(t)
	}
	m := post(ann, `{"text": "I am the game master", "source": "Dungeon Master", "creature": "Goblin"}`, seated)
	if m["source"] != "Ann" || m["creature"] != "Hero" || m["gm"] != nil {
		t.Errorf("a seated player's message as someone else: %v", m)
	}
	m = post(ann, `{"type": "roll", "text": "1d20+4: [20**]+4 = 24"}`, seated)
	if m["type"] != "chat" || m["rolls"] != nil {
		t.Errorf("a hand-written roll was stored as a roll: %v", m)
	}
	m = post(ann, `{"type": "roll", "content": {"name": "Longsword", "type": "attack", "formula": "1d20+4", "result": 24, "detail": "[20**]+4 = 24"}}`, seated)
	rolls, _ := m["rolls"].([]any)
	content, _ := m["content"].(map[string]any)
	if m["type"] != "roll" || len(rolls) != 1 || content["formula"] != "1d20+4" || content["name"] != "Longsword" {
		t.Fatalf("a roll object: %v", m)
	}
	if total := rolls[0].(map[string]any)["total"].(float64); total < 5 || total > 24 || content["result"] != total {
		t.Errorf("the roll's total %v is not the server's roll of 1d20+4 (content %v)", total, content)
	}
	// Without the seat, the seat's names are refused.
	for _, body := range []string{`{"text": "x", "creature": "Hero"}`, `{"text": "x", "source": "ann"}`} {
		wantError(t, mal.do(t, "POST", "/api/messages", body, passHeader(pm)...), http.StatusForbidden, "seat")
	}
	if m := post(mal, `{"text": "hello"}`, passHeader(pm)); m["source"] != "Guest" {
		t.Errorf("key on, an unseated player's message without a source: %v", m)
	}
}

// Item 6: a seat flooding the chat over HTTP and the WebSocket at once,
// with the most dice a message may roll and the longest text: one budget
// counts both paths, a message over the dice limit is refused whole, and
// five seconds of it grow the store by under 1 MB.
func TestAChatFloodFromOneSeat(t *testing.T) {
	if testing.Short() {
		t.Skip("floods for five seconds")
	}
	e := newLANEnv(t)
	ctx := context.Background()
	st, _ := e.svc.SetJoinKey(ctx, true)
	d := e.device(5)
	p, _ := d.pass(t, url.QueryEscape(st.Key))
	token := d.do(t, "POST", "/api/seats/"+heroID+"/take", `{"player": "Flo"}`, passHeader(p)...).json(t)["seatToken"].(string)
	seated := append(passHeader(p), "X-Companion-Seat", token)
	wantError(t, d.do(t, "POST", "/api/messages", `{"text": "[[600d6]] [[600d6]]"}`, seated...), http.StatusRequestEntityTooLarge, "1200 dice")
	ws, _, err := d.dial(t, passHeader(p)...)
	if err != nil {
		t.Fatal(err)
	}
	request(t, ws, "takeSeat", map[string]any{"seatToken": token})
	before := storedMessageBytes(t, e.svc)

	text := strings.Repeat("[[100d6]] ", 10) + strings.Repeat("x", core.MaxMessageText-200)
	body, _ := json.Marshal(map[string]string{"text": text})
	stored, limitedHTTP, limitedWS := 0, 0, 0
	for end := time.Now().Add(5 * time.Second); time.Now().Before(end); {
		switch r := d.do(t, "POST", "/api/messages", string(body), seated...); r.status {
		case 200:
			stored++
		case http.StatusTooManyRequests:
			limitedHTTP++
		default:
			t.Fatalf("POST: %d %s", r.status, r.body)
		}
		switch name, v := request(t, ws, "createMessage", map[string]any{"text": text}); {
		case name == "createMessage":
			stored++
		case v["kind"] == "rate limited":
			limitedWS++
		default:
			t.Fatalf("createMessage: %s %v", name, v)
		}
	}
	grown := storedMessageBytes(t, e.svc) - before
	t.Logf("5 s of flood from one seat: %d messages stored (%d refused over HTTP, %d over the socket); the log grew by %d bytes", stored, limitedHTTP, limitedWS, grown)
	if limitedHTTP == 0 || limitedWS == 0 {
		t.Errorf("one of the paths was never limited: HTTP %d, WebSocket %d", limitedHTTP, limitedWS)
	}
	if grown >= 1<<20 {
		t.Errorf("the log grew by %d bytes in 5 s, want under 1 MB", grown)
	}
}

// storedMessageBytes is the size of the primary campaign's log as stored.
func storedMessageBytes(t *testing.T, svc *engine.Service) int {
	t.Helper()
	list, err := svc.HostMessages(context.Background(), 100000)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, m := range list {
		b, _ := m.StoredJSON()
		n += len(b)
	}
	return n
}
