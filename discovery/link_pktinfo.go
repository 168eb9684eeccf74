//go:build !windows

package discovery

import (
	"context"
	"fmt"
	"net"
	"sync"

	"golang.org/x/net/ipv4"
)

// pktLink is one socket on port 5353 for every interface: it joins the
// group on the advertisement's interfaces only, learns each packet's
// arrival interface from its control message (IP_PKTINFO, IP_RECVIF) and
// picks the outgoing interface for each multicast it sends. One socket
// sees queries from every network the machine has a member of the group
// on (another responder may have joined elsewhere); read reports the
// interface, and the advertiser drops what arrived on another.
type pktLink struct {
	c      net.PacketConn
	pc     *ipv4.PacketConn
	group  *net.UDPAddr // 224.0.0.251:5353; a unicast address in tests
	ifaces map[int]net.Interface
	mu     sync.Mutex // SetMulticastInterface + WriteTo
}

// openMulticast opens the mDNS socket (shared with any other responder on
// the machine: SO_REUSEADDR, SO_REUSEPORT) and joins the group on the
// targets' interfaces.
func openMulticast(targets []Target) (link, error) {
	lc := net.ListenConfig{Control: reuseAddress}
	c, err := lc.ListenPacket(context.Background(), "udp4", fmt.Sprintf("0.0.0.0:%d", mdnsPort))
	if err != nil {
		return nil, err
	}
	l, err := newPktLink(c, groupV4, targets, true)
	if err != nil {
		c.Close()
		return nil, err
	}
	return l, nil
}

// newPktLink sets a socket up; join is false for a unicast test socket.
func newPktLink(c net.PacketConn, group *net.UDPAddr, targets []Target, join bool) (*pktLink, error) {
	pc := ipv4.NewPacketConn(c)
	if err := pc.SetControlMessage(ipv4.FlagInterface, true); err != nil {
		return nil, fmt.Errorf("arrival interface: %w", err)
	}
	l := &pktLink{c: c, pc: pc, group: group, ifaces: map[int]net.Interface{}}
	for _, t := range targets {
		l.ifaces[t.Interface.Index] = t.Interface
	}
	if !join {
		return l, nil
	}
	// Multicast DNS goes to the link only (TTL 255 is what receivers
	// check, RFC 6762 section 11), and loops back so that resolvers on
	// this machine hear it too.
	if err := pc.SetMulticastTTL(255); err != nil {
		return nil, err
	}
	if err := pc.SetMulticastLoopback(true); err != nil {
		return nil, err
	}
	for _, t := range targets {
		if err := pc.JoinGroup(&t.Interface, &net.UDPAddr{IP: group.IP}); err != nil {
			return nil, fmt.Errorf("join the mDNS group on %s: %w", t.Interface.Name, err)
		}
	}
	return l, nil
}

func (l *pktLink) read(buf []byte) (int, int, *net.UDPAddr, error) {
	n, cm, src, err := l.pc.ReadFrom(buf)
	if err != nil {
		return 0, 0, nil, err
	}
	udp, _ := src.(*net.UDPAddr)
	if cm == nil || udp == nil {
		return n, 0, &net.UDPAddr{}, nil
	}
	return n, cm.IfIndex, udp, nil
}

func (l *pktLink) sendMulticast(b []byte, ifIndex int) error {
	iface, ok := l.ifaces[ifIndex]
	if !ok {
		return fmt.Errorf("interface %d is not one of the advertisement's", ifIndex)
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.group.IP.IsMulticast() {
		if err := l.pc.SetMulticastInterface(&iface); err != nil {
			return err
		}
	}
	_, err := l.pc.WriteTo(b, nil, l.group)
	return err
}

func (l *pktLink) sendUnicast(b []byte, dst *net.UDPAddr) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	_, err := l.pc.WriteTo(b, nil, dst)
	return err
}

func (l *pktLink) close() error { return l.c.Close() }
