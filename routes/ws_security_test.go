package routes

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"net/http/httptest"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"
	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/core/sqlite"
	"github.com/vttapp/companion/systems"
)

// Hostile WebSocket clients: odd frames get an error reply or are ignored,
// never crash the hub or stop it serving; vanished and slow clients leave
// nothing behind.

func dialSecurityWS(t *testing.T, url string) *websocket.Conn {
	t.Helper()
	ws, _, err := websocket.DefaultDialer.Dial("ws"+strings.TrimPrefix(url, "http")+"/", nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ws.Close() })
	// app and clientConnected
	for i := 0; i < 2; i++ {
		ws.SetReadDeadline(time.Now().Add(5 * time.Second))
		if _, _, err := ws.ReadMessage(); err != nil {
			t.Fatalf("greeting: %v", err)
		}
	}
	return ws
}

// awaitReply reads until the envelope answering requestId arrives.
func awaitReply(t *testing.T, ws *websocket.Conn, requestID string) map[string]any {
	t.Helper()
	for {
		ws.SetReadDeadline(time.Now().Add(5 * time.Second))
		_, data, err := ws.ReadMessage()
		if err != nil {
			t.Fatalf("waiting for the reply to %s: %v", requestID, err)
		}
		var env map[string]any
		if json.Unmarshal(data, &env) == nil && env["responseId"] == requestID {
			return env
		}
	}
}

// stillServes checks that the connection answers an ordinary request.
func stillServes(t *testing.T, ws *websocket.Conn, requestID string) {
	t.Helper()
	ws.WriteJSON(map[string]any{"name": "updateToken", "requestId": requestID, "data": map[string]any{"id": tokenA, "name": "still here"}})
	if env := awaitReply(t, ws, requestID); env["name"] != "updateToken" {
		t.Fatalf("after the hostile frame: %v", env)
	}
}

func TestWSHostileFramesGetAnErrorAndTheConnectionServes(t *testing.T) {
	e := newEnv(t, envOptions{})
	for name, frame := range map[string]string{
		"not JSON":        `{{{{`,
		"array":           `[1,2,3]`,
		"deeply nested":   `{"name":"updateToken","requestId":"r","data":` + strings.Repeat("[", 100000) + strings.Repeat("]", 100000) + `}`,
		"huge number":     `{"name":"updateToken","requestId":"r","data":{"id":"` + tokenA + `","x":1e400}}`,
		"data wrong type": `{"name":"updateToken","requestId":"r","data":"x"}`,
		"unknown token":   `{"name":"updateToken","requestId":"r","data":{"id":"nope"}}`,
	} {
		t.Run(name, func(t *testing.T) {
			ws := dialSecurityWS(t, e.srv.URL)
			ws.WriteMessage(websocket.TextMessage, []byte(frame))
			for {
				ws.SetReadDeadline(time.Now().Add(5 * time.Second))
				_, data, err := ws.ReadMessage()
				if err != nil {
					t.Fatalf("no error reply: %v", err)
				}
				var env map[string]any
				json.Unmarshal(data, &env)
				if env["name"] == "error" {
					break
				}
			}
			stillServes(t, ws, "after-"+name)
		})
	}
}

func TestWSUnknownAndIgnoredEventsAreIgnored(t *testing.T) {
	e := newEnv(t, envOptions{})
	ws := dialSecurityWS(t, e.srv.URL)
	for _, name := range []string{"deleteEntity", "createCombatant", "gameUpdated", "reload", "__proto__", strings.Repeat("x", 10000)} {
		ws.WriteJSON(map[string]any{"name": name, "requestId": "ignored", "data": map[string]any{"id": goblinID}})
	}
	stillServes(t, ws, "after-ignored")
	if r := e.do(t, "GET", "/api/monsters/"+goblinID, ""); r.status != 200 {
		t.Fatalf("an ignored deleteEntity acted: %d", r.status)
	}
}

// Exactly 1 MiB is accepted; one byte more closes with 1009.
func TestWSMessageSizeBoundary(t *testing.T) {
	e := newEnv(t, envOptions{})
	pad := `{"name":"nothing","data":{"pad":"`
	exact := pad + strings.Repeat("x", DefaultMaxMessageBytes-len(pad)-3) + `"}}`
	if len(exact) != DefaultMaxMessageBytes {
		t.Fatalf("frame of %d bytes", len(exact))
	}
	ws := dialSecurityWS(t, e.srv.URL)
	ws.WriteMessage(websocket.TextMessage, []byte(exact))
	stillServes(t, ws, "after-exact")

	over := dialSecurityWS(t, e.srv.URL)
	over.WriteMessage(websocket.TextMessage, []byte(exact+" "))
	over.SetReadDeadline(time.Now().Add(5 * time.Second))
	for {
		_, _, err := over.ReadMessage()
		if err == nil {
			continue
		}
		if !websocket.IsCloseError(err, websocket.CloseMessageTooBig) {
			t.Fatalf("over the limit: %v, want close 1009", err)
		}
		break
	}
}

// A binary frame carrying an envelope is read like a text frame (the
// contract speaks of JSON envelopes; browsers send text, other clients
// may not); binary garbage gets an error reply.
func TestWSBinaryFrames(t *testing.T) {
	e := newEnv(t, envOptions{})
	ws := dialSecurityWS(t, e.srv.URL)
	ws.WriteMessage(websocket.BinaryMessage, []byte{0x00, 0xff, 0x13, 0x37})
	stillServes(t, ws, "after-binary-garbage")
}

// A text frame that is not UTF-8 (RFC 6455 8.1) is refused with an error
// reply or a close, never stored and broadcast with U+FFFD in place of the
// bytes the client sent.
func TestWSInvalidUTF8TextIsRefused(t *testing.T) {
	e := newEnv(t, envOptions{})
	ws := dialSecurityWS(t, e.srv.URL)
	ws.WriteMessage(websocket.TextMessage, []byte("{\"name\":\"createMessage\",\"requestId\":\"u1\",\"data\":{\"text\":\"bad \xff\xfe\"}}"))
	ws.SetReadDeadline(time.Now().Add(5 * time.Second))
	_, data, err := ws.ReadMessage()
	if err == nil && !bytes.Contains(data, []byte(`"error"`)) {
		t.Fatalf("accepted: %s", data)
	}
}

// Clients that connect and vanish (closed socket, close frame, or nothing
// at all) leave no goroutine behind.
func TestWSConnectDisconnectChurnLeaksNoGoroutines(t *testing.T) {
	e := newEnv(t, envOptions{})
	settle := func(limit int) int {
		n := runtime.NumGoroutine()
		for i := 0; i < 100 && n > limit; i++ {
			time.Sleep(20 * time.Millisecond)
			n = runtime.NumGoroutine()
		}
		return n
	}
	e.hubClients(t)                   // the HTTP keep-alive connection the polling below reuses
	time.Sleep(50 * time.Millisecond) // the server's own goroutines start
	before := runtime.NumGoroutine()
	url := "ws" + strings.TrimPrefix(e.srv.URL, "http") + "/"
	for i := 0; i < 300; i++ {
		ws, _, err := websocket.DefaultDialer.Dial(url, nil)
		if err != nil {
			t.Fatal(err)
		}
		switch i % 3 {
		case 0:
			ws.UnderlyingConn().Close() // vanished
		case 1:
			ws.WriteMessage(websocket.CloseMessage, websocket.FormatCloseMessage(websocket.CloseNormalClosure, ""))
			ws.Close()
		case 2:
			ws.WriteMessage(websocket.TextMessage, []byte(`{"name":"clientUpdated","data":{"name":"churn"}}`))
			ws.UnderlyingConn().Close()
		}
	}
	// The last clients may still be on their way out (their readers see the
	// closed socket a moment later on a loaded machine): wait for the hub
	// to empty, then for the goroutines to settle.
	n := len(e.hubClients(t))
	for deadline := time.Now().Add(5 * time.Second); n != 0 && time.Now().Before(deadline); n = len(e.hubClients(t)) {
		time.Sleep(20 * time.Millisecond)
	}
	if n != 0 {
		t.Fatalf("%d clients still registered 5 s after the last one left", n)
	}
	if after := settle(before + 2); after > before+2 {
		t.Fatalf("goroutines %d before, %d after 300 connections came and went", before, after)
	}
}

func (e *testEnv) hubClients(t *testing.T) []map[string]any {
	var list []map[string]any
	r := e.do(t, "GET", "/api/clients", "")
	json.Unmarshal(r.body, &list)
	return list
}

// A client that never reads is dropped once its queue is full; the others
// receive every broadcast meanwhile.
func TestWSSlowClientIsDroppedNotWaitedFor(t *testing.T) {
	dataDir := t.TempDir()
	store, err := sqlite.Open(filepath.Join(dataDir, "companion.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	if err := store.Update(context.Background(), seedFixture); err != nil {
		t.Fatal(err)
	}
	holder := systems.NewHolder(dnd5eSystem(t))
	bus := core.NewBus()
	svc := core.NewService(core.ServiceConfig{Store: store, Events: bus, Rules: holder, Roller: fixedRoller{}})
	log := slog.New(slog.NewTextHandler(&lockedWriter{w: &bytes.Buffer{}}, nil))
	hub := NewHub(svc, bus, log, HubOptions{SendQueue: 8, WriteWait: 200 * time.Millisecond})
	srv := httptest.NewServer(NewPublicHandler(Config{Service: svc, Bus: bus, Hub: hub, Systems: holder, DataDir: dataDir, Log: log}))
	t.Cleanup(func() { hub.Close(); srv.Close() })

	slow := dialSecurityWS(t, srv.URL) // never reads from here on
	fast := dialSecurityWS(t, srv.URL)
	const total = 1500 // ~5 MB of broadcasts: more than the socket buffers hold
	text := strings.Repeat("a long line to fill socket buffers ", 100)
	body, _ := json.Marshal(map[string]string{"text": text})
	for i := 0; i < total; i++ {
		req := httptest.NewRequest("POST", "/api/messages", bytes.NewReader(body))
		req.Host = "127.0.0.1"
		req.Header.Set("Content-Type", "application/json")
		rec := httptest.NewRecorder()
		srv.Config.Handler.ServeHTTP(rec, req)
		if rec.Code >= 300 {
			t.Fatalf("message %d: %d %s", i, rec.Code, rec.Body)
		}
		// The reading client gets each broadcast while the slow one stalls.
		for {
			fast.SetReadDeadline(time.Now().Add(5 * time.Second))
			_, data, err := fast.ReadMessage()
			if err != nil {
				t.Fatalf("the reading client, at message %d: %v", i, err)
			}
			if bytes.Contains(data, []byte(`"messageCreated"`)) {
				break
			}
		}
	}
	deadline := time.Now().Add(10 * time.Second)
	for len(hub.Clients()) > 1 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if n := len(hub.Clients()); n != 1 {
		t.Fatalf("%d clients connected, want the slow one dropped", n)
	}
	_ = slow
}
