package imports

import (
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/vttapp/companion/imports/download"
)

// countingListener counts the connections it accepts.
type countingListener struct {
	net.Listener
	accepted atomic.Int64
}

func (l *countingListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err == nil {
		l.accepted.Add(1)
	}
	return c, err
}

// ownServer stands for one of this server's listeners: on every IPv4
// address of the machine, and on IPv6 loopback at the same port when the
// machine has it. It serves a valid manifest, so that only the guard can
// make an offer of it fail.
func ownServer(t *testing.T, manifest []byte) (port string, accepted func() int64, addrs []net.Addr) {
	t.Helper()
	ln, err := net.Listen("tcp4", "0.0.0.0:0")
	if err != nil {
		t.Fatal(err)
	}
	port = strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
	counting := []*countingListener{{Listener: ln}}
	if ln6, err := net.Listen("tcp6", "[::1]:"+port); err == nil {
		counting = append(counting, &countingListener{Listener: ln6})
	}
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write(manifest) })
	for _, l := range counting {
		srv := &http.Server{Handler: h}
		go srv.Serve(l)
		t.Cleanup(func() { srv.Close() })
		addrs = append(addrs, l.Addr())
	}
	return port, func() int64 {
		n := int64(0)
		for _, l := range counting {
			n += l.accepted.Load()
		}
		return n
	}, addrs
}

// An offered manifest is fetched before anyone accepts it, so an offer
// must never make the server connect to its own listeners: not by
// 127.0.0.1, localhost (with or without its dot), ::1 or any address of the
// machine, and not through a redirect from a server that is not its own.
// The guard holds where the connection is made (the dialer's hook sees the
// address a name resolved to); the own listener sees no connection at all.
// Before, each of these offers fetched from the server itself.
func TestOffersNeverFetchFromThisServer(t *testing.T) {
	env := newTestEnv(t)
	other := newContentServer(t, false) // a local server that is not this one
	manifest := manifestJSON(t, map[string]any{"download": other.URL + "/bats.module"})
	port, accepted, own := ownServer(t, manifest)
	// Client nil: the transport of production, whose dialer gets the hook.
	m := NewManager(Config{Service: env.svc, DataDir: env.dataDir, Collections: testCollections{}, AppVersion: "1.4.0", OwnAddrs: own})
	t.Cleanup(m.Close)

	sources := []string{
		"http://127.0.0.1:" + port + "/manifest.json",
		"http://localhost:" + port + "/manifest.json",
		"http://LOCALHOST.:" + port + "/manifest.json",
		"http://[::1]:" + port + "/manifest.json",
	}
	if addrs, err := net.InterfaceAddrs(); err == nil {
		for _, a := range addrs {
			if n, ok := a.(*net.IPNet); ok && n.IP.To4() != nil && !n.IP.IsLoopback() && download.IsLocalHost(n.IP.String()) {
				sources = append(sources, "http://"+net.JoinHostPort(n.IP.String(), port)+"/manifest.json")
			}
		}
	}
	// A name the text does not give away: https to any host passes the
	// URL policy, and only the address it resolves to shows it is this
	// machine (the connection would be made before any TLS).
	if host, err := os.Hostname(); err == nil {
		if _, err := net.LookupHost(host); err == nil {
			sources = append(sources, "https://"+net.JoinHostPort(host, port)+"/manifest.json")
		}
	}
	other.handle("/to-self", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "http://localhost:"+port+"/manifest.json", http.StatusFound)
	})
	sources = append(sources, other.URL+"/to-self")

	for _, src := range sources {
		o, err := m.Offer(Source{Manifest: src}, "link")
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		done := settle(t, m, o.ID)
		if done.Status != StatusFailed || !strings.Contains(done.Error, "this server's own address") {
			t.Errorf("%s: %s %q, want a refusal naming this server's own address", src, done.Status, done.Error)
		}
	}
	if n := accepted(); n != 0 {
		t.Errorf("the server's own listener accepted %d connections from its importer", n)
	}
	// (The dialer's hook below every check of the text is tested in
	// package download.)

	// Another server on the same machine is fetched as before.
	other.put("/manifest.json", manifest)
	o, _ := m.Offer(Source{Manifest: other.URL + "/manifest.json"}, "link")
	if done := checked(t, m, o.ID); done.Status != StatusPending || done.Package == nil {
		t.Errorf("a manifest from another local server: %s %q", done.Status, done.Error)
	}
}

// A downloaded archive, like a manifest, never comes from this server,
// even through a client that dials for itself (a test's): the manager's
// fetcher checks each connection once made (package download tests the
// dialer's hook alone).
func TestDownloadsNeverFetchFromThisServer(t *testing.T) {
	env := newTestEnv(t)
	own := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		t.Errorf("the server's own listener got %s %s", r.Method, r.URL)
	}))
	defer own.Close()
	m := NewManager(Config{Service: env.svc, DataDir: env.dataDir, Collections: testCollections{}, Client: own.Client(),
		OwnAddrs: []net.Addr{own.Listener.Addr()}})
	t.Cleanup(m.Close)
	_, port, _ := net.SplitHostPort(own.Listener.Addr().String())
	o, err := m.Offer(Source{URL: "http://localhost:" + port + "/bats.module"}, "link")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.Accept(o.ID, ""); err != nil {
		t.Fatal(err)
	}
	if done := settle(t, m, o.ID); done.Status != StatusFailed || !strings.Contains(done.Error, "this server's own address") {
		t.Errorf("download from this server: %s %q", done.Status, done.Error)
	}
}

// One address cannot fill the offer list: it has at most
// MaxOffersPerAddress offers in it, so a flood hides no other device's
// offer. Its oldest settled offer makes room; loopback is not counted; the
// addresses of one IPv6 /64 count together. Before, one address could
// fill all 100 places in under a second.
func TestOffersPerAddressAreCapped(t *testing.T) {
	env := newTestEnv(t)
	m := NewManager(Config{Service: env.svc, DataDir: env.dataDir, Collections: testCollections{}})
	t.Cleanup(m.Close)
	src := Source{URL: "https://example.org/a.module"}
	var first Offer
	for i := range 100 {
		o, err := m.OfferFrom(src, "192.168.1.66")
		if i < DefaultMaxOffersPerAddress {
			if err != nil {
				t.Fatalf("offer %d refused: %v", i+1, err)
			}
			if i == 0 {
				first = o
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), "from this address") {
			t.Fatalf("offer %d from one address: %v, want a refusal", i+1, err)
		}
	}
	if _, err := m.OfferFrom(src, "192.168.1.67"); err != nil {
		t.Fatalf("another device's offer is refused: %v", err)
	}
	for range 20 {
		if _, err := m.OfferFrom(src, "127.0.0.1"); err != nil {
			t.Fatalf("loopback is counted: %v", err)
		}
	}
	// One settled: it makes room, and leaves the list.
	if _, err := m.Decline(first.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := m.OfferFrom(src, "192.168.1.66"); err != nil {
		t.Fatalf("after one was declined: %v", err)
	}
	if _, err := m.Get(first.ID); err == nil {
		t.Error("the declined offer still takes a place")
	}
	from66 := 0
	for _, o := range m.Offers() {
		if o.From == "api 192.168.1.66" {
			from66++
		}
	}
	if from66 != DefaultMaxOffersPerAddress {
		t.Errorf("%d offers from one address in the list", from66)
	}
	for i := range DefaultMaxOffersPerAddress + 1 {
		_, err := m.OfferFrom(src, "fd00:1:2:3::"+strconv.Itoa(i+1))
		if (err == nil) != (i < DefaultMaxOffersPerAddress) {
			t.Fatalf("offer %d from one IPv6 /64: %v", i+1, err)
		}
	}
}
