package hub

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"
	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/internal/testkit"
)

// One address cannot take every WebSocket slot: past
// MaxConnectionsPerAddress its upgrades are refused 503 {"message"} while
// other addresses still connect; a slot it frees is taken again. Loopback
// (this machine) is not counted.
func TestWSConnectionsPerAddressAreCapped(t *testing.T) {
	g := testkit.NewGame(t, testkit.GameOptions{})
	hub := New(g.Service, core.NewBus(), nil, Options{MaxConnectionsPerAddress: 2})
	t.Cleanup(hub.Close)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// The test's connections all come from 127.0.0.1: the header
		// says which LAN address each one plays.
		if as := r.Header.Get("X-Test-Address"); as != "" {
			r.RemoteAddr = as + ":40000"
		}
		hub.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	url := "ws" + strings.TrimPrefix(srv.URL, "http") + "/"
	dial := func(address string) (*websocket.Conn, *http.Response, error) {
		h := http.Header{}
		if address != "" {
			h.Set("X-Test-Address", address)
		}
		ws, resp, err := websocket.DefaultDialer.Dial(url, h)
		if err == nil {
			t.Cleanup(func() { ws.Close() })
		}
		return ws, resp, err
	}
	first, _, err := dial("192.168.1.50")
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := dial("192.168.1.50"); err != nil {
		t.Fatal(err)
	}
	_, resp, err := dial("192.168.1.50")
	if err == nil || resp == nil || resp.StatusCode != http.StatusServiceUnavailable {
		t.Fatalf("third connection from one address: %v %+v, want 503", err, resp)
	}
	body, _ := io.ReadAll(resp.Body)
	var msg map[string]string
	if json.Unmarshal(body, &msg) != nil || len(msg) != 1 || !strings.Contains(msg["message"], "192.168.1.50") {
		t.Fatalf("503 body %s", body)
	}
	if _, _, err := dial("192.168.1.51"); err != nil {
		t.Fatalf("another address: %v", err)
	}
	for i := range 5 {
		if _, _, err := dial(""); err != nil {
			t.Fatalf("loopback connection %d: %v", i, err)
		}
	}
	first.Close()
	deadline := time.Now().Add(5 * time.Second)
	for {
		_, _, err := dial("192.168.1.50")
		if err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the freed slot was not given back: %v", err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
