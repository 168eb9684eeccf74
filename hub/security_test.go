package hub

import (
	"bytes"
	"context"
	"encoding/json"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"
	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/internal/testkit"
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
	e := newHubEnv(t, Options{})
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
	e := newHubEnv(t, Options{})
	ws := dialSecurityWS(t, e.srv.URL)
	for _, name := range []string{"deleteEntity", "createCombatant", "gameUpdated", "reload", "__proto__", strings.Repeat("x", 10000)} {
		ws.WriteJSON(map[string]any{"name": name, "requestId": "ignored", "data": map[string]any{"id": testkit.GoblinID}})
	}
	stillServes(t, ws, "after-ignored")
	if _, err := e.svc.Entity(context.Background(), "", testkit.GoblinID); err != nil {
		t.Fatalf("an ignored deleteEntity acted: %v", err)
	}
}

// Exactly 1 MiB is accepted; one byte more closes with 1009.
func TestWSMessageSizeBoundary(t *testing.T) {
	e := newHubEnv(t, Options{})
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
	e := newHubEnv(t, Options{})
	ws := dialSecurityWS(t, e.srv.URL)
	ws.WriteMessage(websocket.BinaryMessage, []byte{0x00, 0xff, 0x13, 0x37})
	stillServes(t, ws, "after-binary-garbage")
}

// A text frame that is not UTF-8 (RFC 6455 8.1) is refused with an error
// reply or a close, never stored and broadcast with U+FFFD in place of the
// bytes the client sent.
func TestWSInvalidUTF8TextIsRefused(t *testing.T) {
	e := newHubEnv(t, Options{})
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
	e := newHubEnv(t, Options{})
	settle := func(limit int) int {
		n := runtime.NumGoroutine()
		for i := 0; i < 100 && n > limit; i++ {
			time.Sleep(20 * time.Millisecond)
			n = runtime.NumGoroutine()
		}
		return n
	}
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
	n := len(e.hub.Clients())
	for deadline := time.Now().Add(5 * time.Second); n != 0 && time.Now().Before(deadline); n = len(e.hub.Clients()) {
		time.Sleep(20 * time.Millisecond)
	}
	if n != 0 {
		t.Fatalf("%d clients still registered 5 s after the last one left", n)
	}
	if after := settle(before + 2); after > before+2 {
		t.Fatalf("goroutines %d before, %d after 300 connections came and went", before, after)
	}
}

// A client that never reads is dropped once its queue is full; the others
// receive every broadcast meanwhile.
func TestWSSlowClientIsDroppedNotWaitedFor(t *testing.T) {
	e := newHubEnv(t, Options{SendQueue: 8, WriteWait: 200 * time.Millisecond})
	srv, hub := e.srv, e.hub

	slow := dialSecurityWS(t, srv.URL) // never reads from here on
	fast := dialSecurityWS(t, srv.URL)
	const total = 1500 // ~5 MB of broadcasts: more than the socket buffers hold
	text := strings.Repeat("a long line to fill socket buffers ", 100)
	body, _ := json.Marshal(map[string]string{"text": text})
	for i := 0; i < total; i++ {
		m, err := core.DecodeMessage(body)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := e.svc.CreateMessage(context.Background(), m); err != nil {
			t.Fatalf("message %d: %v", i, err)
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
