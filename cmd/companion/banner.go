package main

import (
	"fmt"
	"io"
	"net"
	"net/url"
	"sort"
	"strconv"
	"strings"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/systems"
	"rsc.io/qr"
)

// bannerInfo is what the start banner tells the person at the device.
type bannerInfo struct {
	Release  release
	System   *systems.System
	Public   net.Addr
	Host     net.Addr
	DataDir  string
	JoinName string // "companion.local" when advertised, else empty
	// Container: the host console listens inside a container
	// (--host-addr-container) and is reached through the published port.
	Container bool
	// Join is the join key: when it is on, the links printed carry it (the
	// banner goes to standard output; the log, on standard error, never
	// shows a key).
	Join core.JoinStatus
}

// printBanner tells the person at the device what is running, the
// addresses players can open (by name first when it is advertised), a QR
// code of the join link for a phone's camera, and the host console.
func printBanner(w io.Writer, b bannerInfo) {
	fmt.Fprintf(w, "Companion %s with %s %s\n", strings.TrimPrefix(b.Release.String(), "companion "), b.System.Name(), b.System.Version())
	fmt.Fprintf(w, "Data folder: %s\n", b.DataDir)
	fmt.Fprintln(w, "Players can open:")
	urls := playerURLs(b.Public)
	keyed := func(u string) string { return u }
	if b.Join.Enabled {
		fmt.Fprintln(w, "  (the join key is on: these links carry it; give them only to the people at the table)")
		keyed = func(u string) string { return withKey(u, b.Join.Key) }
	}
	if b.JoinName != "" {
		if tcp, ok := b.Public.(*net.TCPAddr); ok {
			fmt.Fprintf(w, "  %s   (by name, where .local names resolve)\n", keyed("http://"+net.JoinHostPort(b.JoinName, strconv.Itoa(tcp.Port))+"/"))
		}
	}
	for _, u := range urls {
		fmt.Fprintf(w, "  %s\n", keyed(u))
	}
	if join := joinLink(b.Public); join != "" {
		join = keyed(join)
		if code := terminalQR(join); code != "" {
			fmt.Fprintf(w, "Scan to join (%s):\n%s", join, code)
		}
		if b.Join.Enabled {
			fmt.Fprintf(w, "Spectators (they watch, they cannot play): %s\n", withKey(joinLink(b.Public), b.Join.SpectatorKey))
		}
	}
	if b.Container {
		_, port, _ := net.SplitHostPort(b.Host.String())
		fmt.Fprintf(w, "Host console: inside a container on %s; open http://127.0.0.1:%s/host/ on the host, with the port published on 127.0.0.1 only\n", b.Host, port)
		return
	}
	fmt.Fprintf(w, "Host console (this device only): http://%s/host/\n", b.Host.String())
}

// withKey adds the join key to a link (not to a line that says the
// address is this device's only).
func withKey(u, key string) string {
	if strings.Contains(u, " ") {
		return u
	}
	return u + "?" + url.Values{"key": {key}}.Encode()
}

// joinLink is the player client's address on the first network address
// players can use, or "" when the server listens for this device only.
func joinLink(public net.Addr) string {
	for _, u := range playerURLs(public) {
		if strings.Contains(u, " ") || strings.HasPrefix(u, "http://127.") || strings.HasPrefix(u, "http://[::1]") {
			continue
		}
		return u + "client/"
	}
	return ""
}

// terminalQR draws a QR code of text with Unicode half blocks, two modules
// a character row, light modules drawn (a terminal's text is light on
// dark), inside a light quiet zone that scanners need.
func terminalQR(text string) string {
	code, err := qr.Encode(text, qr.L)
	if err != nil {
		return ""
	}
	const quiet = 2
	n := code.Size
	light := func(x, y int) bool {
		if x < 0 || y < 0 || x >= n || y >= n {
			return true
		}
		return !code.Black(x, y)
	}
	var b strings.Builder
	for y := -quiet; y < n+quiet; y += 2 {
		b.WriteString("  ")
		for x := -quiet; x < n+quiet; x++ {
			top, bottom := light(x, y), light(x, y+1)
			if y+1 >= n+quiet {
				bottom = false // past the last row: the terminal's own background
			}
			switch {
			case top && bottom:
				b.WriteString("█")
			case top:
				b.WriteString("▀")
			case bottom:
				b.WriteString("▄")
			default:
				b.WriteString(" ")
			}
		}
		b.WriteString("\n")
	}
	return b.String()
}

// playerURLs lists the URLs of the public listener: every non-loopback IPv4
// address of the machine when it listens on all interfaces, else the one
// address it is bound to.
func playerURLs(addr net.Addr) []string {
	tcp, ok := addr.(*net.TCPAddr)
	if !ok {
		return []string{"http://" + addr.String() + "/"}
	}
	port := strconv.Itoa(tcp.Port)
	if !tcp.IP.IsUnspecified() {
		return []string{"http://" + net.JoinHostPort(tcp.IP.String(), port) + "/"}
	}
	var urls []string
	addrs, _ := net.InterfaceAddrs()
	for _, a := range addrs {
		ipnet, ok := a.(*net.IPNet)
		if !ok || ipnet.IP.IsLoopback() || ipnet.IP.To4() == nil {
			continue
		}
		urls = append(urls, "http://"+net.JoinHostPort(ipnet.IP.String(), port)+"/")
	}
	sort.Strings(urls)
	if len(urls) == 0 {
		urls = append(urls, "http://"+net.JoinHostPort("127.0.0.1", port)+"/ (no network address found: this device only)")
	}
	return urls
}
