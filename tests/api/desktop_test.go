package api

import (
	"encoding/json"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/vttapp/companion/internal/testkit"
	"github.com/vttapp/companion/tests/e2e"
)

// desktopEnv is the environment of a desktop session whose XDG folders
// are temporary: install-desktop writes there, and the commands the
// desktop runs read the data folder and open pages with a recorder.
type desktopEnv struct {
	env              []string
	dataHome, config string
	opened           string // file the fake browser writes the page it opens to
}

func newDesktopEnv(t *testing.T, dataDir string) *desktopEnv {
	t.Helper()
	if runtime.GOOS != "linux" {
		t.Skip("the desktop hand-off is written for freedesktop.org desktops")
	}
	root := t.TempDir()
	d := &desktopEnv{dataHome: filepath.Join(root, "share"), config: filepath.Join(root, "config"), opened: filepath.Join(root, "opened")}
	browser := filepath.Join(root, "browser")
	if err := os.WriteFile(browser, []byte("#!/bin/sh\nprintf '%s' \"$1\" > "+d.opened+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	d.env = append(os.Environ(), "HOME="+root, "XDG_DATA_HOME="+d.dataHome, "XDG_CONFIG_HOME="+d.config,
		"COMPANION_DATA="+dataDir, "COMPANION_BROWSER="+browser, "COMPANION_HOST_ADDR=", "COMPANION_LUA_TIMEOUT=10s")
	return d
}

// install runs install-desktop and returns the command line of the desktop
// entry's Exec key, unquoted as a desktop would.
func (d *desktopEnv) install(t *testing.T) []string {
	t.Helper()
	cmd := exec.Command(e2e.CompanionBinary(t), "install-desktop")
	cmd.Env = d.env
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("install-desktop: %v\n%s", err, out)
	}
	entry, err := os.ReadFile(filepath.Join(d.dataHome, "applications", "companion.desktop"))
	if err != nil {
		t.Fatal(err)
	}
	apps, err := os.ReadFile(filepath.Join(d.config, "mimeapps.list"))
	if err != nil || !strings.Contains(string(apps), "x-scheme-handler/vttapp=companion.desktop") {
		t.Fatalf("mimeapps.list does not hand vttapp links to Companion: %v\n%s", err, apps)
	}
	for _, line := range strings.Split(string(entry), "\n") {
		if rest, ok := strings.CutPrefix(line, "Exec="); ok {
			return unquoteExec(t, rest)
		}
	}
	t.Fatalf("no Exec key:\n%s", entry)
	return nil
}

// run runs the Exec command line with %U replaced by the given URLs.
func (d *desktopEnv) run(t *testing.T, exec_ []string, urls ...string) string {
	t.Helper()
	var args []string
	for _, a := range exec_[1:] {
		if a == "%U" {
			args = append(args, urls...)
			continue
		}
		args = append(args, a)
	}
	cmd := exec.Command(exec_[0], args...)
	cmd.Env = d.env
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v: %v\n%s", cmd.Args, err, out)
	}
	return string(out)
}

func (d *desktopEnv) openedPage(t *testing.T) string {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if b, err := os.ReadFile(d.opened); err == nil && len(b) > 0 {
			return string(b)
		}
	}
	return ""
}

// unquoteExec splits an Exec value: desktop string escapes first (\\ is
// \), then the quoting rules of the Exec key (inside "...", \ escapes
// the next character).
func unquoteExec(t *testing.T, value string) []string {
	t.Helper()
	value = strings.ReplaceAll(value, `\\`, `\`)
	var args []string
	var cur strings.Builder
	inQuotes, escaped, started := false, false, false
	for _, r := range value {
		switch {
		case escaped:
			cur.WriteRune(r)
			escaped = false
		case inQuotes && r == '\\':
			escaped = true
		case r == '"':
			inQuotes, started = !inQuotes, true
		case r == ' ' && !inQuotes:
			if started {
				args = append(args, cur.String())
				cur.Reset()
				started = false
			}
		default:
			cur.WriteRune(r)
			started = true
		}
	}
	if started {
		args = append(args, cur.String())
	}
	return args
}

type offerView struct {
	ID     string `json:"id"`
	URL    string `json:"url"`
	File   string `json:"file"`
	From   string `json:"from"`
	Status string `json:"status"`
}

func hostOffers(t *testing.T, hostURL string) []offerView {
	t.Helper()
	code, body := get(t, hostURL+"/host/api/offers")
	var offers []offerView
	if code != 200 || json.Unmarshal([]byte(body), &offers) != nil {
		t.Fatalf("offers: %d %s", code, body)
	}
	return offers
}

const handOffSource = "https://example.org/marsh-bats/marsh-bats.module"

func handOffLink() string {
	return "vttapp://import?url=" + url.QueryEscape(handOffSource)
}

// TestDesktopLinkReachesTheRunningServer is the hand-off's acceptance:
// install-desktop writes the entry into temporary XDG folders, and the
// command it registers, given a vttapp:// link and a content file as a
// desktop gives them (%U), offers both to the running server, where they
// wait for the person at the device, and opens its host console.
func TestDesktopLinkReachesTheRunningServer(t *testing.T) {
	s := e2e.StartServer(t, e2e.ServerOptions{})
	d := newDesktopEnv(t, s.DataDir)
	execLine := d.install(t)
	if len(execLine) != 3 || execLine[0] != e2e.CompanionBinary(t) || execLine[1] != "launch" || execLine[2] != "%U" {
		t.Fatalf("Exec runs %q, want [%s launch %%U]", execLine, e2e.CompanionBinary(t))
	}
	module := filepath.Join(t.TempDir(), "marsh bats.module")
	if err := os.WriteFile(module, testkit.Zip(t, "module.json", `{"name":"Marsh Bats","system":"dnd5e"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	fileURL := (&url.URL{Scheme: "file", Path: module}).String()
	d.run(t, execLine, handOffLink(), fileURL)

	offers := hostOffers(t, s.HostURL)
	if len(offers) != 2 {
		t.Fatalf("offers on the host console: %+v", offers)
	}
	byLink, byFile := offers[0], offers[1]
	if byLink.URL != handOffSource || byLink.From != "link" || byLink.Status != "pending" {
		t.Errorf("the link's offer: %+v", byLink)
	}
	if byFile.File != "marsh bats.module" || byFile.From != "file" || byFile.Status != "pending" {
		t.Errorf("the file's offer: %+v", byFile)
	}
	if got := d.openedPage(t); got != s.HostURL+"/host/" {
		t.Errorf("opened %q, want the host console %s/host/", got, s.HostURL)
	}
}

// TestDesktopLinkStartsTheServerWhenNoneRuns: with no server running, the
// registered command starts one in the background on the data folder,
// then offers the link to it.
func TestDesktopLinkStartsTheServerWhenNoneRuns(t *testing.T) {
	dataDir := t.TempDir()
	d := newDesktopEnv(t, dataDir)
	d.env = append(d.env, "COMPANION_ADDR=127.0.0.1:0", "COMPANION_MDNS=false")
	execLine := d.install(t)
	// The server started in the background takes free ports; stop it when
	// the test ends, by the pid it wrote.
	t.Cleanup(func() { stopBackgroundServer(t, dataDir) })
	started := d.runWithHostAddr(t, execLine, "127.0.0.1:0", handOffLink())
	if !strings.Contains(started, "Starting Companion") {
		t.Errorf("no word of the server being started:\n%s", started)
	}
	var inst struct {
		PID      int    `json:"pid"`
		HostAddr string `json:"hostAddr"`
	}
	data, err := os.ReadFile(filepath.Join(dataDir, "server.json"))
	if err != nil || json.Unmarshal(data, &inst) != nil {
		t.Fatalf("no server.json: %v", err)
	}
	offers := hostOffers(t, "http://"+inst.HostAddr)
	if len(offers) != 1 || offers[0].URL != handOffSource || offers[0].Status != "pending" {
		t.Fatalf("offers on the started server: %+v", offers)
	}
	if got := d.openedPage(t); got != "http://"+inst.HostAddr+"/host/" {
		t.Errorf("opened %q", got)
	}
}

// runWithHostAddr runs the Exec line with the background server's host
// console on hostAddr (127.0.0.1:0: a free port; the launcher finds it in
// server.json).
func (d *desktopEnv) runWithHostAddr(t *testing.T, execLine []string, hostAddr string, urls ...string) string {
	t.Helper()
	saved := d.env
	d.env = append(append([]string{}, d.env...), "COMPANION_HOST_ADDR="+hostAddr)
	defer func() { d.env = saved }()
	return d.run(t, execLine, urls...)
}

// stopBackgroundServer interrupts the server a launch started (its pid is
// in server.json) and waits until it has removed the file.
func stopBackgroundServer(t *testing.T, dataDir string) {
	var inst struct {
		PID int `json:"pid"`
	}
	data, err := os.ReadFile(filepath.Join(dataDir, "server.json"))
	if err != nil || json.Unmarshal(data, &inst) != nil || inst.PID <= 0 {
		return
	}
	p, err := os.FindProcess(inst.PID)
	if err != nil {
		return
	}
	p.Signal(syscall.SIGINT)
	for deadline := time.Now().Add(15 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if _, err := os.Stat(filepath.Join(dataDir, "server.json")); os.IsNotExist(err) {
			return
		}
	}
	p.Kill()
	t.Errorf("the background server (pid %d) did not stop within 15 s of SIGINT", inst.PID)
}
