package routes

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gorilla/websocket"
	"github.com/vttapp/companion/dice"
	"github.com/vttapp/companion/hub"
	"github.com/vttapp/companion/internal/testkit"
)

// Devices of the table on their own addresses, on this machine: a client
// dials from 127.0.0.N (every address of 127/8 is this machine's) and the
// server sees it coming from 10.9.0.N, a LAN address, so that the limits
// counted per address (which leave loopback alone) apply to it.

// lanListener maps the loopback source address of each connection to the
// LAN address it stands for.
type lanListener struct{ net.Listener }

func (l lanListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	remote, ok := c.RemoteAddr().(*net.TCPAddr)
	if !ok || remote.IP.To4() == nil || remote.IP.To4()[3] <= 1 {
		return c, nil // 127.0.0.1: this machine
	}
	lan := &net.TCPAddr{IP: net.IPv4(10, 9, 0, remote.IP.To4()[3]), Port: remote.Port}
	return &claimedConn{Conn: c, remote: lan}, nil
}

// lanEnv is a public handler with its hub, its listener on lanListener.
type lanEnv struct {
	*seatEnv
}

func newLANEnv(t *testing.T) *lanEnv {
	t.Helper()
	g := testkit.NewGame(t, testkit.GameOptions{Roller: dice.NewSeededRoller(5)})
	live := hub.New(g.Service, g.Bus, g.Log, hub.Options{})
	srv := httptest.NewUnstartedServer(NewPublicHandler(Config{Service: g.Service, Hub: live, Systems: g.Holder, DataDir: g.DataDir, Log: g.Log}))
	srv.Listener = lanListener{srv.Listener}
	srv.Start()
	t.Cleanup(func() { live.Close(); srv.Close() })
	return &lanEnv{&seatEnv{testEnv: &testEnv{srv: srv, svc: g.Service, store: g.Store, events: g.Events, dataDir: g.DataDir, logs: g.Logs, holder: g.Holder}, hub: live}}
}

// device is one device of the table: its HTTP client and WebSocket dialer
// dial from 127.0.0.n, which the server sees as 10.9.0.n.
type device struct {
	env    *lanEnv
	n      byte
	client *http.Client
	dialer *websocket.Dialer
}

func (e *lanEnv) device(n byte) *device {
	d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.IPv4(127, 0, 0, n)}}
	dial := func(ctx context.Context, network, addr string) (net.Conn, error) {
		return d.DialContext(ctx, network, addr)
	}
	return &device{env: e, n: n,
		client: &http.Client{Transport: &http.Transport{DialContext: dial, DisableKeepAlives: true},
			CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }},
		dialer: &websocket.Dialer{NetDialContext: dial}}
}

// do sends one request from the device; headers are pairs.
func (d *device) do(t testing.TB, method, path, body string, headers ...string) reply {
	t.Helper()
	return doWith(t, d.client, d.env.srv.URL, method, path, body, headers...)
}

// dial opens the device's WebSocket, or returns the refusal.
func (d *device) dial(t testing.TB, headers ...string) (*websocket.Conn, *http.Response, error) {
	t.Helper()
	h := http.Header{}
	for i := 0; i+1 < len(headers); i += 2 {
		h.Set(headers[i], headers[i+1])
	}
	ws, resp, err := d.dialer.Dial("ws"+strings.TrimPrefix(d.env.srv.URL, "http")+"/ws", h)
	if err == nil {
		t.Cleanup(func() { ws.Close() })
	}
	return ws, resp, err
}

// pass opens the players' link with key from the device and returns the
// pass it is given ("" when refused); cookies are pairs it sends along.
func (d *device) pass(t testing.TB, key string, headers ...string) (string, reply) {
	t.Helper()
	r := d.do(t, "GET", "/client/?key="+key, "", headers...)
	for _, c := range (&http.Response{Header: r.header}).Cookies() {
		if c.Name == passCookie {
			return c.Value, r
		}
	}
	return "", r
}
