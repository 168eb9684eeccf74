package core

import (
	"net"
	"net/netip"
)

// Network addresses, for the limits counted per remote address (the
// message budget, passes, import offers). A device of the table has an
// address of its own; this machine (loopback) is the game master's and
// its tools', and is never counted.

// RemoteHost is the host part of a request's remote address ("ip:port"),
// or the address itself when it has no port.
func RemoteHost(remoteAddr string) string {
	if host, _, err := net.SplitHostPort(remoteAddr); err == nil {
		return host
	}
	return remoteAddr
}

// AddressKey is what an address is counted under: "" (not counted) for
// loopback or an empty address, the /64 of an IPv6 address (one device
// may take as many addresses of its /64 as it likes), the address itself
// otherwise.
func AddressKey(address string) string {
	if address == "" {
		return ""
	}
	ip, err := netip.ParseAddr(address)
	if err != nil {
		return address
	}
	ip = ip.Unmap().WithZone("")
	switch {
	case ip.IsLoopback():
		return ""
	case ip.Is6():
		p, _ := ip.Prefix(64)
		return p.String()
	}
	return ip.String()
}
