package api

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/vttapp/companion/tests/e2e"
)

// lanAddress is a non-loopback address of this machine, to connect from
// as another device would (loopback is not counted by the per-address cap).
func lanAddress(t *testing.T) string {
	t.Helper()
	addrs, err := net.InterfaceAddrs()
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range addrs {
		if ipn, ok := a.(*net.IPNet); ok && ipn.IP.To4() != nil && !ipn.IP.IsLoopback() && !ipn.IP.IsLinkLocalUnicast() {
			return ipn.IP.String()
		}
	}
	t.Skip("this machine has no non-loopback IPv4 address to connect from")
	return ""
}

// stalledPost sends all but the last byte of a POST /api/messages of size
// bytes, and returns the connection.
func stalledPost(t *testing.T, addr string, size int) net.Conn {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	host, _, _ := net.SplitHostPort(addr)
	fmt.Fprintf(c, "POST /api/messages HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n", host, size)
	go func() {
		body := `{"text":"stalled"` + strings.Repeat(" ", size-len(`{"text":"stalled"}`)) + `}`
		io.WriteString(c, body[:size-1])
	}()
	return c
}

// closedWithin waits until the server closes c, within limit (a generous
// bound, not a measure), and returns the status answered first, if any.
func closedWithin(t *testing.T, c net.Conn, limit time.Duration) int {
	t.Helper()
	_ = c.SetReadDeadline(time.Now().Add(limit))
	status := 0
	if resp, err := http.ReadResponse(bufio.NewReader(c), nil); err == nil {
		status = resp.StatusCode
		io.Copy(io.Discard, resp.Body)
	}
	if _, err := io.Copy(io.Discard, c); err != nil {
		if ne, ok := err.(net.Error); ok && ne.Timeout() {
			t.Fatalf("the connection is still open after %v", limit)
		}
	}
	return status
}

// Stalled uploads no longer hold the server: a body that stops before its
// end, or trickles a byte every 2 s, is cut (408, closed) by the pace
// rules of routes/bodytime.go; one address can hold at most
// --max-http-per-address connections, the next is answered 503; and once
// the stalled ones are cut, the address is served again. Before, none of
// them was ever cut and one address could open any number.
func TestStalledUploadsAreCutAndCappedPerAddress(t *testing.T) {
	lan := lanAddress(t)
	port := strings.TrimPrefix(e2e.FreeAddr(t), "127.0.0.1:")
	srv := e2e.StartServer(t, e2e.ServerOptions{Addr: "0.0.0.0:" + port, Args: []string{"--max-http-per-address", "3"}})
	fromLAN := net.JoinHostPort(lan, port)

	var stalled []net.Conn
	for range 3 {
		stalled = append(stalled, stalledPost(t, fromLAN, 1<<20))
	}
	time.Sleep(200 * time.Millisecond) // the three are accepted before the fourth
	if status := closedWithin(t, stalledPost(t, fromLAN, 1<<20), 30*time.Second); status != http.StatusServiceUnavailable {
		t.Errorf("a fourth connection from one address: status %d, want 503", status)
	}

	trickle, err := net.Dial("tcp", "127.0.0.1:"+port)
	if err != nil {
		t.Fatal(err)
	}
	defer trickle.Close()
	fmt.Fprintf(trickle, "POST /api/messages HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n")
	go func() {
		for i := 0; i < 1000; i++ {
			if _, err := trickle.Write([]byte(" ")); err != nil {
				return
			}
			time.Sleep(2 * time.Second)
		}
	}()

	for i, c := range append(stalled, trickle) {
		if status := closedWithin(t, c, 90*time.Second); status != http.StatusRequestTimeout {
			t.Errorf("connection %d: answered %d before the close, want 408", i, status)
		}
	}
	c, err := net.Dial("tcp", fromLAN)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	fmt.Fprintf(c, "GET /api HTTP/1.1\r\nHost: %s\r\n\r\n", lan)
	_ = c.SetReadDeadline(time.Now().Add(30 * time.Second))
	if resp, err := http.ReadResponse(bufio.NewReader(c), nil); err != nil || resp.StatusCode != http.StatusOK {
		t.Errorf("the address after its stalled uploads were cut: %v %v", resp, err)
	}
	if len(srv.Lines("too many from one address")) == 0 {
		t.Error("the refusal is not logged")
	}
}
