package hub

import (
	"encoding/json"
	"slices"
	"testing"
	"time"

	"github.com/vttapp/companion/internal/testkit"
)

// The package doc's promise: a change reaches everyone, its sender
// included, as a broadcast made inside the commit. So the sender reads the
// broadcast before the reply to its own request, and every client reads
// the changes in the order they were committed.
func TestBroadcastOfAChangeComesBeforeItsReplyAndInCommitOrder(t *testing.T) {
	e := newHubEnv(t, Options{})
	sender := testkit.Dial(t, e.srv.URL+"/", nil)
	watcher := testkit.Dial(t, e.srv.URL+"/", nil)
	sender.WaitFor(5*time.Second, nil, "app")
	watcher.WaitFor(5*time.Second, nil, "app")
	names := []string{"first", "second", "third"}
	tokenName := func(env testkit.Envelope) string {
		var tk struct{ Name string }
		json.Unmarshal(env.Data, &tk)
		return tk.Name
	}
	for _, name := range names {
		sender.SendJSON(map[string]any{"name": "updateToken", "requestId": name,
			"data": map[string]any{"id": tokenA, "name": name}})
		broadcast := false
		reply := sender.AwaitReply(5*time.Second, name, func(env testkit.Envelope) {
			broadcast = broadcast || (env.Name == "tokenUpdated" && tokenName(env) == name)
		})
		if reply.Name != "updateToken" {
			t.Fatalf("%s answered %s %s", name, reply.Name, reply.Data)
		}
		if !broadcast {
			t.Fatalf("the reply to %s came before its tokenUpdated broadcast", name)
		}
	}
	var seen []string
	watcher.WaitFor(5*time.Second, func(env testkit.Envelope) {
		if env.Name == "tokenUpdated" {
			seen = append(seen, tokenName(env))
		}
	}, "tokenUpdated", `"name":"third"`)
	if !slices.Equal(seen, names) {
		t.Fatalf("the other client read the changes as %v, committed as %v", seen, names)
	}
}
