package main

import (
	"errors"
	"fmt"
	"io"
	"net"
	"strconv"
)

// portTries is how many ports after a taken default one are tried.
const portTries = 20

// listenBoth binds the player listener and the host console. A port that
// is taken is said in one line: an address given on the command line or in
// the environment is an error (with the flag to change it); a default one
// gives way to the next free port, and the line says which. Nothing is
// written to the data folder before this succeeds.
func listenBoth(cfg *serveConfig, notes io.Writer) (public, host net.Listener, err error) {
	public, err = listenOrNext(cfg.Addr, !cfg.AddrGiven, "--addr", "players", "use", "", notes)
	if err != nil {
		return nil, nil, err
	}
	host, err = listenOrNext(cfg.HostAddr, !cfg.HostAddrGiven, "--host-addr", "the host console", "uses", public.Addr().String(), notes)
	if err != nil {
		public.Close()
		return nil, nil, err
	}
	return public, host, nil
}

// listenOrNext listens on addr; when its port is taken and next is true it
// tries the following ports, skipping the one avoid names (the other
// listener's). who is whom the port is for, and use the verb that agrees
// with it in the note.
func listenOrNext(addr string, next bool, flagName, who, use, avoid string, notes io.Writer) (net.Listener, error) {
	ln, err := net.Listen("tcp", addr)
	if err == nil || !portTaken(err) {
		if err != nil {
			return nil, fmt.Errorf("cannot listen on %s for %s: %v", addr, who, errors.Unwrap(err))
		}
		return ln, nil
	}
	host, portText, _ := net.SplitHostPort(addr)
	port, _ := strconv.Atoi(portText)
	if next && port > 0 {
		_, avoidPort, _ := net.SplitHostPort(avoid)
		for p := port + 1; p <= port+portTries && p < 65536; p++ {
			if strconv.Itoa(p) == avoidPort {
				continue
			}
			candidate := net.JoinHostPort(host, strconv.Itoa(p))
			if ln, err := net.Listen("tcp", candidate); err == nil {
				fmt.Fprintf(notes, "Port %d is taken, so %s %s port %d instead (choose one with %s).\n", port, who, use, p, flagName)
				return ln, nil
			}
		}
	}
	suggest := net.JoinHostPort(host, strconv.Itoa(port+10))
	return nil, fmt.Errorf("port %d is taken (another program, or Companion is already running): choose another for %s with %s, for example %s %s", port, who, flagName, flagName, suggest)
}
