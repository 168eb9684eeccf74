package routes

import (
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
)

// TestLandingPageNamesTheAdvertisedName: with an mDNS name advertised, the
// landing page offers the client's address by that name beside the
// addresses; without one it does not invent one.
func TestLandingPageNamesTheAdvertisedName(t *testing.T) {
	e := newEnv(t, envOptions{})
	named := httptest.NewServer(NewPublicHandler(Config{Service: e.svc, Systems: e.holder, DataDir: e.dataDir, JoinName: "companion.local"}))
	t.Cleanup(named.Close)
	_, port, _ := net.SplitHostPort(strings.TrimPrefix(named.URL, "http://"))
	page := get(t, named.URL+"/")
	want := "http://companion.local:" + port + "/client/"
	if page.status != http.StatusOK || !strings.Contains(string(page.body), `<a href="`+want+`">`+want+`</a>`) {
		t.Fatalf("landing page lacks a link to %s:\n%s", want, page.body)
	}
	if _, err := strconv.Atoi(port); err != nil {
		t.Fatal(err)
	}
	plain := get(t, e.srv.URL+"/")
	if strings.Contains(string(plain.body), ".local") {
		t.Fatalf("a name on the landing page of a server that advertises none:\n%s", plain.body)
	}
}
