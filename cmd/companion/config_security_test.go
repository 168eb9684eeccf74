package main

import (
	"net"
	"os"
	"path/filepath"
	"strings"
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

// TestHostAddrContainerOnlyInAContainer: --host-addr-container accepts a
// non-loopback host console address inside a container alone, never a
// name, and nothing changes without it.
func TestHostAddrContainerOnlyInAContainer(t *testing.T) {
	saved := containerMarkers
	t.Cleanup(func() { containerMarkers = saved })
	containerMarkers = []string{filepath.Join(t.TempDir(), ".dockerenv")}
	args := []string{"--host-addr", "0.0.0.0:8081", "--host-addr-container"}
	if _, _, err := parseServeFlags(args, noEnv); err == nil || !strings.Contains(err.Error(), "is for a container") {
		t.Fatalf("outside a container: %v", err)
	}
	if err := os.WriteFile(containerMarkers[0], nil, 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, _, err := parseServeFlags(args, noEnv)
	if err != nil || cfg.HostAddr != "0.0.0.0:8081" || !cfg.HostAddrContainer {
		t.Fatalf("inside a container: %+v %v", cfg, err)
	}
	if _, _, err := parseServeFlags([]string{"--host-addr", "example.com:8081", "--host-addr-container"}, noEnv); err == nil {
		t.Fatal("a host name accepted for the host console")
	}
	if _, _, err := parseServeFlags([]string{"--host-addr", "0.0.0.0:8081"}, noEnv); err == nil {
		t.Fatal("a non-loopback host console accepted without --host-addr-container")
	}
}
