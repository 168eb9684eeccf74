package hub

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/gorilla/websocket"
	"github.com/vttapp/companion/internal/testkit"
)

// FuzzHubFrame sends arbitrary bytes as one client frame, on a player's
// connection and on the host console's, and holds the hub to what the
// protocol promises (dispatch.go): no panic, no hang (a request sent after
// the frame is answered within 10 s, room for a busy machine), the
// connection stays open, and the
// frame is answered with a clear error envelope (a message and a kind that
// is not "internal"), a reply, or nothing; a frame naming no client event
// is answered with nothing at all (contract 6.2).
func FuzzHubFrame(f *testing.F) {
	for _, seed := range hubFrameSeeds() {
		f.Add(seed)
	}
	env := newFuzzHub(f)
	f.Fuzz(func(t *testing.T, frame []byte) {
		if len(frame) > 64<<10 {
			return // the size limit is its own test (TestWSMessageSizeBoundary)
		}
		for _, s := range env.sockets {
			s.check(t, frame)
		}
		if logs := env.logs.String(); strings.Contains(logs, "panic") {
			t.Fatalf("a frame made a handler panic: %q\n%s", frame, logs)
		}
	})
}

// hubFrameSeeds are a frame for each client event with a payload it acts
// on, the same with payloads of the wrong shape, and frames that are not
// envelopes at all.
func hubFrameSeeds() [][]byte {
	tok := testkit.TokenA
	good := map[string]string{
		"clientUpdated":         `{"name":"Ann","color":"#abc","tokenId":"` + testkit.TokenB + `"}`,
		"mapViewportUpdated":    `{"id":"` + testkit.MapID + `","x":10,"y":20,"zoom":1.5}`,
		"tokenMoved":            `{"id":"` + tok + `","x":100,"y":80,"state":0}`,
		"updateDoor":            `{"id":"door","state":"open"}`,
		"pointerUpdated":        `{"id":"p","x":3,"y":4,"state":"control"}`,
		"updateToken":           `{"id":"` + tok + `","name":"Renamed"}`,
		"updateEntity":          `{"id":"` + testkit.GoblinID + `","name":"Goblin boss"}`,
		"updateCombatant":       `{"id":"` + testkit.HeroCombatID + `","name":"Hero"}`,
		"createMessage":         `{"text":"/r 1d20+5 [[2d6]]"}`,
		"getAttribute":          `{"id":"` + testkit.HeroID + `","name":"str"}`,
		"setAttribute":          `{"id":"` + testkit.HeroID + `","name":"str","value":12}`,
		"trackedObjectCreated":  `{"id":"o1","x":1,"y":2,"contour":[0,0,1,1]}`,
		"trackedObjectUpdated":  `[{"id":"o1","x":3,"y":4}]`,
		"trackedObjectDeleted":  `{"id":"o1"}`,
		"trackedObjectsUpdated": `[]`,
		"createEntity":          `{"name":"x"}`,
		"takeSeat":              `{"seatId":"` + testkit.HeroID + `","player":"Ann"}`,
		"leaveSeat":             `{}`,
		"setRole":               `{"role":"spectator"}`,
		"getCharacter":          `{}`,
		"updateCharacter":       `{"data":{"max_hit_points":40}}`,
		"changeHitPoints":       `{"damage":3}`,
		"rollAction":            `{"action":"check-str","options":["advantage"]}`,
		"rollInitiative":        `{}`,
		"endTurn":               `{}`,
		"ping":                  `null`,
	}
	names := make([]string, 0, len(clientEvents))
	for name := range clientEvents {
		names = append(names, name)
	}
	slices.Sort(names)
	var seeds [][]byte
	for i, name := range names {
		for _, data := range []string{good[name], `null`, `[]`, `"x"`, `{"id":7,"state":"nowhere"}`} {
			if data == "" {
				continue
			}
			seeds = append(seeds, []byte(`{"name":"`+name+`","requestId":`+strconv.Itoa(i)+`,"data":`+data+`}`))
		}
	}
	for _, s := range []string{
		``, `{`, `null`, `[]`, `"tokenMoved"`, `{"name":1}`, `{"name":""}`, `{"name":"gameUpdated","requestId":"r","data":{}}`,
		`{"name":"tokenMoved","requestId":null,"data":{"id":"` + tok + `","state":9}}`,
		`{"name":"createMessage","requestId":"r","data":{"text":"bad \xff"}}`,
		`{"requestId":"r" "name":"tokenMoved"}`,
	} {
		seeds = append(seeds, []byte(s))
	}
	return seeds
}

// fuzzHub is one hub over the fixture campaign with a player's and the
// host console's connection, shared by every input of one fuzzing
// process. The flood limits are lifted: a fuzzer sends faster than any
// person, and a rate-limited answer would hide what the frame does.
type fuzzHub struct {
	sockets []*fuzzSocket
	logs    *testkit.LogBuffer
}

func newFuzzHub(tb testing.TB) *fuzzHub {
	g := testkit.NewGame(tb, testkit.GameOptions{})
	h := New(g.Service, g.Bus, g.Log, Options{RequestRate: -1, StreamRate: -1})
	mux := http.NewServeMux()
	mux.HandleFunc("/host", h.ServeHost)
	mux.Handle("/", h)
	srv := httptest.NewServer(mux)
	tb.Cleanup(func() { h.Close(); srv.Close() })
	env := &fuzzHub{logs: g.Logs}
	for _, path := range []string{"/", "/host"} {
		env.sockets = append(env.sockets, dialFuzzSocket(tb, srv.URL+path))
	}
	return env
}

// fuzzSocket is a connection whose reader hands every envelope to in.
type fuzzSocket struct {
	path   string
	ws     *websocket.Conn
	in     chan fuzzEnvelope
	probes int
}

type fuzzEnvelope struct {
	Name       string          `json:"name"`
	Data       json.RawMessage `json:"data"`
	ResponseID json.RawMessage `json:"responseId"`
	raw        []byte
}

func dialFuzzSocket(tb testing.TB, url string) *fuzzSocket {
	ws, _, err := websocket.DefaultDialer.Dial("ws"+strings.TrimPrefix(url, "http"), nil)
	if err != nil {
		tb.Fatalf("dial %s: %v", url, err)
	}
	s := &fuzzSocket{path: url, ws: ws, in: make(chan fuzzEnvelope, 4096)}
	go func() {
		defer close(s.in)
		for {
			_, data, err := ws.ReadMessage()
			if err != nil {
				return
			}
			var env fuzzEnvelope
			if json.Unmarshal(data, &env) != nil {
				env = fuzzEnvelope{Name: "\x00not JSON"}
			}
			env.raw = data
			s.in <- env
		}
	}()
	tb.Cleanup(func() { ws.Close() })
	return s
}

// check sends frame, then a probe request, and reads up to the probe's
// answer: what came before it is the frame's doing (and broadcasts).
func (s *fuzzSocket) check(t *testing.T, frame []byte) {
	t.Helper()
	s.probes++
	probe := `"probe-` + strconv.Itoa(s.probes) + `"`
	if err := s.ws.WriteMessage(websocket.TextMessage, frame); err != nil {
		t.Fatalf("%s: writing the frame: %v", s.path, err)
	}
	if err := s.ws.WriteMessage(websocket.TextMessage, []byte(`{"name":"mapViewportUpdated","requestId":`+probe+`,"data":{"x":0}}`)); err != nil {
		t.Fatalf("%s: writing the probe after %q: %v", s.path, frame, err)
	}
	silent := namesNoEvent(frame)
	timeout := time.After(10 * time.Second)
	for {
		select {
		case env, ok := <-s.in:
			if !ok {
				t.Fatalf("%s: the connection closed after the frame %q", s.path, frame)
			}
			if env.Name == "\x00not JSON" || env.Name == "" {
				t.Fatalf("%s: the frame %q was answered with %q, not an envelope", s.path, frame, env.raw)
			}
			if string(env.ResponseID) == probe {
				return
			}
			answer := len(env.ResponseID) > 0 || env.Name == errorEvent
			if answer && silent {
				t.Fatalf("%s: a frame naming no client event (%q) was answered %s", s.path, frame, env.raw)
			}
			if env.Name == errorEvent {
				checkErrorEnvelope(t, s.path, frame, env)
			}
		case <-timeout:
			t.Fatalf("%s: no answer to a request within 10 s after the frame %q: the connection hangs", s.path, frame)
		}
	}
}

// checkErrorEnvelope holds an error reply to its documented shape: data
// {message, kind[, request]}, a message for a person and a kind a client
// can act on; "internal" would be a bug (bad input gets a clear error).
func checkErrorEnvelope(t *testing.T, path string, frame []byte, env fuzzEnvelope) {
	t.Helper()
	var d struct {
		Message string `json:"message"`
		Kind    string `json:"kind"`
	}
	if err := json.Unmarshal(env.Data, &d); err != nil || strings.TrimSpace(d.Message) == "" {
		t.Fatalf("%s: the frame %q got an error without a message: %s", path, frame, env.raw)
	}
	switch d.Kind {
	case "invalid", "not found", "conflict", "too large", "forbidden", kindRateLimited:
	default:
		t.Fatalf("%s: the frame %q got an error of kind %q: %s", path, frame, d.Kind, env.raw)
	}
}

// namesNoEvent reports a frame that is a well-formed envelope whose name
// has no client event to act on it (no row, or a row that only parses):
// contract 6.2 has the hub ignore it, with no answer.
func namesNoEvent(frame []byte) bool {
	var env inEnvelope
	if !utf8.Valid(frame) || json.Unmarshal(frame, &env) != nil || env.Name == "" {
		return false // refused before the name is read
	}
	ev := clientEvents[env.Name]
	return ev == nil || ev.player == nil
}
