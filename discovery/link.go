package discovery

import (
	"net"
)

// mdnsPort is the port of multicast DNS, and groupV4 its IPv4 group.
const mdnsPort = 5353

var groupV4 = &net.UDPAddr{IP: net.IPv4(224, 0, 0, 251), Port: mdnsPort}

// link is the advertisement's socket: it knows on which interface a packet
// arrived and sends on one interface only.
type link interface {
	// read returns a packet, the index of the interface it arrived on
	// (0 when unknown: such a packet is not answered) and its sender.
	read(buf []byte) (n, ifIndex int, src *net.UDPAddr, err error)
	// sendMulticast sends to the mDNS group on one interface.
	sendMulticast(b []byte, ifIndex int) error
	// sendUnicast answers a one-shot resolver.
	sendUnicast(b []byte, dst *net.UDPAddr) error
	close() error
}
