package routes

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/vttapp/companion/guard"
)

// The body rules of these tests: a body may be quiet 2 s, and must arrive
// at 1 KiB/s on average after its first 2 s. The honest sender below sends
// ten times faster; the attackers stall or trickle far below.
var testBodyTimes = guard.BodyTimes{Idle: 2 * time.Second, Grace: 2 * time.Second, MinRate: 1 << 10}

// postSlowly opens a connection and sends the headers of a POST
// /api/messages whose body is body, then calls send to write the body.
func postSlowly(t *testing.T, e *testEnv, length int, send func(w io.Writer)) net.Conn {
	t.Helper()
	conn, err := net.Dial("tcp", strings.TrimPrefix(e.srv.URL, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	fmt.Fprintf(conn, "POST /api/messages HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n", length)
	go send(conn)
	return conn
}

// cutWithin reads the connection until the server closes it, within limit
// (a generous bound, not a measure), and returns the status it answered,
// if any.
func cutWithin(t *testing.T, conn net.Conn, limit time.Duration) int {
	t.Helper()
	_ = conn.SetReadDeadline(time.Now().Add(limit))
	status := 0
	if resp, err := http.ReadResponse(bufio.NewReader(conn), nil); err == nil {
		status = resp.StatusCode
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
	}
	_, err := io.Copy(io.Discard, conn)
	if ne, ok := err.(net.Error); ok && ne.Timeout() {
		t.Fatalf("the connection is still open after %v", limit)
	}
	return status
}

// A body that stops (all but its end sent) or trickles (a byte every
// 300 ms) is cut: answered 408 and closed, and nothing is posted. Before,
// neither was ever cut.
func TestStalledAndTrickledBodiesAreCut(t *testing.T) {
	e := newEnv(t, envOptions{bodyTimes: testBodyTimes})
	body := `{"text":"should never be posted"` + strings.Repeat(" ", 64<<10) + `}`
	stalled := postSlowly(t, e, len(body), func(w io.Writer) { io.WriteString(w, body[:len(body)-1]) })
	trickled := postSlowly(t, e, len(body), func(w io.Writer) {
		for i := 0; i < len(body); i++ {
			if _, err := io.WriteString(w, body[i:i+1]); err != nil {
				return
			}
			time.Sleep(300 * time.Millisecond)
		}
	})
	for name, conn := range map[string]net.Conn{"stalled": stalled, "trickled": trickled} {
		if status := cutWithin(t, conn, 60*time.Second); status != http.StatusRequestTimeout {
			t.Errorf("%s body: answered %d before the close, want 408", name, status)
		}
	}
	if r := e.do(t, "GET", "/api", ""); strings.Contains(string(r.body), "should never be posted") {
		t.Error("a body that was cut was posted")
	}
}

// A body the handler never reads (a write refused before its body is
// looked at) is bounded too: the server reads it away after the answer,
// under the same rules.
func TestUnreadStalledBodyIsCut(t *testing.T) {
	e := newEnv(t, envOptions{bodyTimes: testBodyTimes})
	conn, err := net.Dial("tcp", strings.TrimPrefix(e.srv.URL, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	// 404: no such collection; 100 KiB announced, 10 sent.
	fmt.Fprintf(conn, "PUT /api/nothing-here/x HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 102400\r\n\r\n{\"a\":1234")
	cutWithin(t, conn, 60*time.Second)
}

// A slow but steady upload (a phone on a poor network) outlasts the grace
// and the idle time several times over, and arrives whole.
func TestSlowSteadyBodyArrives(t *testing.T) {
	e := newEnv(t, envOptions{bodyTimes: testBodyTimes})
	body := `{"text":"a slow phone"` + strings.Repeat(" ", 60<<10) + `}`
	conn := postSlowly(t, e, len(body), func(w io.Writer) {
		for i := 0; i < len(body); i += 1 << 10 { // 10 KiB/s for 6 s
			end := min(i+1<<10, len(body))
			if _, err := io.WriteString(w, body[i:end]); err != nil {
				return
			}
			time.Sleep(100 * time.Millisecond)
		}
	})
	_ = conn.SetReadDeadline(time.Now().Add(2 * time.Minute))
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusCreated && resp.StatusCode != http.StatusOK {
		data, _ := io.ReadAll(resp.Body)
		t.Fatalf("status %d: %s", resp.StatusCode, data)
	}
	if r := e.do(t, "GET", "/api", ""); !strings.Contains(string(r.body), "a slow phone") {
		t.Error("the message is not in the snapshot")
	}
}
