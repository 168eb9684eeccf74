package routes

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/internal/testkit"
)

// A message over the text limit is refused with 413 {"message"} over HTTP
// and an error of kind "too large" over WebSocket; nothing is stored.
func TestMessageTooLargeIsRefusedOnBothTransports(t *testing.T) {
	e := newEnv(t, envOptions{})
	text := strings.Repeat("x", core.MaxMessageText+1)
	r := e.do(t, "POST", "/api/messages", `{"text":"`+text+`"}`)
	wantError(t, r, 413, "message: 'text' is 16385 bytes, more than the limit of 16 KiB")

	ws := testkit.Dial(t, e.srv.URL+"/", nil)
	ws.SendJSON(map[string]any{"name": "createMessage", "requestId": "big", "data": map[string]any{"text": text}})
	env := ws.AwaitReply(5*time.Second, "big", nil)
	var data struct{ Kind, Message string }
	json.Unmarshal(env.Data, &data)
	if env.Name != "error" || data.Kind != "too large" || !strings.Contains(data.Message, "16 KiB") {
		t.Fatalf("createMessage over the limit: %s %s", env.Name, env.Data)
	}
	snap := e.do(t, "GET", "/api", "").json(t)
	if msgs, _ := snap["messages"].([]any); len(msgs) != 0 {
		t.Fatalf("a refused message was stored: %d messages", len(msgs))
	}
	if r := e.do(t, "POST", "/api/messages", `{"text":"`+text[1:]+`"}`); r.status != 200 && r.status != 201 {
		t.Fatalf("a message of exactly the limit: %d %s", r.status, r.body)
	}
}

// A burst of GET /api after a change reads and encodes the snapshot once:
// every request of the burst gets the same encoded parts.
func TestSnapshotIsEncodedOncePerChange(t *testing.T) {
	e := newEnv(t, envOptions{})
	var cache snapshotCache
	sys := e.holder.Current()
	for round := range 3 {
		if _, err := e.svc.CreateMessage(context.Background(), &core.Message{Text: "change"}); err != nil {
			t.Fatal(err)
		}
		const n = 8
		got := make([]*snapshotParts, n)
		var ready, wg sync.WaitGroup
		ready.Add(1)
		for i := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				ready.Wait()
				p, err := cache.parts(context.Background(), e.svc, sys)
				if err != nil {
					t.Error(err)
				}
				got[i] = p
			}()
		}
		ready.Done()
		wg.Wait()
		for i := range got {
			if got[i] != got[0] {
				t.Fatalf("round %d: request %d encoded its own snapshot", round, i)
			}
		}
	}
}
