package guard

import (
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/vttapp/companion/internal/ratelog"
)

// DefaultMaxHTTPPerAddress caps the open HTTP connections from one remote
// address on the public listener (flag --max-http-per-address). A browser
// opens at most six to one server, so 16 leaves room for a second browser
// or a tool on the same device; more from one address is a client holding
// connections open (stalled bodies, each buffering up to --max-body), and
// without a cap it could hold as many as it likes. WebSocket connections
// leave the count once upgraded: the hub caps them on its own
// (--max-clients-per-address).
const DefaultMaxHTTPPerAddress = 16

// maxRefusing bounds the refused connections being answered at once; past
// it a refused connection is closed without an answer.
const maxRefusing = 64

// ConnLimiter caps the open HTTP connections of each remote address. Its
// Listener counts the connections it accepts and refuses those past the cap
// with a 503 {"message"} and a close; its ConnState (the http.Server hook)
// gives back the slot of a connection that closes or is hijacked. Loopback
// addresses are not counted, as for WebSockets: they are this machine.
type ConnLimiter struct {
	limit int
	log   *slog.Logger
	logs  *ratelog.Limiter

	mu       sync.Mutex
	open     map[netip.Addr]int
	counted  map[net.Conn]netip.Addr
	refusing atomic.Int32
}

// NewConnLimiter returns a limiter of limit connections per address
// (<= 0: DefaultMaxHTTPPerAddress).
func NewConnLimiter(limit int, log *slog.Logger) *ConnLimiter {
	if limit <= 0 {
		limit = DefaultMaxHTTPPerAddress
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &ConnLimiter{limit: limit, log: log, logs: ratelog.New(ratelog.DefaultEvery),
		open: map[netip.Addr]int{}, counted: map[net.Conn]netip.Addr{}}
}

// Listener returns ln with the cap applied; serve it with an http.Server
// whose ConnState is l.ConnState.
func (l *ConnLimiter) Listener(ln net.Listener) net.Listener {
	return &limitedListener{Listener: ln, limiter: l}
}

// ConnState releases the slot of a connection that closed or was hijacked.
func (l *ConnLimiter) ConnState(c net.Conn, state http.ConnState) {
	if state != http.StateClosed && state != http.StateHijacked {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	addr, ok := l.counted[c]
	if !ok {
		return
	}
	delete(l.counted, c)
	if l.open[addr] <= 1 {
		delete(l.open, addr)
	} else {
		l.open[addr]--
	}
}

// Open is how many connections from address are counted now (for tests and
// the load tool).
func (l *ConnLimiter) Open(address string) int {
	addr, err := netip.ParseAddr(address)
	if err != nil {
		return 0
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.open[addr.Unmap()]
}

// take counts c, or reports that its address is at the cap.
func (l *ConnLimiter) take(c net.Conn) bool {
	addr, ok := countedAddress(c.RemoteAddr())
	if !ok {
		return true
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.open[addr] >= l.limit {
		return false
	}
	l.open[addr]++
	l.counted[c] = addr
	return true
}

// countedAddress is the remote IP of a connection, unless it is loopback
// (or not an IP at all, as in some tests).
func countedAddress(a net.Addr) (netip.Addr, bool) {
	ap, err := netip.ParseAddrPort(a.String())
	if err != nil {
		return netip.Addr{}, false
	}
	ip := ap.Addr().Unmap()
	return ip, !ip.IsLoopback()
}

var refusedAnswer = func() []byte {
	body := `{"message":"too many connections from this address; close some and try again"}` + "\n"
	return []byte("HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json; charset=utf-8\r\n" +
		"Connection: close\r\nContent-Length: " + strconv.Itoa(len(body)) + "\r\n\r\n" + body)
}()

// refuse answers a connection past the cap and closes it, without holding
// up the accept loop: the answer is written and the request read away (so
// the close does not reset the answer) in a goroutine bounded in time.
func (l *ConnLimiter) refuse(c net.Conn) {
	if ok, leftOut := l.logs.Allow(); ok {
		l.log.Warn("http connection refused: too many from one address", "remote", c.RemoteAddr().String(),
			"max", l.limit, "refused since the last line", leftOut)
	}
	if l.refusing.Add(1) > maxRefusing {
		l.refusing.Add(-1)
		c.Close()
		return
	}
	go func() {
		defer l.refusing.Add(-1)
		defer c.Close()
		_ = c.SetDeadline(time.Now().Add(2 * time.Second))
		if _, err := c.Write(refusedAnswer); err != nil {
			return
		}
		if tc, ok := c.(interface{ CloseWrite() error }); ok {
			_ = tc.CloseWrite()
		}
		buf := make([]byte, 4<<10)
		for i := 0; i < 16; i++ { // read away at most 64 KiB of what the client sent
			if _, err := c.Read(buf); err != nil {
				return
			}
		}
	}()
}

type limitedListener struct {
	net.Listener
	limiter *ConnLimiter
}

func (ln *limitedListener) Accept() (net.Conn, error) {
	for {
		c, err := ln.Listener.Accept()
		if err != nil {
			return nil, err
		}
		if ln.limiter.take(c) {
			return c, nil
		}
		ln.limiter.refuse(c)
	}
}
