//go:build !windows

package discovery

import (
	"context"
	"errors"
	"net"
	"strings"
	"testing"
	"time"

	"golang.org/x/net/dns/dnsmessage"
)

var testService = Service{Instance: "Companion", Host: "companion", Port: 8080, Text: []string{"path=/client/"}}

// loopback returns the loopback interface as a target answering 127.0.0.1.
func loopback(t *testing.T) Target {
	t.Helper()
	targets, err := TargetsFor(net.IPv4(127, 0, 0, 1))
	if err != nil {
		t.Fatal(err)
	}
	if len(targets) != 1 || targets[0].Interface.Flags&net.FlagLoopback == 0 {
		t.Fatalf("targets of 127.0.0.1: %+v, want the loopback interface alone", targets)
	}
	if len(targets[0].Addrs) != 1 || !targets[0].Addrs[0].Equal(net.IPv4(127, 0, 0, 1)) {
		t.Fatalf("addresses on loopback: %v, want 127.0.0.1 alone", targets[0].Addrs)
	}
	return targets[0]
}

// asker is the other end of a test: a resolver's socket.
type asker struct {
	t *testing.T
	c net.PacketConn
}

func (a asker) send(to net.Addr, msg []byte) {
	a.t.Helper()
	if _, err := a.c.WriteTo(msg, to); err != nil {
		a.t.Fatal(err)
	}
}

// next reads packets until one satisfies keep (5 s at most).
func (a asker) next(keep func(h dnsmessage.Header, m *dnsmessage.Message) bool) *dnsmessage.Message {
	a.t.Helper()
	buf := make([]byte, 9000)
	deadline := time.Now().Add(5 * time.Second)
	for {
		a.c.SetReadDeadline(deadline)
		n, _, err := a.c.ReadFrom(buf)
		if err != nil {
			a.t.Fatalf("no awaited packet: %v", err)
		}
		var m dnsmessage.Message
		if err := m.Unpack(buf[:n]); err != nil {
			a.t.Fatalf("malformed packet: %v", err)
		}
		if keep(m.Header, &m) {
			return &m
		}
	}
}

func query(t *testing.T, id uint16, name string, typ dnsmessage.Type) []byte {
	t.Helper()
	b := dnsmessage.NewBuilder(nil, dnsmessage.Header{ID: id})
	b.StartQuestions()
	if err := b.Question(dnsmessage.Question{Name: mustName(name), Type: typ, Class: dnsmessage.ClassINET}); err != nil {
		t.Fatal(err)
	}
	msg, err := b.Finish()
	if err != nil {
		t.Fatal(err)
	}
	return msg
}

// find returns the records of a section with name and type.
func find(rrs []dnsmessage.Resource, name string, typ dnsmessage.Type) []dnsmessage.Resource {
	var out []dnsmessage.Resource
	for _, rr := range rrs {
		if strings.EqualFold(rr.Header.Name.String(), name) && rr.Header.Type == typ {
			out = append(out, rr)
		}
	}
	return out
}

// startOverUnicast runs an advertiser whose "group" is the asker's own
// address on loopback: probes, announcements and goodbyes reach the asker
// by unicast, so the whole protocol runs over real sockets without sending
// one multicast packet. (The multicast path itself is tested inside a
// network namespace: TestResolvesOnLoopbackInANetworkNamespace.)
func startOverUnicast(t *testing.T, svc Service) (*Advertiser, asker, net.Addr, func(context.Context) error) {
	t.Helper()
	lo := loopback(t)
	resp, err := net.ListenPacket("udp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ask, err := net.ListenPacket("udp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ask.Close() })
	l, err := newPktLink(resp, ask.LocalAddr().(*net.UDPAddr), []Target{lo}, false)
	if err != nil {
		resp.Close()
		t.Fatal(err)
	}
	a := newAdvertiser(svc, []Target{lo}, l, Options{ProbeInterval: 20 * time.Millisecond, AnnounceInterval: 20 * time.Millisecond})
	t.Cleanup(a.Close)
	return a, asker{t, ask}, resp.LocalAddr(), a.claim
}

// TestAnswersRealQueriesOverLoopback: probe, announcement, answers to a
// one-shot resolver (by name, by service type) and goodbye, each decoded
// from what arrived on a real socket.
func TestAnswersRealQueriesOverLoopback(t *testing.T) {
	a, ask, responder, claim := startOverUnicast(t, testService)
	if err := claim(context.Background()); err != nil {
		t.Fatal(err)
	}
	probe := ask.next(func(h dnsmessage.Header, m *dnsmessage.Message) bool { return !h.Response })
	if len(probe.Questions) != 2 || !strings.EqualFold(probe.Questions[0].Name.String(), "companion.local.") ||
		len(find(probe.Authorities, "companion.local.", dnsmessage.TypeA)) != 1 {
		t.Fatalf("probe: %+v", probe)
	}
	a.announce()
	ann := ask.next(func(h dnsmessage.Header, m *dnsmessage.Message) bool { return h.Response })
	if srv := find(ann.Answers, "Companion._http._tcp.local.", dnsmessage.TypeSRV); len(srv) != 1 ||
		srv[0].Body.(*dnsmessage.SRVResource).Port != 8080 || srv[0].Header.Class&cacheFlush == 0 {
		t.Fatalf("announcement SRV: %+v", ann.Answers)
	}

	// A one-shot resolver (any port but 5353) asks for the address.
	ask.send(responder, query(t, 0x4242, "Companion.Local.", dnsmessage.TypeA))
	ans := ask.next(func(h dnsmessage.Header, m *dnsmessage.Message) bool { return h.Response && h.ID == 0x4242 })
	as := find(ans.Answers, "companion.local.", dnsmessage.TypeA)
	if len(as) != 1 || as[0].Body.(*dnsmessage.AResource).A != [4]byte{127, 0, 0, 1} {
		t.Fatalf("A answer: %+v", ans.Answers)
	}
	if as[0].Header.TTL > legacyTTL || as[0].Header.Class != dnsmessage.ClassINET || len(ans.Questions) != 1 {
		t.Fatalf("a one-shot answer must echo the question, cap the TTL at %d and not flush caches: %+v", legacyTTL, ans)
	}

	// Browsing: the service type's PTR, with SRV, TXT and address added.
	ask.send(responder, query(t, 7, "_http._tcp.local.", dnsmessage.TypePTR))
	ans = ask.next(func(h dnsmessage.Header, m *dnsmessage.Message) bool { return h.Response && h.ID == 7 })
	ptr := find(ans.Answers, "_http._tcp.local.", dnsmessage.TypePTR)
	if len(ptr) != 1 || ptr[0].Body.(*dnsmessage.PTRResource).PTR.String() != "Companion._http._tcp.local." {
		t.Fatalf("PTR answer: %+v", ans.Answers)
	}
	txt := find(ans.Additionals, "Companion._http._tcp.local.", dnsmessage.TypeTXT)
	if len(txt) != 1 || txt[0].Body.(*dnsmessage.TXTResource).TXT[0] != "path=/client/" ||
		len(find(ans.Additionals, "companion.local.", dnsmessage.TypeA)) != 1 ||
		len(find(ans.Additionals, "Companion._http._tcp.local.", dnsmessage.TypeSRV)) != 1 {
		t.Fatalf("additional records: %+v", ans.Additionals)
	}

	// A name that is not ours is not answered: the next answer is to the
	// query after it.
	ask.send(responder, query(t, 8, "other.local.", dnsmessage.TypeA))
	ask.send(responder, query(t, 9, "companion.local.", dnsmessage.TypeA))
	if got := ask.next(func(h dnsmessage.Header, m *dnsmessage.Message) bool { return h.Response && h.ID != 0 }); got.ID != 9 {
		t.Fatalf("answered a query for another name: %+v", got)
	}

	a.Close()
	bye := ask.next(func(h dnsmessage.Header, m *dnsmessage.Message) bool {
		return h.Response && h.ID == 0 && len(m.Answers) > 0 && m.Answers[0].Header.TTL == 0
	})
	for _, rr := range bye.Answers {
		if rr.Header.TTL != 0 {
			t.Fatalf("goodbye with a TTL: %+v", rr)
		}
	}
}

// TestTakenNameIsRenamed: a response naming companion.local while the
// advertiser probes makes it claim companion-2 instead.
func TestTakenNameIsRenamed(t *testing.T) {
	a, ask, responder, claim := startOverUnicast(t, testService)
	errc := make(chan error, 1)
	go func() { errc <- claim(context.Background()) }()
	ask.next(func(h dnsmessage.Header, m *dnsmessage.Message) bool { return !h.Response })
	// Another device answers with the name, from port 5353 like a responder.
	other := records{svc: testService, n: namesOf(testService), addrs: []net.IP{net.IPv4(127, 0, 0, 9)}, ttlScale: 1, flush: true}
	msg, err := other.build(dnsmessage.Header{Response: true, Authoritative: true}, nil, other.address(), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	ask.send(responder, msg)
	if err := <-errc; err != nil {
		t.Fatal(err)
	}
	if got := a.Service(); got.Host != "companion-2" || got.Instance != "Companion (2)" {
		t.Fatalf("after a conflict: %+v, want companion-2 / Companion (2)", got)
	}
}

// TestNothingIsSentWhereMulticastCannotGo: an interface without the
// MULTICAST flag (Linux's lo in a normal network namespace) is left out,
// and with nothing left Advertise fails before opening a socket.
func TestNothingIsSentWhereMulticastCannotGo(t *testing.T) {
	lo := loopback(t)
	lo.Interface.Flags &^= net.FlagMulticast
	down := lo
	down.Interface.Flags = net.FlagMulticast
	_, err := Advertise(context.Background(), testService, []Target{lo, down}, Options{})
	if !errors.Is(err, ErrNoInterface) {
		t.Fatalf("Advertise on interfaces without multicast: %v, want ErrNoInterface", err)
	}
}

func TestServiceNamesAreChecked(t *testing.T) {
	for _, bad := range []Service{
		{Instance: "Companion", Host: "compan ion", Port: 1},
		{Instance: "Companion", Host: "-x", Port: 1},
		{Instance: "Companion", Host: "a.b", Port: 1},
		{Instance: "Com.panion", Host: "companion", Port: 1},
		{Instance: "Companion", Host: "companion", Port: 0},
	} {
		if bad.check() == nil {
			t.Errorf("%+v accepted", bad)
		}
	}
	if err := testService.check(); err != nil {
		t.Fatal(err)
	}
	if got := renamed(renamed(testService, 2), 3); got.Host != "companion-3" || got.Instance != "Companion (3)" {
		t.Fatalf("renamed twice: %+v", got)
	}
}
