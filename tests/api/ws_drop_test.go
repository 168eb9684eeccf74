package api

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"
	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/hub"
	"github.com/vttapp/companion/tests/e2e"
)

// A client that reads, but more slowly than the game goes, is dropped when
// its queue fills, and learns why: once it reads on, the frame under way
// ends whole and the close frame says 1013 (try again later), the code the
// documentation gives. Before, the write under way was cut and the client
// saw the stream end bare (1006).
func TestWSSlowReaderGetsCloseCodeBeforeTheEnd(t *testing.T) {
	e := e2e.NewWSEnv(t, hub.Options{SendQueue: 16, WriteWait: 30 * time.Second})
	slow, _, err := websocket.DefaultDialer.Dial(e.WsURL("/"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer slow.Close()
	e.WaitClients(t, 1)
	payload := strings.Repeat("z", 64<<10)
	// It stops reading while the game goes on, until the hub drops it.
	for i := 0; !strings.Contains(e.Logs.String(), "too slow"); i++ {
		if i > 100000 {
			t.Fatal("the client that does not read was never dropped")
		}
		e.Svc.Publish(core.Event{Name: core.EventMessagesUpdated, Data: map[string]any{"n": i, "pad": payload}})
	}
	// What it sends once dropped is not acted on, yet read: a socket
	// closed with unread data resets the connection, and the client would
	// lose the frames on their way and the close frame that says why.
	for range 200 {
		if err := slow.WriteMessage(websocket.TextMessage, []byte(`{"name":"createMessage","data":{"text":"sent after the drop"}}`+strings.Repeat(" ", 1024))); err != nil {
			t.Fatal(err)
		}
	}
	// Then it reads what it was sent, to the end.
	slow.SetReadDeadline(time.Now().Add(60 * time.Second))
	frames := 0
	for {
		_, _, err := slow.ReadMessage()
		if err == nil {
			frames++
			continue
		}
		var ce *websocket.CloseError
		if !errors.As(err, &ce) || ce.Code != websocket.CloseTryAgainLater {
			t.Fatalf("after %d frames the stream ended with %v, want the close code 1013", frames, err)
		}
		break
	}
	e.WaitClients(t, 0)
	snap, err := e.Svc.Snapshot(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range snap.Messages {
		if strings.Contains(m.Text, "sent after the drop") {
			t.Error("a dropped client's message was acted on")
		}
	}
}

// Anyone on the network can ask for an upgrade as often as it likes; each
// refusal wrote a log line, so a flood filled the log. Each kind of
// refusal now writes a line per interval (10 s), not one per attempt; the
// next line counts those left out.
func TestWSRefusedUpgradesLogOneLinePerInterval(t *testing.T) {
	e := e2e.NewWSEnv(t, hub.Options{})
	const attempts = 200
	for range attempts {
		h := http.Header{}
		h.Set("Origin", "https://evil.example")
		if conn, _, err := websocket.DefaultDialer.Dial(e.WsURL("/"), h); err == nil {
			conn.Close()
			t.Fatal("a foreign Origin was accepted")
		}
	}
	for range attempts {
		req, _ := http.NewRequest("GET", e.Public.URL+"/", nil)
		req.Header.Set("Connection", "Upgrade")
		req.Header.Set("Upgrade", "websocket")
		req.Header.Set("Sec-WebSocket-Version", "13") // no key: a bad handshake
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusBadRequest {
			t.Fatalf("a handshake without a key: %d", resp.StatusCode)
		}
	}
	logs := e.Logs.String()
	for _, line := range []string{"websocket refused: Origin is not this server", "websocket upgrade refused"} {
		// One line per 10 s: a few at most however slow the machine.
		if n := strings.Count(logs, line); n < 1 || n > 5 {
			t.Errorf("%d refusals logged %q %d times", attempts, line, n)
		}
	}
}
