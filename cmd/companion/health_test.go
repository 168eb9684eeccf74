package main

import (
	"bytes"
	"net"
	"strings"
	"testing"
)

// TestHealthCommand: `companion health` finds the server of the data folder
// (server.json), exits 0 with its readiness answer, and 1 when none runs.
func TestHealthCommand(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("COMPANION_HOST_ADDR", "")
	t.Setenv("COMPANION_DATA", dir)
	// A port nothing listens on (the default one may be another server's).
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := ln.Addr().String()
	ln.Close()
	var out, errOut bytes.Buffer
	if code := run([]string{"health", "--timeout", "2s", "--host-addr", closed}, &out, &errOut); code != 1 || !strings.Contains(errOut.String(), "not running") {
		t.Fatalf("no server: exit %d, %q", code, errOut.String())
	}
	startServe(t, dir, "--empty")
	out.Reset()
	errOut.Reset()
	if code := run([]string{"health"}, &out, &errOut); code != 0 || !strings.Contains(out.String(), `"status":"ready"`) {
		t.Fatalf("running server: exit %d, out %q, err %q", code, out.String(), errOut.String())
	}
}
