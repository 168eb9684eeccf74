package discovery

import (
	"context"
	"fmt"
	"net"
	"sync"
	"syscall"

	"golang.org/x/net/ipv4"
	"golang.org/x/sys/windows"
)

// socketLink is one socket per interface, as Windows gives no arrival
// interface on a shared socket: each is bound to the interface's IPv4
// address on port 5353, where Windows delivers the group's packets that
// arrive on that interface, and sends on that interface only.
type socketLink struct {
	socks   map[int]*ipv4.PacketConn
	conns   []net.PacketConn
	packets chan packet
	once    sync.Once
	closed  chan struct{}
}

type packet struct {
	data    []byte
	ifIndex int
	src     *net.UDPAddr
}

func openMulticast(targets []Target) (link, error) {
	l := &socketLink{socks: map[int]*ipv4.PacketConn{}, packets: make(chan packet, 16), closed: make(chan struct{})}
	for _, t := range targets {
		var v4 net.IP
		for _, ip := range t.Addrs {
			if ip.To4() != nil {
				v4 = ip
				break
			}
		}
		if v4 == nil {
			continue
		}
		lc := net.ListenConfig{Control: reuseAddress}
		c, err := lc.ListenPacket(context.Background(), "udp4", net.JoinHostPort(v4.String(), fmt.Sprint(mdnsPort)))
		if err != nil {
			l.close()
			return nil, err
		}
		pc := ipv4.NewPacketConn(c)
		iface := t.Interface
		if err := pc.JoinGroup(&iface, &net.UDPAddr{IP: groupV4.IP}); err != nil {
			c.Close()
			l.close()
			return nil, fmt.Errorf("join the mDNS group on %s: %w", iface.Name, err)
		}
		pc.SetMulticastInterface(&iface)
		pc.SetMulticastTTL(255)
		pc.SetMulticastLoopback(true)
		l.socks[iface.Index], l.conns = pc, append(l.conns, c)
		go l.pump(c, iface.Index)
	}
	if len(l.socks) == 0 {
		return nil, ErrNoInterface
	}
	return l, nil
}

func (l *socketLink) pump(c net.PacketConn, ifIndex int) {
	for {
		buf := make([]byte, 9000)
		n, src, err := c.ReadFrom(buf)
		if err != nil {
			return
		}
		udp, _ := src.(*net.UDPAddr)
		if udp == nil {
			continue
		}
		select {
		case l.packets <- packet{buf[:n], ifIndex, udp}:
		case <-l.closed:
			return
		}
	}
}

func (l *socketLink) read(buf []byte) (int, int, *net.UDPAddr, error) {
	select {
	case p := <-l.packets:
		return copy(buf, p.data), p.ifIndex, p.src, nil
	case <-l.closed:
		return 0, 0, nil, net.ErrClosed
	}
}

func (l *socketLink) sendMulticast(b []byte, ifIndex int) error {
	pc, ok := l.socks[ifIndex]
	if !ok {
		return fmt.Errorf("interface %d is not one of the advertisement's", ifIndex)
	}
	_, err := pc.WriteTo(b, nil, groupV4)
	return err
}

func (l *socketLink) sendUnicast(b []byte, dst *net.UDPAddr) error {
	var pc *ipv4.PacketConn
	for _, sock := range l.socks {
		pc = sock
	}
	if pc == nil {
		return net.ErrClosed
	}
	_, err := pc.WriteTo(b, nil, dst)
	return err
}

func (l *socketLink) close() error {
	l.once.Do(func() {
		close(l.closed)
		for _, c := range l.conns {
			c.Close()
		}
	})
	return nil
}

// reuseAddress lets the socket share port 5353 with the system's own
// responder.
func reuseAddress(network, address string, c syscall.RawConn) error {
	var opErr error
	err := c.Control(func(fd uintptr) {
		opErr = windows.SetsockoptInt(windows.Handle(fd), windows.SOL_SOCKET, windows.SO_REUSEADDR, 1)
	})
	if err != nil {
		return err
	}
	return opErr
}
