package api

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/vttapp/companion/internal/testkit"
	"github.com/vttapp/companion/tests/e2e"
)

// TestWhispersReachOnlyTheirReadersOnEveryPath is the acceptance
// for secrets in the chat, against the binary: Alice rolls to the game
// master (/gmroll) and whispers to the game master and to Bo, over the
// socket and over POST /api/messages; the game master whispers to Alice
// with /w and to Bo and Cy by seat id. Each secret reaches the host
// console and the seats it names, marked private, and nothing of it
// reaches anyone else: no messageCreated frame, no line in GET /api for
// their seat or for no seat, and no gap (each player's GET /api lists as
// many messages as everyone's lines plus their own secrets).
func TestWhispersReachOnlyTheirReadersOnEveryPath(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and starts the companion binary")
	}
	srv := e2e.StartServer(t, e2e.ServerOptions{})
	host := e2e.NewAPIClient(t, srv.HostURL)
	public := e2e.NewAPIClient(t, srv.URL)
	hostWS := testkit.Dial(t, srv.HostURL+"/host/ws", http.Header{"Origin": {srv.HostURL}})
	hostWS.WaitFor(walkWait, nil, "app")

	type player struct {
		*walkSocket
		token string
	}
	seated := func(name, seat string) *player {
		p := walkDial(t, srv.URL)
		p.send("clientUpdated", map[string]any{"name": name, "color": "#4caf50"}, "")
		p.send("takeSeat", map[string]any{"seatId": seat, "player": name}, name+"-seat")
		p.waitFor(`"responseId":"`+name+`-seat"`, "seatToken")
		return &player{p, walkSeatToken(t, p, `"responseId":"`+name+`-seat"`)}
	}
	alice, bo, cy := seated("Alice", e2e.DemoBrannocChar), seated("Bo", e2e.DemoIlsaChar), seated("Cy", e2e.DemoQuillChar)
	tv := &player{walkDial(t, srv.URL), ""} // a display without a seat

	// The secrets, and who reads each (besides the game master).
	readers := map[string][]*player{}
	alice.send("createMessage", map[string]any{"text": "/gmroll 1d20+3 # GMROLLSECRET search"}, "a-1")
	readers["GMROLLSECRET"] = []*player{alice}
	alice.send("createMessage", map[string]any{"text": "/w GM WHISPERGM I search the statue"}, "a-2")
	readers["WHISPERGM"] = []*player{alice}
	if r := public.Do("POST", "/api/messages", `{"type":"chat","content":"/w Bo WHISPERBO behind the inn"}`, "X-Companion-Seat", alice.token); r.Status != 200 && r.Status != 201 {
		t.Fatalf("Alice's whisper over HTTP: %d %s", r.Status, r.Body)
	}
	readers["WHISPERBO"] = []*player{alice, bo}
	if r := host.Do("POST", "/host/api/messages", `{"text":"/w Alice FROMGMTOALICE you feel watched"}`); r.Status != 201 {
		t.Fatalf("the game master's /w: %d %s", r.Status, r.Body)
	}
	readers["FROMGMTOALICE"] = []*player{alice}
	if r := host.Do("POST", "/host/api/messages", `{"text":"FROMGMTOTWO a cold draft","to":["`+e2e.DemoIlsaChar+`","`+e2e.DemoQuillChar+`"]}`); r.Status != 201 {
		t.Fatalf("the game master's whisper to two seats: %d %s", r.Status, r.Body)
	}
	readers["FROMGMTOTWO"] = []*player{bo, cy}
	// Refusals go to the sender alone: to nobody, and from no seat.
	alice.send("createMessage", map[string]any{"text": "/w Zed REFUSEDSECRET"}, "a-bad")
	if _, v := (&seatPhone{walkSocket: alice.walkSocket}).answer("a-bad"); v["kind"] != "not-found" && !strings.Contains(v["message"].(string), "Zed") {
		t.Fatalf("a whisper to nobody: %v", v)
	}
	tv.send("createMessage", map[string]any{"text": "/w GM REFUSEDSECRET"}, "tv-bad")
	if _, v := (&seatPhone{walkSocket: tv.walkSocket}).answer("tv-bad"); !strings.Contains(v["message"].(string), "seat") {
		t.Fatalf("a whisper from no seat: %v", v)
	}
	cy.send("createMessage", map[string]any{"text": "ENDMARKER for all"}, "")
	for _, p := range []*player{alice, bo, cy, tv} {
		p.waitFor(`"messageCreated"`, "ENDMARKER")
	}
	var hostFrames strings.Builder
	hostWS.WaitFor(walkWait, func(env testkit.Envelope) {
		if env.Name == "messageCreated" {
			hostFrames.Write(env.Data)
		}
	}, "messageCreated", "ENDMARKER")

	secrets := []string{"GMROLLSECRET", "WHISPERGM", "WHISPERBO", "FROMGMTOALICE", "FROMGMTOTWO"}
	reads := func(p *player, secret string) bool {
		for _, r := range readers[secret] {
			if r == p {
				return true
			}
		}
		return false
	}
	names := map[*player]string{alice: "Alice", bo: "Bo", cy: "Cy", tv: "the display"}
	for p, name := range names {
		var frames strings.Builder
		for _, f := range p.all() {
			frames.Write(f)
			frames.WriteByte('\n')
		}
		snapshot := public.Do("GET", "/api", "", "X-Companion-Seat", p.token)
		var snap struct{ Messages []map[string]any }
		if err := json.Unmarshal(snapshot.Body, &snap); err != nil {
			t.Fatal(err)
		}
		for _, secret := range append(secrets, "REFUSEDSECRET") {
			inFrames := strings.Contains(frames.String(), secret)
			inSnap := strings.Contains(string(snapshot.Body), secret)
			if want := reads(p, secret); inFrames != want || inSnap != want {
				t.Errorf("%s: %s in their frames %v, in their GET /api %v; want %v", name, secret, inFrames, inSnap, want)
			}
		}
		want := 1 // ENDMARKER
		for _, s := range secrets {
			if reads(p, s) {
				want++
			}
		}
		if len(snap.Messages) != want {
			t.Errorf("%s's GET /api lists %d messages, want %d", name, len(snap.Messages), want)
		}
		for _, m := range snap.Messages {
			content, _ := json.Marshal(m)
			private := m["private"] == true
			if private != !strings.Contains(string(content), "ENDMARKER") {
				t.Errorf("%s: a message marked private %v: %s", name, private, content)
			}
			if private && (m["to"] == nil || m["type"] == nil || m["content"] == nil) {
				t.Errorf("%s: a private message without its recipients or the tools' shape: %s", name, content)
			}
		}
	}
	// Nobody but the seats of a secret: an anonymous read, and the
	// seat token of a seat that reads none of Alice's.
	walkNoSecret(t, "GET /api without a seat", string(public.Do("GET", "/api", "").Body), secrets)
	// The host console reads them all, over its socket and its log.
	log := string(host.Do("GET", "/host/api/messages", "").Body)
	for _, s := range secrets {
		if !strings.Contains(log, s) {
			t.Errorf("the host console's log lacks %s", s)
		}
		if !strings.Contains(hostFrames.String(), s) {
			t.Errorf("the host console's socket did not receive %s", s)
		}
	}
	// Alice's roll was rolled by the server, privately.
	if !strings.Contains(log, `"private":true`) || !strings.Contains(log, `"to":["GM"]`) {
		t.Errorf("the host log does not mark the private roll: %.300s", log)
	}
}
