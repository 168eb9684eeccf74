package routes

import (
	"bufio"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vttapp/companion/guard"
	"github.com/vttapp/companion/internal/testkit"
)

// fromAddress is a loopback listener whose connections claim to come from
// another machine (the tests cannot dial from a LAN address), or, for
// loopback, from this one.
type fromAddress struct {
	net.Listener
	mu   sync.Mutex
	next []string // remote address of each next connection
}

type claimedConn struct {
	net.Conn
	remote net.Addr
}

func (c *claimedConn) RemoteAddr() net.Addr { return c.remote }

func (l *fromAddress) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	addr := l.next[0]
	l.next = l.next[1:]
	remote, _ := net.ResolveTCPAddr("tcp", addr)
	return &claimedConn{Conn: c, remote: remote}, nil
}

// dialAs opens a connection the server sees from addr.
func (l *fromAddress) dialAs(t *testing.T, addr string) net.Conn {
	t.Helper()
	l.mu.Lock()
	l.next = append(l.next, addr)
	l.mu.Unlock()
	c, err := net.Dial("tcp", l.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// One address may hold guard.DefaultMaxHTTPPerAddress connections open; the next
// is answered 503 and closed, while another address and loopback are
// served. A connection that ends gives its slot back. Before, one address
// could hold any number of stalled bodies.
func TestHTTPConnectionsPerAddressAreCapped(t *testing.T) {
	e := newEnv(t, envOptions{})
	logs := &testkit.LogBuffer{}
	limiter := guard.NewConnLimiter(0, slog.New(slog.NewTextHandler(logs, nil)))
	raw, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ln := &fromAddress{Listener: raw}
	srv := &http.Server{Handler: e.srv.Config.Handler, ConnState: limiter.ConnState}
	go srv.Serve(limiter.Listener(ln))
	t.Cleanup(func() { srv.Close() })

	// Each holds a write whose body has not all arrived.
	stall := func(c net.Conn) {
		fmt.Fprintf(c, "POST /api/messages HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{")
	}
	var held []net.Conn
	for range guard.DefaultMaxHTTPPerAddress {
		c := ln.dialAs(t, "10.1.2.3:40000")
		stall(c)
		held = append(held, c)
	}
	waitFor(t, func() bool { return limiter.Open("10.1.2.3") == guard.DefaultMaxHTTPPerAddress })

	refused := ln.dialAs(t, "10.1.2.3:40001")
	_ = refused.SetReadDeadline(time.Now().Add(30 * time.Second))
	resp, err := http.ReadResponse(bufio.NewReader(refused), nil)
	if err != nil {
		t.Fatalf("the connection past the cap got no answer: %v", err)
	}
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusServiceUnavailable || !strings.Contains(string(body), `"message"`) {
		t.Errorf("past the cap: %d %s, want 503 {\"message\"}", resp.StatusCode, body)
	}
	if !strings.Contains(logs.String(), "too many from one address") {
		t.Errorf("the refusal is not logged:\n%s", logs.String())
	}

	for _, addr := range []string{"10.1.2.4:40000", "127.0.0.1:40000", "[::1]:40000"} {
		c := ln.dialAs(t, addr)
		fmt.Fprintf(c, "GET /api HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
		_ = c.SetReadDeadline(time.Now().Add(30 * time.Second))
		if resp, err := http.ReadResponse(bufio.NewReader(c), nil); err != nil || resp.StatusCode != http.StatusOK {
			t.Errorf("from %s: %v %v", addr, resp, err)
		}
	}

	held[0].Close()
	waitFor(t, func() bool { return limiter.Open("10.1.2.3") == guard.DefaultMaxHTTPPerAddress-1 })
	again := ln.dialAs(t, "10.1.2.3:40002")
	fmt.Fprintf(again, "GET /api HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
	_ = again.SetReadDeadline(time.Now().Add(30 * time.Second))
	if resp, err := http.ReadResponse(bufio.NewReader(again), nil); err != nil || resp.StatusCode != http.StatusOK {
		t.Errorf("after one closed: %v %v", resp, err)
	}
}

// A WebSocket leaves the HTTP count once upgraded (the hub caps those), so
// a device's sockets do not use up its HTTP connections.
func TestUpgradedConnectionsLeaveTheHTTPCount(t *testing.T) {
	limiter := guard.NewConnLimiter(2, nil)
	raw, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ln := &fromAddress{Listener: raw}
	hijacked := make(chan net.Conn, 8)
	srv := &http.Server{ConnState: limiter.ConnState, Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, _, err := http.NewResponseController(w).Hijack()
		if err == nil {
			hijacked <- c
		}
	})}
	go srv.Serve(limiter.Listener(ln))
	t.Cleanup(func() { srv.Close() })
	for i := range 5 {
		c := ln.dialAs(t, "10.9.9.9:1000")
		fmt.Fprintf(c, "GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
		select {
		case h := <-hijacked:
			defer h.Close()
		case <-time.After(30 * time.Second):
			t.Fatalf("connection %d was not served (open: %d)", i+1, limiter.Open("10.9.9.9"))
		}
	}
	waitFor(t, func() bool { return limiter.Open("10.9.9.9") == 0 })
}

func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); !cond(); {
		if time.Now().After(deadline) {
			t.Fatal("condition not met within 30 s")
		}
		time.Sleep(5 * time.Millisecond)
	}
}
