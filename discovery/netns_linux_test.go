package discovery

import (
	"context"
	"net"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/net/dns/dnsmessage"
	"golang.org/x/net/ipv4"
	"golang.org/x/sys/unix"
)

// inNamespace marks the copy of the test binary that runs inside a network
// namespace of its own.
const inNamespace = "COMPANION_DISCOVERY_NETNS"

// TestResolvesOnLoopbackInANetworkNamespace resolves the advertisement by
// real multicast on the loopback interface. A normal network namespace's
// lo cannot carry multicast (no MULTICAST flag) and the machine's own
// networks must never receive the test's packets, so the test runs a copy
// of itself in a new network namespace (as root, or in a new user
// namespace when the kernel lets users make one), where lo is the only
// interface, turns multicast on there, and adds a dummy interface to check
// that nothing is sent where the listener is not bound. The namespace ends
// with the process.
func TestResolvesOnLoopbackInANetworkNamespace(t *testing.T) {
	if os.Getenv(inNamespace) == "" {
		runInNamespace(t)
		return
	}
	setFlags(t, "lo", unix.IFF_UP|unix.IFF_MULTICAST)
	other := addOther(t) // nil when ip(8) is missing: those checks are skipped

	lo := loopback(t)
	watch := listenGroup(t, &lo.Interface, other)
	adv, err := Advertise(context.Background(), testService, []Target{lo}, Options{})
	if err != nil {
		t.Fatalf("Advertise on lo: %v", err)
	}
	defer adv.Close()
	if got := adv.Interfaces(); len(got) != 1 || got[0] != lo.Interface.Name {
		t.Fatalf("advertised on %v, want %s alone", got, lo.Interface.Name)
	}

	// A resolver on port 5353 asks the group, as nss-mdns or Avahi would.
	watch.send(t, query(t, 0, "companion.local.", dnsmessage.TypeA), lo.Interface)
	ans := watch.next(t, func(m *dnsmessage.Message) bool {
		return m.Response && len(find(m.Answers, "companion.local.", dnsmessage.TypeA)) > 0 && len(m.Answers) == 1
	})
	if a := find(ans.Answers, "companion.local.", dnsmessage.TypeA)[0]; a.Body.(*dnsmessage.AResource).A != [4]byte{127, 0, 0, 1} || a.Header.TTL != hostTTL {
		t.Fatalf("multicast answer: %+v", a)
	}
	// Browsing for _http._tcp finds the instance and its port.
	watch.send(t, query(t, 0, "_http._tcp.local.", dnsmessage.TypePTR), lo.Interface)
	ans = watch.next(t, func(m *dnsmessage.Message) bool {
		return m.Response && len(m.Answers) == 1 && len(find(m.Answers, "_http._tcp.local.", dnsmessage.TypePTR)) == 1
	})
	if srv := find(ans.Additionals, "Companion._http._tcp.local.", dnsmessage.TypeSRV); len(srv) != 1 || srv[0].Body.(*dnsmessage.SRVResource).Port != 8080 {
		t.Fatalf("browse answer: %+v", ans)
	}

	// A second Companion on the same network finds the name taken.
	second, err := Advertise(context.Background(), testService, []Target{lo}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := second.Service().Host; got != "companion-2" {
		t.Fatalf("second advertisement's name %q, want companion-2", got)
	}
	second.Close()

	if other == nil {
		return
	}
	if watch.seenOn[other.Index] > 0 {
		t.Fatalf("%d packets of the advertisement went out on %s, where the listener is not bound", watch.seenOn[other.Index], other.Name)
	}
	// Bound to the other network's address, the name resolves there to
	// that address, and a query on lo is not answered with it.
	targets, err := TargetsFor(net.IPv4(198, 51, 100, 1))
	if err != nil || len(targets) != 1 || targets[0].Interface.Name != other.Name {
		t.Fatalf("targets of 198.51.100.1: %+v %v", targets, err)
	}
	table := Service{Instance: "Table", Host: "table", Port: 8080}
	onOther, err := Advertise(context.Background(), table, targets, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer onOther.Close()
	watch.send(t, query(t, 0, "table.local.", dnsmessage.TypeA), *other)
	ans = watch.next(t, func(m *dnsmessage.Message) bool {
		return m.Response && len(find(m.Answers, "table.local.", dnsmessage.TypeA)) == 1 && len(m.Answers) == 1
	})
	if a := find(ans.Answers, "table.local.", dnsmessage.TypeA)[0]; a.Body.(*dnsmessage.AResource).A != [4]byte{198, 51, 100, 1} {
		t.Fatalf("answer on %s: %+v", other.Name, a)
	}
	watch.send(t, query(t, 0, "table.local.", dnsmessage.TypeA), lo.Interface)
	// The query for "companion.local" below is answered on lo by the first
	// advertisement; had table.local been answered on lo too, it would come
	// first.
	watch.send(t, query(t, 0, "companion.local.", dnsmessage.TypeA), lo.Interface)
	got := watch.next(t, func(m *dnsmessage.Message) bool { return m.Response && len(m.Answers) == 1 })
	if name := got.Answers[0].Header.Name.String(); name != "companion.local." {
		t.Fatalf("a query on lo for the name advertised on %s was answered: %+v", other.Name, got.Answers)
	}
}

func runInNamespace(t *testing.T) {
	cmd := exec.Command(os.Args[0], "-test.run=^TestResolvesOnLoopbackInANetworkNamespace$", "-test.count=1", "-test.v")
	cmd.Env = append(os.Environ(), inNamespace+"=1")
	cmd.SysProcAttr = &syscall.SysProcAttr{Cloneflags: syscall.CLONE_NEWNET}
	if os.Geteuid() != 0 {
		cmd.SysProcAttr.Cloneflags |= syscall.CLONE_NEWUSER
		cmd.SysProcAttr.UidMappings = []syscall.SysProcIDMap{{ContainerID: 0, HostID: os.Geteuid(), Size: 1}}
		cmd.SysProcAttr.GidMappings = []syscall.SysProcIDMap{{ContainerID: 0, HostID: os.Getegid(), Size: 1}}
	}
	out, err := cmd.CombinedOutput()
	if err != nil && !strings.Contains(string(out), "--- ") {
		// The namespace could not be made (no root, user namespaces off):
		// TestAnswersRealQueriesOverLoopback still resolves real queries
		// over unicast.
		t.Skipf("cannot make a network namespace here (%v); the multicast path is not exercised:\n%s", err, out)
	}
	if err != nil || !strings.Contains(string(out), "--- PASS") {
		t.Fatalf("in the network namespace:\n%s", out)
	}
	t.Logf("in the network namespace:\n%s", out)
}

// setFlags sets interface flags with SIOCSIFFLAGS.
func setFlags(t *testing.T, name string, flags uint16) {
	t.Helper()
	fd, err := unix.Socket(unix.AF_INET, unix.SOCK_DGRAM, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Close(fd)
	req, err := unix.NewIfreq(name)
	if err != nil {
		t.Fatal(err)
	}
	if err := unix.IoctlIfreq(fd, unix.SIOCGIFFLAGS, req); err != nil {
		t.Fatal(err)
	}
	req.SetUint16(req.Uint16() | flags)
	if err := unix.IoctlIfreq(fd, unix.SIOCSIFFLAGS, req); err != nil {
		t.Fatalf("set %s flags: %v", name, err)
	}
}

// addOther adds a second network inside the namespace: a veth pair (both
// ends stay in it) with documentation addresses, up and multicast-capable.
// It returns the first end, or nil without ip(8).
func addOther(t *testing.T) *net.Interface {
	t.Helper()
	if _, err := exec.LookPath("ip"); err != nil {
		t.Log("ip(8) not found: the check that nothing goes out on another interface is skipped")
		return nil
	}
	for _, args := range [][]string{
		{"link", "add", "veth0", "type", "veth", "peer", "name", "veth1"},
		{"addr", "add", "198.51.100.1/24", "dev", "veth0"},
		{"addr", "add", "198.51.100.2/24", "dev", "veth1"},
		{"link", "set", "veth0", "up", "multicast", "on"},
		{"link", "set", "veth1", "up", "multicast", "on"},
	} {
		if out, err := exec.Command("ip", args...).CombinedOutput(); err != nil {
			t.Logf("ip %v: %v %s: the check on another interface is skipped", args, err, out)
			return nil
		}
	}
	iface, err := net.InterfaceByName("veth0")
	if err != nil {
		t.Fatal(err)
	}
	return iface
}

// groupWatcher is a resolver's socket on port 5353, member of the group on
// lo (and on the dummy interface, to see what arrives there).
type groupWatcher struct {
	pc     *ipv4.PacketConn
	seenOn map[int]int
}

func listenGroup(t *testing.T, ifaces ...*net.Interface) *groupWatcher {
	t.Helper()
	lc := net.ListenConfig{Control: reuseAddress}
	c, err := lc.ListenPacket(context.Background(), "udp4", "0.0.0.0:5353")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	pc := ipv4.NewPacketConn(c)
	if err := pc.SetControlMessage(ipv4.FlagInterface, true); err != nil {
		t.Fatal(err)
	}
	pc.SetMulticastLoopback(true)
	pc.SetMulticastTTL(255)
	for _, iface := range ifaces {
		if iface == nil {
			continue
		}
		if err := pc.JoinGroup(iface, &net.UDPAddr{IP: groupV4.IP}); err != nil {
			t.Fatalf("join on %s: %v", iface.Name, err)
		}
	}
	return &groupWatcher{pc: pc, seenOn: map[int]int{}}
}

func (w *groupWatcher) send(t *testing.T, msg []byte, iface net.Interface) {
	t.Helper()
	if err := w.pc.SetMulticastInterface(&iface); err != nil {
		t.Fatal(err)
	}
	if _, err := w.pc.WriteTo(msg, nil, groupV4); err != nil {
		t.Fatal(err)
	}
}

// next reads until a response satisfies keep, counting packets by arrival
// interface.
func (w *groupWatcher) next(t *testing.T, keep func(m *dnsmessage.Message) bool) *dnsmessage.Message {
	t.Helper()
	buf := make([]byte, 9000)
	deadline := time.Now().Add(5 * time.Second)
	for {
		w.pc.SetReadDeadline(deadline)
		n, cm, _, err := w.pc.ReadFrom(buf)
		if err != nil {
			t.Fatalf("no awaited answer: %v", err)
		}
		var m dnsmessage.Message
		if m.Unpack(buf[:n]) != nil {
			continue
		}
		if cm != nil && m.Response {
			w.seenOn[cm.IfIndex]++
		}
		if keep(&m) {
			return &m
		}
	}
}
