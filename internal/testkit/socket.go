package testkit

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"
)

// Envelope is a message a test socket received.
type Envelope struct {
	Name       string          `json:"name"`
	Data       json.RawMessage `json:"data"`
	ResponseID json.RawMessage `json:"responseId,omitempty"`
}

// Socket is a WebSocket client whose reader goroutine decodes every
// message into In, so a test can wait for one without blocking the server.
type Socket struct {
	t    testing.TB
	Conn *websocket.Conn
	In   chan Envelope
}

// Dial opens a WebSocket to url (http:// or https://, turned into ws://)
// and fails the test when the upgrade is refused. The socket closes with
// the test.
func Dial(t testing.TB, url string, header http.Header) *Socket {
	t.Helper()
	conn, resp, err := websocket.DefaultDialer.Dial("ws"+strings.TrimPrefix(url, "http"), header)
	if err != nil {
		status := 0
		if resp != nil {
			status = resp.StatusCode
		}
		t.Fatalf("dial %s: %v (status %d)", url, err, status)
	}
	s := &Socket{t: t, Conn: conn, In: make(chan Envelope, 4096)}
	go func() {
		defer close(s.In)
		for {
			_, data, err := conn.ReadMessage()
			if err != nil {
				return
			}
			var env Envelope
			if json.Unmarshal(data, &env) == nil {
				s.In <- env
			}
		}
	}()
	t.Cleanup(func() { conn.Close() })
	return s
}

// Send writes {"name": name, "data": data}; data is JSON text.
func (s *Socket) Send(name, data string) {
	s.t.Helper()
	if err := s.Conn.WriteMessage(websocket.TextMessage, []byte(`{"name":"`+name+`","data":`+data+`}`)); err != nil {
		s.t.Fatal(err)
	}
}

// WaitFor returns the first envelope named name whose data contains every
// part, failing the test after within. seen, when not nil, is shown every
// envelope read meanwhile, so a caller can check that something never came.
func (s *Socket) WaitFor(within time.Duration, seen func(Envelope), name string, parts ...string) Envelope {
	s.t.Helper()
	timeout := time.After(within)
	for {
		select {
		case env, ok := <-s.In:
			if !ok {
				s.t.Fatalf("socket closed waiting for %s %v", name, parts)
			}
			if seen != nil {
				seen(env)
			}
			if env.Name == name && containsAll(string(env.Data), parts) {
				return env
			}
		case <-timeout:
			s.t.Fatalf("no %s with %v within %v", name, parts, within)
		}
	}
}

func containsAll(s string, parts []string) bool {
	for _, p := range parts {
		if !strings.Contains(s, p) {
			return false
		}
	}
	return true
}

// SendJSON writes v as one JSON frame.
func (s *Socket) SendJSON(v any) {
	s.t.Helper()
	if err := s.Conn.WriteJSON(v); err != nil {
		s.t.Fatal(err)
	}
}

// AwaitReply returns the envelope answering the string requestID, failing
// the test after within; seen, when not nil, is shown every envelope read
// before it.
func (s *Socket) AwaitReply(within time.Duration, requestID string, seen func(Envelope)) Envelope {
	s.t.Helper()
	want, _ := json.Marshal(requestID)
	timeout := time.After(within)
	for {
		select {
		case env, ok := <-s.In:
			if !ok {
				s.t.Fatalf("socket closed waiting for the reply to %s", requestID)
			}
			if string(env.ResponseID) == string(want) {
				return env
			}
			if seen != nil {
				seen(env)
			}
		case <-timeout:
			s.t.Fatalf("no reply to %s within %v", requestID, within)
		}
	}
}

// T is the test the socket belongs to.
func (s *Socket) T() testing.TB { return s.t }
