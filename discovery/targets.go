package discovery

import (
	"net"
)

// TargetsFor returns the interfaces a listener bound to ip answers on, each
// with the addresses it answers there: every interface and all its
// addresses for an unspecified address (0.0.0.0, ::), else the one
// interface that holds ip, with ip alone (a loopback address: the loopback
// interface). Link-local IPv6 addresses are left out: a name that resolves
// to one is unusable without its zone.
func TargetsFor(ip net.IP) ([]Target, error) {
	ifaces, err := net.Interfaces()
	if err != nil {
		return nil, err
	}
	var out []Target
	for _, iface := range ifaces {
		addrs, err := iface.Addrs()
		if err != nil {
			continue
		}
		var keep []net.IP
		for _, a := range addrs {
			ipnet, ok := a.(*net.IPNet)
			if !ok || (ipnet.IP.To4() == nil && ipnet.IP.IsLinkLocalUnicast()) {
				continue
			}
			switch {
			case ip.IsUnspecified():
				keep = append(keep, ipnet.IP)
			case ipnet.IP.Equal(ip),
				// 127.0.0.2 is served by the interface that holds 127.0.0.1/8.
				ip.IsLoopback() && ipnet.IP.IsLoopback() && ipnet.Contains(ip):
				keep = append(keep, ip)
			}
		}
		if len(keep) > 0 {
			out = append(out, Target{Interface: iface, Addrs: dedupe(keep)})
		}
	}
	return out, nil
}

func dedupe(ips []net.IP) []net.IP {
	var out []net.IP
	for _, ip := range ips {
		seen := false
		for _, o := range out {
			if o.Equal(ip) {
				seen = true
			}
		}
		if !seen {
			out = append(out, ip)
		}
	}
	return out
}
