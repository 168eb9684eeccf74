package tests

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// browserNames are the headless browsers the host console test can drive.
var browserNames = []string{"chromium", "chromium-browser", "google-chrome"}

// headlessBrowser returns a Chromium binary, or skips the test when there is
// none, except under CI=true where a missing browser fails it: CI must run
// the page for real.
func headlessBrowser(t *testing.T) string {
	t.Helper()
	for _, name := range browserNames {
		if path, err := exec.LookPath(name); err == nil {
			return path
		}
	}
	msg := fmt.Sprintf("no headless browser found (looked for %s on PATH); install one, e.g. apt-get install -y chromium",
		strings.Join(browserNames, ", "))
	if os.Getenv("CI") == "true" {
		t.Fatal(msg + " (CI=true: the browser test must run)")
	}
	t.Skip(msg)
	return ""
}

// renderPage loads url in headless Chromium, lets its scripts run for five
// seconds of virtual time, and returns the DOM as HTML.
func renderPage(t *testing.T, browser, url string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, browser, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
		"--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--user-data-dir="+t.TempDir(), "--virtual-time-budget=5000", "--dump-dom", url)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.WaitDelay = 5 * time.Second
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s --dump-dom %s: %v\n%s", filepath.Base(browser), url, err, stderr.String())
	}
	return stdout.String()
}

// domText is s as the DOM serialiser writes text: &, < and > escaped.
func domText(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").Replace(s)
}

// tagByID returns the opening tag of the element with id, or "".
func tagByID(dom, id string) string {
	return regexp.MustCompile(`<[a-z]+\b[^>]*\bid="` + regexp.QuoteMeta(id) + `"[^>]*>`).FindString(dom)
}

// elementByID returns the element with id up to its closing tag (for
// elements without a nested element of the same tag).
func elementByID(dom, id string) string {
	open := tagByID(dom, id)
	if open == "" {
		return ""
	}
	tag := regexp.MustCompile(`^<([a-z]+)`).FindStringSubmatch(open)[1]
	start := strings.Index(dom, open)
	end := strings.Index(dom[start:], "</"+tag+">")
	if end < 0 {
		return dom[start:]
	}
	return dom[start : start+end]
}

func hasAttr(tag, attr string) bool {
	return regexp.MustCompile(`\s` + attr + `(=|\s|>|/)`).MatchString(tag)
}

// TestHostConsolePageInBrowser starts the real server on a copy of the
// dnd5e example (so that hot reload runs), renders the host console in
// headless Chromium, and checks what the person at the device sees: the
// seeded campaign's maps and initiative, the system's name, the settings,
// and, after a broken edit, the reload error in the red banner.
func TestHostConsolePageInBrowser(t *testing.T) {
	browser := headlessBrowser(t)
	sysDir := t.TempDir()
	if err := os.CopyFS(sysDir, os.DirFS("../examples/dnd5e")); err != nil {
		t.Fatal(err)
	}
	srv := StartServer(t, ServerOptions{Args: []string{"--system", sysDir, "--remote-interaction=false"}})
	host := srv.HostURL

	var campaign struct {
		Maps []struct {
			Name     string `json:"name"`
			OnScreen bool   `json:"onScreen"`
		} `json:"maps"`
		TurnOrder []struct {
			Name string `json:"name"`
		} `json:"turnOrder"`
	}
	hostGetJSON(t, host+"/host/api/campaign", &campaign)
	if len(campaign.Maps) == 0 || len(campaign.TurnOrder) == 0 {
		t.Fatalf("the seeded campaign has %d maps and %d initiative slots; the test needs both", len(campaign.Maps), len(campaign.TurnOrder))
	}
	var system struct {
		Name string `json:"name"`
	}
	hostGetJSON(t, host+"/host/api/system", &system)

	// Pause from the API: the page must show it.
	req, _ := http.NewRequest(http.MethodPatch, host+"/host/api/settings", strings.NewReader(`{"paused": true}`))
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("PATCH settings: %v %v", resp, err)
	}
	resp.Body.Close()

	dom := renderPage(t, browser, host+"/host/")
	for _, m := range campaign.Maps {
		if !strings.Contains(elementByID(dom, "maps"), "<strong>"+domText(m.Name)+"</strong>") {
			t.Errorf("map %q is not in the maps list:\n%s", m.Name, elementByID(dom, "maps"))
		}
	}
	if !strings.Contains(elementByID(dom, "maps"), "On the player screen") {
		t.Error("no map is marked as on the player screen")
	}
	initiative := elementByID(dom, "initiative")
	for _, s := range campaign.TurnOrder {
		if !strings.Contains(initiative, domText(s.Name)) {
			t.Errorf("%q is not in the initiative list:\n%s", s.Name, initiative)
		}
	}
	if badge := elementByID(dom, "system-badge"); !strings.Contains(badge, domText(system.Name)) {
		t.Errorf("system badge = %q, want the system name %q", badge, system.Name)
	}
	if name := elementByID(dom, "system-name"); !strings.Contains(name, domText(system.Name)) {
		t.Errorf("system section = %q, want %q", name, system.Name)
	}
	if watch := elementByID(dom, "system-watch"); !strings.Contains(watch, "Watching") {
		t.Errorf("hot reload line = %q, want the watched folder", watch)
	}
	if tag := tagByID(dom, "set-remote"); tag == "" || hasAttr(tag, "checked") {
		t.Errorf("remote interaction (started off) shows as %q", tag)
	}
	if tag := tagByID(dom, "set-paused"); !hasAttr(tag, "checked") {
		t.Errorf("pause (turned on) shows as %q", tag)
	}
	if tag := tagByID(dom, "pause-badge"); tag == "" || hasAttr(tag, "hidden") {
		t.Errorf("paused badge hidden while paused: %q", tag)
	}
	if tag := tagByID(dom, "reload-error"); !hasAttr(tag, "hidden") {
		t.Errorf("reload error banner shown before any reload: %q", tag)
	}
	if t.Failed() {
		t.Logf("rendered DOM:\n%s", dom)
		return
	}

	// A broken edit: the old version keeps serving and the page shows the
	// error, file:line: message, in the red banner.
	entry := filepath.Join(sysDir, "system.lua")
	old, err := os.ReadFile(entry)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(entry, append(old, []byte("\nlocal broken = (\n")...), 0o644); err != nil {
		t.Fatal(err)
	}
	var status struct {
		LastReload *struct {
			OK    bool   `json:"ok"`
			Error string `json:"error"`
		} `json:"lastReload"`
	}
	deadline := time.Now().Add(15 * time.Second)
	for status.LastReload == nil || status.LastReload.OK {
		if time.Now().After(deadline) {
			t.Fatalf("no failed reload reported within 15s; last %+v\n%s", status.LastReload, srv.Output())
		}
		time.Sleep(100 * time.Millisecond)
		hostGetJSON(t, host+"/host/api/system", &status)
	}
	if !regexp.MustCompile(`system\.lua:\d+`).MatchString(status.LastReload.Error) {
		t.Fatalf("reload error %q does not name system.lua:line", status.LastReload.Error)
	}
	dom = renderPage(t, browser, host+"/host/")
	if tag := tagByID(dom, "reload-error"); tag == "" || hasAttr(tag, "hidden") {
		t.Fatalf("the reload error banner is hidden after a failed reload: %q", tag)
	}
	if text := elementByID(dom, "reload-error-text"); !strings.Contains(text, domText(status.LastReload.Error)) {
		t.Fatalf("banner text = %q, want %q", text, status.LastReload.Error)
	}
	// The old version still serves: the system name is unchanged.
	if badge := elementByID(dom, "system-badge"); !strings.Contains(badge, domText(system.Name)) {
		t.Errorf("system badge after a failed reload = %q", badge)
	}
}

func hostGetJSON(t *testing.T, url string, v any) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("GET %s: %d", url, resp.StatusCode)
	}
	if err := json.NewDecoder(resp.Body).Decode(v); err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
}
