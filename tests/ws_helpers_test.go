package tests

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

	"github.com/gorilla/websocket"
	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/hub"
	"github.com/vttapp/companion/internal/testkit"
	"github.com/vttapp/companion/routes"
	"github.com/vttapp/companion/store/sqlite"
)

// The WebSocket end-to-end tests run the real handlers (routes.NewPublicHandler
// and NewHostHandler with the real hub) over a real SQLite store on
// loopback, and talk to them with real gorilla clients.

const (
	wsMapID     = "map-1"
	wsTokenID   = "tok-hero"
	wsDoorID    = "w-door"
	wsEntityID  = "ent-hero"
	wsCombatant = "cmb-hero"
	wsCampaign  = "camp-1"
	wsWait      = 5 * time.Second
)

// wsRules: characters are unique and share hp with their combatant.
type wsRules struct{}

func (wsRules) SystemID() string            { return "test" }
func (wsRules) IsUnique(kind string) bool   { return kind == "characters" }
func (wsRules) Ranges(kind string) []string { return []string{"hp"} }

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
	svc    *core.Service
	store  *sqlite.Store
	hub    *hub.Hub
	public *httptest.Server
	host   *httptest.Server
	logs   *testkit.LogBuffer
	// shapesUnchecked turns off the check of received frames against the
	// description, for a test that publishes frames of its own making.
	shapesUnchecked bool
}

func newWSEnv(t testing.TB, opts hub.Options) *wsEnv {
	t.Helper()
	st, err := sqlite.Open(filepath.Join(t.TempDir(), "companion.db"))
	if err != nil {
		t.Fatalf("open store: %v", err)
	}
	wsSeed(t, st)
	logs := &testkit.LogBuffer{}
	log := slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	bus := core.NewBus()
	svc := core.NewService(core.ServiceConfig{Store: st, Events: bus, Rules: wsRules{}, Roller: wsRoller{}})
	live := hub.New(svc, bus, log, opts)
	cfg := routes.Config{Service: svc, Hub: live, Log: log, DataDir: t.TempDir(), AllowOrigins: opts.AllowOrigins}
	e := &wsEnv{svc: svc, store: st, hub: live, logs: logs,
		public: httptest.NewServer(routes.NewPublicHandler(cfg)),
		host:   httptest.NewServer(routes.NewHostHandler(cfg))}
	t.Cleanup(func() {
		live.Close()
		e.public.Close()
		e.host.Close()
		st.Close()
	})
	return e
}

func wsSeed(t testing.TB, st *sqlite.Store) {
	t.Helper()
	now := time.Now().UTC()
	err := st.Update(context.Background(), func(tx core.Tx) error {
		c := &core.Campaign{ID: wsCampaign, Name: "Test", System: "test", Primary: true}
		c.Normalize()
		if err := tx.PutCampaign(c); err != nil {
			return err
		}
		m := &core.Map{ID: wsMapID, Name: "Cellar", Owner: wsCampaign, Walls: []core.Wall{
			{ID: "w-wall", Data: []float64{0, 0, 100, 0}},
			{ID: wsDoorID, Data: []float64{100, 0, 200, 0}, Type: core.WallDoor, Door: core.DoorClosed},
		}, Tokens: []*core.Token{
			{ID: wsTokenID, Name: "Hero", X: 10, Y: 20, MapID: wsMapID},
		}}
		if err := m.Normalize(); err != nil {
			return err
		}
		m.Tokens[0].Normalize()
		if err := tx.PutMap(m); err != nil {
			return err
		}
		if err := tx.PutScreen(wsCampaign, &core.Screen{MapID: wsMapID}); err != nil {
			return err // players see the map they play on
		}
		e := &core.Entity{ID: wsEntityID, Kind: "characters", System: "test", Name: "Hero", Owner: wsCampaign,
			Attributes: core.Object{"str": 16.0, "dex": 12.0}, Data: core.Object{"hp": 10.0}}
		if err := e.Normalize(now); err != nil {
			return err
		}
		if err := tx.PutEntity(e); err != nil {
			return err
		}
		tok := wsTokenID
		cb := &core.Combatant{ID: wsCombatant, Name: "Hero", Role: core.RoleFriendly, EntityID: wsEntityID, Campaign: wsCampaign, TokenID: &tok, Data: core.Object{"hp": 10.0}}
		cb.Normalize()
		return tx.PutCombatant(cb)
	})
	if err != nil {
		t.Fatalf("seed: %v", err)
	}
}

// wsURL is the WebSocket URL of a path on the public listener.
func (e *wsEnv) wsURL(path string) string {
	return "ws" + strings.TrimPrefix(e.public.URL, "http") + path
}

// wsMsg is an envelope as a client receives it.
type wsMsg struct {
	Name       string          `json:"name"`
	Data       json.RawMessage `json:"data"`
	ResponseID json.RawMessage `json:"responseId"`
	RequestID  json.RawMessage `json:"requestId"`
}

func (m wsMsg) decode(t testing.TB, v any) {
	t.Helper()
	if err := json.Unmarshal(m.Data, v); err != nil {
		t.Fatalf("%s: cannot decode data %s: %v", m.Name, m.Data, err)
	}
}

// wsClient is a real gorilla client whose reader goroutine queues every
// message it receives; ended reports how the connection ended.
type wsClient struct {
	t     testing.TB
	conn  *websocket.Conn
	in    chan wsMsg
	ended chan error
	wmu   sync.Mutex
}

// dial connects and reads in the background.
func (e *wsEnv) dial(t testing.TB, path string, header http.Header) *wsClient {
	t.Helper()
	conn, resp, err := websocket.DefaultDialer.Dial(e.wsURL(path), header)
	if err != nil {
		status := 0
		if resp != nil {
			status = resp.StatusCode
		}
		t.Fatalf("dial %s: %v (status %d)", path, err, status)
	}
	c := &wsClient{t: t, conn: conn, in: make(chan wsMsg, 4096), ended: make(chan error, 1)}
	// Every frame is checked against the description's events
	// (openapi_validate_test.go); mismatches are reported at the end.
	desc, checker := eventDescription(t), &frameChecker{off: e.shapesUnchecked}
	t.Cleanup(func() { checker.report(t) })
	go func() {
		for {
			_, data, err := conn.ReadMessage()
			if err != nil {
				c.ended <- err
				close(c.in)
				return
			}
			var m wsMsg
			if err := json.Unmarshal(data, &m); err != nil {
				c.ended <- fmt.Errorf("server sent a frame that is not an envelope: %s", data)
				close(c.in)
				return
			}
			checker.check(desc, m)
			c.in <- m
		}
	}()
	t.Cleanup(func() { conn.Close() })
	return c
}

// connect dials "/" and consumes the greeting (app, then its own
// clientConnected); it returns the client and its channel.
func (e *wsEnv) connect(t testing.TB) (*wsClient, int) {
	t.Helper()
	c := e.dial(t, "/", nil)
	if m := c.next(); m.Name != core.EventApp {
		t.Fatalf("first message %s, want app", m.Name)
	}
	var cl core.Client
	c.waitFor(core.EventClientConnected).decode(t, &cl)
	return c, cl.Channel
}

// send writes one envelope.
func (c *wsClient) send(name string, data any, requestID string) {
	c.t.Helper()
	env := map[string]any{"name": name, "data": data}
	if requestID != "" {
		env["requestId"] = requestID
	}
	c.wmu.Lock()
	defer c.wmu.Unlock()
	if err := c.conn.WriteJSON(env); err != nil {
		c.t.Fatalf("send %s: %v", name, err)
	}
}

// sendRaw writes one text frame as is.
func (c *wsClient) sendRaw(frame string) {
	c.t.Helper()
	c.wmu.Lock()
	defer c.wmu.Unlock()
	if err := c.conn.WriteMessage(websocket.TextMessage, []byte(frame)); err != nil {
		c.t.Fatalf("send raw: %v", err)
	}
}

// next returns the next message, failing after wsWait.
func (c *wsClient) next() wsMsg {
	c.t.Helper()
	select {
	case m, ok := <-c.in:
		if !ok {
			c.t.Fatalf("connection ended while waiting for a message: %v", <-c.ended)
		}
		return m
	case <-time.After(wsWait):
		c.t.Fatalf("no message within %v", wsWait)
	}
	return wsMsg{}
}

// waitFor skips messages until one named name arrives.
func (c *wsClient) waitFor(name string) wsMsg {
	c.t.Helper()
	deadline := time.After(wsWait)
	var skipped []string
	for {
		select {
		case m, ok := <-c.in:
			if !ok {
				c.t.Fatalf("connection ended while waiting for %s (skipped %v): %v", name, skipped, <-c.ended)
			}
			if m.Name == name {
				return m
			}
			skipped = append(skipped, m.Name)
		case <-deadline:
			c.t.Fatalf("no %s within %v (got %v)", name, wsWait, skipped)
		}
	}
}

// reply waits for the reply to requestID, skipping broadcasts.
func (c *wsClient) reply(requestID string) wsMsg {
	c.t.Helper()
	want, _ := json.Marshal(requestID)
	deadline := time.After(wsWait)
	for {
		select {
		case m, ok := <-c.in:
			if !ok {
				c.t.Fatalf("connection ended while waiting for reply %s: %v", requestID, <-c.ended)
			}
			if bytes.Equal(m.ResponseID, want) {
				return m
			}
		case <-deadline:
			c.t.Fatalf("no reply to %s within %v", requestID, wsWait)
		}
	}
}

// expectNames reads the next len(names) messages and checks their names in order.
func (c *wsClient) expectNames(names ...string) []wsMsg {
	c.t.Helper()
	out := make([]wsMsg, len(names))
	for i, want := range names {
		out[i] = c.next()
		if out[i].Name != want {
			c.t.Fatalf("message %d is %s (%s), want %s (sequence %v)", i, out[i].Name, out[i].Data, want, names)
		}
	}
	return out
}

// closeEnd waits for the connection to end and returns the close error.
func (c *wsClient) closeEnd() error {
	c.t.Helper()
	timeout := time.After(wsWait)
	for {
		select {
		case _, ok := <-c.in:
			if !ok {
				return <-c.ended
			}
		case <-timeout:
			c.t.Fatalf("connection still open after %v", wsWait)
		}
	}
}

// mark publishes a sentinel through the service and waits until client c
// sees it: every event published before it has then been delivered.
func (e *wsEnv) mark(t testing.TB, clients ...*wsClient) {
	t.Helper()
	e.svc.Publish(core.Event{Name: core.EventReload, Data: map[string]any{"mark": true}})
	for _, c := range clients {
		if m := c.next(); m.Name != core.EventReload {
			t.Fatalf("got %s (%s) before the mark: nothing else was expected", m.Name, m.Data)
		}
	}
}

// httpJSON does a request and decodes a JSON answer into out (when not nil).
func httpJSON(t testing.TB, method, url, body string, out any) int {
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

func (e *wsEnv) token(t testing.TB) *core.Token {
	t.Helper()
	tok, err := e.svc.Token(context.Background(), wsTokenID)
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

// waitClients waits until the hub lists n clients.
func (e *wsEnv) waitClients(t testing.TB, n int) []core.Client {
	t.Helper()
	deadline := time.Now().Add(wsWait)
	for {
		cs := e.hub.Clients()
		if len(cs) == n {
			return cs
		}
		if time.Now().After(deadline) {
			t.Fatalf("hub lists %d clients, want %d", len(cs), n)
		}
		time.Sleep(5 * time.Millisecond)
	}
}
