package e2e

import (
	"net"
	"strings"
	"testing"
)

func TestMain(m *testing.M) { Main(m) }

// A port that was free when chosen and is taken when the server binds it
// (a parallel test got it first): StartServer chooses other ports and the
// server starts.
func TestStartServerChoosesAgainWhenAPortIsTaken(t *testing.T) {
	held, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer held.Close()
	handed := 0
	pickAddr = func(t testing.TB) string {
		handed++
		if handed == 1 {
			return held.Addr().String() // taken: the first server cannot bind it
		}
		return FreeAddr(t)
	}
	defer func() { pickAddr = FreeAddr }()
	s := StartServer(t, ServerOptions{})
	if handed < 4 {
		t.Fatalf("StartServer asked for %d ports; want a second pair after the taken one", handed)
	}
	if strings.Contains(s.URL, held.Addr().String()) {
		t.Fatalf("the server runs on the taken port %s", s.URL)
	}
	if !ready(s.URL+"/api/system") || !ready(s.HostURL+"/host/") {
		t.Fatal("the server on the second ports does not answer")
	}
}
