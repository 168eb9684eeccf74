package main

import (
	"net"
	"testing"
)

// The host console installs content and changes settings: it must listen
// on loopback only, judged from the address text, never from what a name
// resolves to.
func TestHostAddrHostileForms(t *testing.T) {
	for _, addr := range []string{
		"127.0.0.1.nip.io:8081", // a public name that resolves to loopback
		"localhost.:8081",
		"localhost.evil.com:8081",
		"127.1:8081",        // short form: a name to the resolver
		"0x7f.0.0.1:8081",   // hexadecimal
		"2130706433:8081",   // decimal
		"[::]:8081",         // every interface
		"[fe80::1%lo]:8081", // link-local is reachable by neighbours
		"[::ffff:0.0.0.0]:8081",
		"127.0.0.1%lo:8081",
		"127.0.0.1:-1",
		"127.0.0.1:http",
		"",
	} {
		if _, err := loopbackAddr(addr); err == nil {
			t.Errorf("%q accepted", addr)
		}
	}
	for _, addr := range []string{"[::ffff:127.0.0.1]:8081", "[0:0:0:0:0:0:0:1]:8081", "127.0.0.1:0"} {
		if _, err := loopbackAddr(addr); err != nil {
			t.Errorf("%q refused: %v", addr, err)
		}
	}
}

// "localhost" is accepted but bound as 127.0.0.1: the resolver (or a
// hosts file) could map the name to another interface.
func TestHostAddrLocalhostIsBoundAsTheLoopbackAddress(t *testing.T) {
	for _, addr := range []string{"localhost:8099", "LOCALHOST:8099"} {
		cfg, _, err := parseServeFlags([]string{"--host-addr", addr}, noEnv)
		if err != nil {
			t.Fatal(err)
		}
		host, port, _ := net.SplitHostPort(cfg.HostAddr)
		if host != "127.0.0.1" || port != "8099" {
			t.Errorf("%s: listening on %q", addr, cfg.HostAddr)
		}
	}
}
