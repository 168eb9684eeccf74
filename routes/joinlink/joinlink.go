// Package joinlink is what a join link is drawn with: its QR code (cached
// per link) and the addresses of this machine a phone on the network can
// reach.
package joinlink

import (
	"encoding/base64"
	"html/template"
	"net"
	"sync"

	"rsc.io/qr"
)

// qrCache keeps the QR codes of the last links drawn (the landing page's,
// the host console's join links), link -> PNG data URL.
var qrCache struct {
	mu  sync.Mutex
	qrs map[string]template.URL
}

// QRDataURL returns the QR code of link as a PNG data URL ("" when the
// link does not fit a QR code), cached per link.
func QRDataURL(link string) template.URL {
	p := &qrCache
	p.mu.Lock()
	defer p.mu.Unlock()
	if u, ok := p.qrs[link]; ok {
		return u
	}
	var u template.URL
	if code, err := qr.Encode(link, qr.M); err == nil {
		code.Scale = 6
		u = template.URL("data:image/png;base64," + base64.StdEncoding.EncodeToString(code.PNG()))
	}
	if p.qrs == nil || len(p.qrs) > 32 {
		p.qrs = map[string]template.URL{}
	}
	p.qrs[link] = u
	return u
}

// LANAddresses returns this machine's non-loopback IPv4 unicast addresses.
func LANAddresses() []string {
	addrs, err := net.InterfaceAddrs()
	if err != nil {
		return nil
	}
	var out []string
	for _, a := range addrs {
		ipnet, ok := a.(*net.IPNet)
		if !ok {
			continue
		}
		ip := ipnet.IP.To4()
		if ip == nil || ip.IsLoopback() || ip.IsLinkLocalUnicast() {
			continue
		}
		out = append(out, ip.String())
	}
	return out
}
