package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vttapp/companion/core/engine"

	"github.com/gorilla/websocket"
	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/hub"
	"github.com/vttapp/companion/internal/testkit"
	"github.com/vttapp/companion/routes"
	"github.com/vttapp/companion/store/sqlite"
)

const (
	WsMapID     = "map-1"
	WsTokenID   = "tok-hero"
	WsDoorID    = "w-door"
	WsEntityID  = "ent-hero"
	WsCombatant = "cmb-hero"
	WsCampaign  = "camp-1"
	WsWait      = 15 * time.Second
)

// WsRules: characters are unique and share hp with their combatant.
type WsRules struct{}

func (WsRules) SystemID() string { return "test" }

func (WsRules) IsUnique(kind string) bool { return kind == "characters" }

func (WsRules) Ranges(kind string) []string { return []string{"hp"} }

// wsRoller rolls "[[N]]" as the constant N: enough to see that
// createMessage goes through the service's roller like POST /api/messages.
type wsRoller struct{}

func (wsRoller) RollText(text string) (string, []json.RawMessage, bool, error) {
	start := strings.Index(text, "[[")
	end := strings.Index(text, "]]")
	if start < 0 || end < start {
		return text, nil, false, nil
	}
	expr := text[start+2 : end]
	total, _ := strconv.ParseFloat(expr, 64) // a number, as the dice engine writes it
	roll, _ := json.Marshal(map[string]any{"formula": expr, "total": total})
	return text[:start] + expr + text[end+2:], []json.RawMessage{roll}, false, nil
}

// wsEnv is a running server: public and host listeners, its service, hub
// and log.
type wsEnv struct {
	Svc    *engine.Service
	Store  *sqlite.Store
	Hub    *hub.Hub
	Public *httptest.Server
	Host   *httptest.Server
	Logs   *testkit.LogBuffer
	// ShapesUnchecked turns off the check of received frames against the
	// description, for a test that publishes frames of its own making.
	ShapesUnchecked bool
}

func NewWSEnv(t testing.TB, opts hub.Options) *wsEnv {
	t.Helper()
	st, err := sqlite.Open(filepath.Join(t.TempDir(), "companion.db"))
	if err != nil {
		t.Fatalf("open store: %v", err)
	}
	WsSeed(t, st)
	logs := &testkit.LogBuffer{}
	log := slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	bus := core.NewBus()
	svc := engine.NewService(engine.ServiceConfig{Store: st, Events: bus, Rules: WsRules{}, Roller: wsRoller{}})
	live := hub.New(svc, bus, log, opts)
	cfg := routes.Config{Service: svc, Hub: live, Log: log, DataDir: t.TempDir(), AllowOrigins: opts.AllowOrigins}
	e := &wsEnv{Svc: svc, Store: st, Hub: live, Logs: logs,
		Public: httptest.NewServer(routes.NewPublicHandler(cfg)),
		Host:   httptest.NewServer(routes.NewHostHandler(cfg))}
	t.Cleanup(func() {
		live.Close()
		e.Public.Close()
		e.Host.Close()
		st.Close()
	})
	return e
}

func WsSeed(t testing.TB, st *sqlite.Store) {
	t.Helper()
	now := time.Now().UTC()
	err := st.Update(context.Background(), func(tx core.Tx) error {
		c := &core.Campaign{ID: WsCampaign, Name: "Test", System: "test", Primary: true}
		c.Normalize()
		if err := tx.PutCampaign(c); err != nil {
			return err
		}
		m := &core.Map{ID: WsMapID, Name: "Cellar", Owner: WsCampaign, Walls: []core.Wall{
			{ID: "w-wall", Data: []float64{0, 0, 100, 0}},
			{ID: WsDoorID, Data: []float64{100, 0, 200, 0}, Type: core.WallDoor, Door: core.DoorClosed},
		}, Tokens: []*core.Token{
			{ID: WsTokenID, Name: "Hero", X: 10, Y: 20, MapID: WsMapID},
		}}
		if err := m.Normalize(); err != nil {
			return err
		}
		m.Tokens[0].Normalize()
		if err := tx.PutMap(m); err != nil {
			return err
		}
		if err := tx.PutScreen(WsCampaign, &core.Screen{MapID: WsMapID}); err != nil {
			return err // players see the map they play on
		}
		e := &core.Entity{ID: WsEntityID, Kind: "characters", System: "test", Name: "Hero", Owner: WsCampaign,
			Attributes: core.Object{"str": 16.0, "dex": 12.0}, Data: core.Object{"hp": 10.0}}
		if err := e.Normalize(now); err != nil {
			return err
		}
		if err := tx.PutEntity(e); err != nil {
			return err
		}
		tok := WsTokenID
		cb := &core.Combatant{ID: WsCombatant, Name: "Hero", Role: core.RoleFriendly, EntityID: WsEntityID, Campaign: WsCampaign, TokenID: &tok, Data: core.Object{"hp": 10.0}}
		cb.Normalize()
		return tx.PutCombatant(cb)
	})
	if err != nil {
		t.Fatalf("seed: %v", err)
	}
}

// WsURL is the WebSocket URL of a path on the public listener.
func (e *wsEnv) WsURL(path string) string {
	return "ws" + strings.TrimPrefix(e.Public.URL, "http") + path
}

// WsMsg is an envelope as a client receives it.
type WsMsg struct {
	Name       string          `json:"name"`
	Data       json.RawMessage `json:"data"`
	ResponseID json.RawMessage `json:"responseId"`
	RequestID  json.RawMessage `json:"requestId"`
}

func (m WsMsg) Decode(t testing.TB, v any) {
	t.Helper()
	if err := json.Unmarshal(m.Data, v); err != nil {
		t.Fatalf("%s: cannot decode data %s: %v", m.Name, m.Data, err)
	}
}

// WsClient is a real gorilla client whose reader goroutine queues every
// message it receives; ended reports how the connection ended.
type WsClient struct {
	t     testing.TB
	Conn  *websocket.Conn
	In    chan WsMsg
	ended chan error
	wmu   sync.Mutex
}

// Dial connects and reads in the background.
func (e *wsEnv) Dial(t testing.TB, path string, header http.Header) *WsClient {
	t.Helper()
	conn, resp, err := websocket.DefaultDialer.Dial(e.WsURL(path), header)
	if err != nil {
		status := 0
		if resp != nil {
			status = resp.StatusCode
		}
		t.Fatalf("dial %s: %v (status %d)", path, err, status)
	}
	c := &WsClient{t: t, Conn: conn, In: make(chan WsMsg, 4096), ended: make(chan error, 1)}
	// Every frame is checked against the description's events
	// (openapi_validate_test.go); mismatches are reported at the end.
	desc, checker := EventDescription(t), &frameChecker{off: e.ShapesUnchecked}
	t.Cleanup(func() { checker.report(t) })
	go func() {
		for {
			_, data, err := conn.ReadMessage()
			if err != nil {
				c.ended <- err
				close(c.In)
				return
			}
			var m WsMsg
			if err := json.Unmarshal(data, &m); err != nil {
				c.ended <- fmt.Errorf("server sent a frame that is not an envelope: %s", data)
				close(c.In)
				return
			}
			checker.check(desc, m)
			c.In <- m
		}
	}()
	t.Cleanup(func() { conn.Close() })
	return c
}

// Connect dials "/" and consumes the greeting (app, then its own
// clientConnected); it returns the client and its channel.
func (e *wsEnv) Connect(t testing.TB) (*WsClient, int) {
	t.Helper()
	c := e.Dial(t, "/", nil)
	if m := c.Next(); m.Name != core.EventApp {
		t.Fatalf("first message %s, want app", m.Name)
	}
	var cl core.Client
	c.WaitFor(core.EventClientConnected).Decode(t, &cl)
	return c, cl.Channel
}

// Send writes one envelope.
func (c *WsClient) Send(name string, data any, requestID string) {
	c.t.Helper()
	env := map[string]any{"name": name, "data": data}
	if requestID != "" {
		env["requestId"] = requestID
	}
	c.wmu.Lock()
	defer c.wmu.Unlock()
	if err := c.Conn.WriteJSON(env); err != nil {
		c.t.Fatalf("send %s: %v", name, err)
	}
}

// SendRaw writes one text frame as is.
func (c *WsClient) SendRaw(frame string) {
	c.t.Helper()
	c.wmu.Lock()
	defer c.wmu.Unlock()
	if err := c.Conn.WriteMessage(websocket.TextMessage, []byte(frame)); err != nil {
		c.t.Fatalf("send raw: %v", err)
	}
}

// Next returns the next message, failing after wsWait.
func (c *WsClient) Next() WsMsg {
	c.t.Helper()
	select {
	case m, ok := <-c.In:
		if !ok {
			c.t.Fatalf("connection ended while waiting for a message: %v", <-c.ended)
		}
		return m
	case <-time.After(WsWait):
		c.t.Fatalf("no message within %v", WsWait)
	}
	return WsMsg{}
}

// WaitFor skips messages until one named name arrives.
func (c *WsClient) WaitFor(name string) WsMsg {
	c.t.Helper()
	deadline := time.After(WsWait)
	var skipped []string
	for {
		select {
		case m, ok := <-c.In:
			if !ok {
				c.t.Fatalf("connection ended while waiting for %s (skipped %v): %v", name, skipped, <-c.ended)
			}
			if m.Name == name {
				return m
			}
			skipped = append(skipped, m.Name)
		case <-deadline:
			c.t.Fatalf("no %s within %v (got %v)", name, WsWait, skipped)
		}
	}
}

// Reply waits for the reply to requestID, skipping broadcasts.
func (c *WsClient) Reply(requestID string) WsMsg {
	c.t.Helper()
	want, _ := json.Marshal(requestID)
	deadline := time.After(WsWait)
	for {
		select {
		case m, ok := <-c.In:
			if !ok {
				c.t.Fatalf("connection ended while waiting for reply %s: %v", requestID, <-c.ended)
			}
			if bytes.Equal(m.ResponseID, want) {
				return m
			}
		case <-deadline:
			c.t.Fatalf("no reply to %s within %v", requestID, WsWait)
		}
	}
}

// ExpectNames reads the next len(names) messages and checks their names in order.
func (c *WsClient) ExpectNames(names ...string) []WsMsg {
	c.t.Helper()
	out := make([]WsMsg, len(names))
	for i, want := range names {
		out[i] = c.Next()
		if out[i].Name != want {
			c.t.Fatalf("message %d is %s (%s), want %s (sequence %v)", i, out[i].Name, out[i].Data, want, names)
		}
	}
	return out
}

// CloseEnd waits for the connection to end and returns the close error.
func (c *WsClient) CloseEnd() error {
	c.t.Helper()
	timeout := time.After(WsWait)
	for {
		select {
		case _, ok := <-c.In:
			if !ok {
				return <-c.ended
			}
		case <-timeout:
			c.t.Fatalf("connection still open after %v", WsWait)
		}
	}
}

// Mark publishes a sentinel through the service and waits until client c
// sees it: every event published before it has then been delivered.
func (e *wsEnv) Mark(t testing.TB, clients ...*WsClient) {
	t.Helper()
	e.Svc.Publish(core.Event{Name: core.EventReload, Data: map[string]any{"mark": true}})
	for _, c := range clients {
		if m := c.Next(); m.Name != core.EventReload {
			t.Fatalf("got %s (%s) before the mark: nothing else was expected", m.Name, m.Data)
		}
	}
}

// HttpJSON does a request and decodes a JSON answer into out (when not nil).
func HttpJSON(t testing.TB, method, url, body string, out any) int {
	t.Helper()
	req, _ := http.NewRequest(method, url, strings.NewReader(body))
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, url, err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	if out != nil {
		if err := json.Unmarshal(raw, out); err != nil {
			t.Fatalf("%s %s: %d %s: %v", method, url, resp.StatusCode, raw, err)
		}
	}
	return resp.StatusCode
}

func (e *wsEnv) Token(t testing.TB) *core.Token {
	t.Helper()
	tok, err := e.Svc.Token(context.Background(), WsTokenID)
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

// WaitClients waits until the hub lists n clients.
func (e *wsEnv) WaitClients(t testing.TB, n int) []core.Client {
	t.Helper()
	deadline := time.Now().Add(WsWait)
	for {
		cs := e.Hub.Clients()
		if len(cs) == n {
			return cs
		}
		if time.Now().After(deadline) {
			t.Fatalf("hub lists %d clients, want %d", len(cs), n)
		}
		time.Sleep(5 * time.Millisecond)
	}
}
