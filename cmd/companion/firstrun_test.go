package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"rsc.io/qr"
)

// syncBuffer is a bytes.Buffer that the server goroutine writes while the
// test reads.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// startServe runs serve in the background on free loopback ports with
// the given extra flags, until the test ends, and waits for its instance
// file.
func startServe(t *testing.T, dataDir string, args ...string) (instance, *syncBuffer) {
	t.Helper()
	cfg, _, err := parseServeFlags(append([]string{"--data", dataDir, "--addr", "127.0.0.1:0", "--host-addr", "127.0.0.1:0", "--mdns=false", "--open=false"}, args...), noEnv)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	out := &syncBuffer{}
	done := make(chan error, 1)
	go func() { done <- serve(ctx, cfg, slog.New(slog.NewTextHandler(out, nil)), out) }()
	ended := false
	t.Cleanup(func() {
		cancel()
		if ended {
			return // serve already returned; its error was reported
		}
		if err := <-done; err != nil {
			t.Errorf("serve: %v", err)
		}
	})
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		if inst, ok := runningInstance(dataDir); ok {
			return inst, out
		}
		select {
		case err := <-done:
			ended = true
			t.Fatalf("serve ended: %v\n%s", err, out.String())
		case <-time.After(20 * time.Millisecond):
		}
	}
	t.Fatalf("no running instance after 30 s:\n%s", out.String())
	return instance{}, nil
}

// TestPortTakenIsOneClearLine: an --addr whose port another program holds
// stops the start with one line that names the port and the flag, before
// anything is written to the data folder.
func TestPortTakenIsOneClearLine(t *testing.T) {
	taken, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer taken.Close()
	port := taken.Addr().(*net.TCPAddr).Port
	dataDir := filepath.Join(t.TempDir(), "companion")
	var out, errOut bytes.Buffer
	code := run([]string{"serve", "--data", dataDir, "--addr", taken.Addr().String(), "--host-addr", "127.0.0.1:0", "--mdns=false", "--open=false"}, &out, &errOut)
	if code != 1 {
		t.Fatalf("exit %d, want 1; stderr:\n%s", code, errOut.String())
	}
	lines := strings.Split(strings.TrimSpace(errOut.String()), "\n")
	if len(lines) != 1 || !strings.HasPrefix(lines[0], "companion: port ") || !strings.Contains(lines[0], "is taken") ||
		!strings.Contains(lines[0], "--addr") || !strings.Contains(lines[0], itoa(port)) {
		t.Fatalf("want one line naming port %d and --addr, got:\n%s", port, errOut.String())
	}
	if _, err := os.Stat(dataDir); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("a start that could not listen left the data folder %s behind", dataDir)
	}
}

// TestDefaultPortTakenTakesTheNext: without --addr, a taken port gives way
// to the next free one, skipping the other listener's, and the line says
// which, in words that agree with whom the port is for.
func TestDefaultPortTakenTakesTheNext(t *testing.T) {
	for _, tc := range []struct{ flag, who, use string }{{"--addr", "players", "use"}, {"--host-addr", "the host console", "uses"}} {
		taken, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		defer taken.Close()
		port := taken.Addr().(*net.TCPAddr).Port
		// The port after it is the other listener's: it must be skipped even
		// though it is free.
		avoid := net.JoinHostPort("127.0.0.1", itoa(port+1))
		var notes bytes.Buffer
		ln, err := listenOrNext(taken.Addr().String(), true, tc.flag, tc.who, tc.use, avoid, &notes)
		if err != nil {
			t.Skipf("no free port after %d here: %v", port, err)
		}
		defer ln.Close()
		got := ln.Addr().(*net.TCPAddr).Port
		if got <= port+1 || got > port+portTries {
			t.Fatalf("listening on %d, want a port after %d other than %d", got, port, port+1)
		}
		want := "Port " + itoa(port) + " is taken, so " + tc.who + " " + tc.use + " port " + itoa(got) + " instead (choose one with " + tc.flag + ").\n"
		if notes.String() != want {
			t.Fatalf("note %q, want %q", notes.String(), want)
		}
	}
	// The banner's own words for the host console.
	cfg := &serveConfig{Addr: "127.0.0.1:0", HostAddr: "127.0.0.1:0"}
	hold, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer hold.Close()
	cfg.HostAddr = hold.Addr().String()
	var notes bytes.Buffer
	public, host, err := listenBoth(cfg, &notes)
	if err != nil {
		t.Skipf("no free port here: %v", err)
	}
	public.Close()
	host.Close()
	if !strings.Contains(notes.String(), ", so the host console uses port ") {
		t.Errorf("the note for the host console reads %q", notes.String())
	}
}

// TestInterruptedFirstStartIsRedone: a data folder left with the first-run
// marker (a start stopped while seeding) is cleared of what that start
// wrote, keeps what was there before, and is seeded afresh.
func TestInterruptedFirstStartIsRedone(t *testing.T) {
	dir := t.TempDir()
	for _, p := range []string{"modules/mine/notes.txt", "modules/half-seeded/x.json", "campaigns/half/y.json"} {
		writeTestFile(t, filepath.Join(dir, p), "x")
	}
	writeTestFile(t, filepath.Join(dir, "companion.db"), "half a database")
	before, _ := json.Marshal(firstRunState{Modules: []string{"mine"}, Campaigns: []string{}})
	writeTestFile(t, filepath.Join(dir, firstRunMarker), string(before))

	var notes []string
	folder, err := openDataFolder(dir, true, func(n string) { notes = append(notes, n) })
	if err != nil {
		t.Fatal(err)
	}
	if !folder.fresh || len(notes) != 1 {
		t.Fatalf("fresh=%v notes=%v: the interrupted start must be redone and said", folder.fresh, notes)
	}
	for _, gone := range []string{"companion.db", "modules/half-seeded", "campaigns/half"} {
		if _, err := os.Stat(filepath.Join(dir, gone)); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s is still there", gone)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "modules/mine/notes.txt")); err != nil {
		t.Errorf("what was there before the first start is gone: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, firstRunMarker)); err != nil {
		t.Errorf("the new first start runs without its marker: %v", err)
	}
	if err := folder.seeded(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, firstRunMarker)); !errors.Is(err, os.ErrNotExist) {
		t.Error("the marker outlived the seeding")
	}

	// A folder this start created goes whole when its seeding fails.
	created := filepath.Join(t.TempDir(), "new")
	folder, err = openDataFolder(created, true, func(string) {})
	if err != nil || !folder.created {
		t.Fatalf("created=%v: %v", folder.created, err)
	}
	writeTestFile(t, filepath.Join(created, "companion.db"), "x")
	if err := folder.undo(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(created); !errors.Is(err, os.ErrNotExist) {
		t.Fatal("a half-seeded new data folder was left behind")
	}
}

// TestSecondStartOnTheSameDataFolder: a second server on a data folder in
// use refuses to start; started from a desktop (--open) it opens the
// running one's host console instead and ends without an error.
func TestSecondStartOnTheSameDataFolder(t *testing.T) {
	dir := t.TempDir()
	inst, _ := startServe(t, dir, "--empty")
	opened := fakeBrowser(t)

	cfg, _, err := parseServeFlags([]string{"--data", dir, "--addr", "127.0.0.1:0", "--host-addr", "127.0.0.1:0", "--mdns=false", "--open=false"}, noEnv)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	err = serve(context.Background(), cfg, slog.New(slog.NewTextHandler(io.Discard, nil)), &out)
	if err == nil || !strings.Contains(err.Error(), "cannot use the same data folder") {
		t.Fatalf("second start: %v", err)
	}
	cfg.Open = "true"
	if err := serve(context.Background(), cfg, slog.New(slog.NewTextHandler(io.Discard, nil)), &out); !errors.Is(err, errAlreadyRunning) {
		t.Fatalf("second start with --open: %v", err)
	}
	if got, want := opened(), "http://"+inst.HostAddr+"/host/"; got != want {
		t.Fatalf("opened %q, want the running host console %q", got, want)
	}
}

// TestOpenShowsTheHostConsole: --open opens the host console in the
// browser once the server answers.
func TestOpenShowsTheHostConsole(t *testing.T) {
	opened := fakeBrowser(t)
	inst, _ := startServe(t, t.TempDir(), "--empty", "--open")
	if got, want := opened(), "http://"+inst.HostAddr+"/host/"; got != want {
		t.Fatalf("opened %q, want %q", got, want)
	}
	resp, err := http.Get("http://" + inst.HostAddr + "/host/")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("host console: %d", resp.StatusCode)
	}
}

// fakeBrowser points COMPANION_BROWSER at a script that records the page
// it is asked to open; the returned function waits for it (5 s).
func fakeBrowser(t *testing.T) func() string {
	t.Helper()
	dir := t.TempDir()
	record := filepath.Join(dir, "opened")
	script := filepath.Join(dir, "browser")
	writeTestFile(t, script, "#!/bin/sh\nprintf '%s' \"$1\" > "+record+".tmp && mv "+record+".tmp "+record+"\n")
	if err := os.Chmod(script, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("COMPANION_BROWSER", script)
	return func() string {
		for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
			if b, err := os.ReadFile(record); err == nil {
				return string(b)
			}
		}
		return ""
	}
}

// TestBannerQRCodeReadsBack: the half-block drawing holds exactly the
// modules of the link's QR code, dark where the code is dark, inside a
// light quiet zone.
func TestBannerQRCodeReadsBack(t *testing.T) {
	link := "http://192.168.1.20:8080/client/"
	drawing := terminalQR(link)
	code, err := qr.Encode(link, qr.L)
	if err != nil {
		t.Fatal(err)
	}
	var rows [][]bool // light modules, read back from the half blocks
	for _, line := range strings.Split(strings.TrimRight(drawing, "\n"), "\n") {
		line = strings.TrimPrefix(line, "  ")
		var top, bottom []bool
		for _, r := range line {
			top = append(top, r == '█' || r == '▀')
			bottom = append(bottom, r == '█' || r == '▄')
		}
		rows = append(rows, top, bottom)
	}
	const quiet = 2
	for y := -quiet; y < code.Size+quiet; y++ {
		for x := -quiet; x < code.Size+quiet; x++ {
			want := x < 0 || y < 0 || x >= code.Size || y >= code.Size || !code.Black(x, y)
			if got := rows[y+quiet][x+quiet]; got != want {
				t.Fatalf("module (%d,%d): light=%v, want %v\n%s", x, y, got, want, drawing)
			}
		}
	}
	if joinLink(&net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 8080}) != "" {
		t.Error("a QR code for a loopback address, which no phone can open")
	}
	if got := joinLink(&net.TCPAddr{IP: net.IPv4(192, 168, 1, 20), Port: 8080}); got != link {
		t.Errorf("join link %q, want %q", got, link)
	}
}

func writeTestFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

// TestHostPortTakenLeavesNoDataFolder: the host console's port taken stops
// the start the same way, naming --host-addr, with no data folder seeded
// halfway.
func TestHostPortTakenLeavesNoDataFolder(t *testing.T) {
	taken, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer taken.Close()
	dataDir := filepath.Join(t.TempDir(), "companion")
	var out, errOut bytes.Buffer
	code := run([]string{"serve", "--data", dataDir, "--addr", "127.0.0.1:0", "--host-addr", taken.Addr().String(), "--mdns=false", "--open=false"}, &out, &errOut)
	if code != 1 {
		t.Fatalf("exit %d, want 1; stderr:\n%s", code, errOut.String())
	}
	lines := strings.Split(strings.TrimSpace(errOut.String()), "\n")
	if len(lines) != 1 || !strings.Contains(lines[0], "is taken") || !strings.Contains(lines[0], "--host-addr") {
		t.Fatalf("want one line naming --host-addr, got:\n%s", errOut.String())
	}
	if _, err := os.Stat(dataDir); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("a start that could not listen left the data folder %s behind", dataDir)
	}
}
