package main

import (
	"fmt"
	"io"
	"net"
	"sort"
	"strconv"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/systems"
)

// printBanner tells the person at the device what is running and the
// addresses players can open.
func printBanner(w io.Writer, sys *systems.System, public, host net.Addr, dataDir string) {
	fmt.Fprintf(w, "Companion %s (build %d) with %s %s\n", core.Version, core.Build, sys.Name(), sys.Version())
	fmt.Fprintf(w, "Data folder: %s\n", dataDir)
	fmt.Fprintln(w, "Players can open:")
	for _, u := range playerURLs(public) {
		fmt.Fprintf(w, "  %s\n", u)
	}
	fmt.Fprintf(w, "Host console (this device only): http://%s/host/\n", host.String())
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
