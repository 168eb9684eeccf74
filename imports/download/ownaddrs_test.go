package download

import (
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// The check on the connection itself, below every check of the URL's
// text (a name that does not give this server away, a client that dials
// for itself): a connection to one of this server's listener ports on
// this machine is refused once made, whatever address form reaches it;
// another port is not.
func TestTheDialerNeverConnectsToThisServer(t *testing.T) {
	own := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		t.Errorf("this server's own listener got %s %s", r.Method, r.URL)
	}))
	defer own.Close()
	other := httptest.NewServer(http.NotFoundHandler())
	defer other.Close()
	f := NewFetcher(own.Client(), "", []net.Addr{own.Listener.Addr()})
	rt := f.client().Transport.(*http.Transport)
	_, port, _ := net.SplitHostPort(own.Listener.Addr().String())
	for _, addr := range []string{own.Listener.Addr().String(), "localhost:" + port, "127.0.0.1:" + port, "0.0.0.0:" + port} {
		if c, err := rt.DialContext(t.Context(), "tcp", addr); err == nil || !strings.Contains(err.Error(), "own address") {
			if c != nil {
				c.Close()
			}
			t.Errorf("dialing %s: %v, want the refusal naming this server's own address", addr, err)
		}
	}
	c, err := rt.DialContext(t.Context(), "tcp", other.Listener.Addr().String())
	if err != nil {
		t.Fatalf("another server on this machine: %v", err)
	}
	c.Close()
}
