package main

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vttapp/companion/core/engine"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/imports"
	"github.com/vttapp/companion/routes"
	"github.com/vttapp/companion/store/sqlite"
)

func TestLinkCheck(t *testing.T) {
	for _, tc := range []struct {
		args        []string
		code        int
		out, errOut string
	}{
		{[]string{"check", "vttapp://import?manifest=https%3A%2F%2Fexample.org%2Fm.json"}, 0, `{"action":"import","manifest":"https://example.org/m.json"}`, ""},
		{[]string{"check", "vttapp-beta://import?url=https%3A%2F%2Fexample.org%2Fa.module&utm=x"}, 0, `{"action":"import","url":"https://example.org/a.module"}`, ""},
		{[]string{"check", "vttapp://import"}, 1, "", imports.MsgNoSource},
		{[]string{"check", "vttapp://import?manifest=https%3A%2F%2Fa.org&url=https%3A%2F%2Fa.org"}, 1, "", imports.MsgBothSources},
		{[]string{"check", "vttapp://import?url=http%3A%2F%2Fa.org%2Fx.module"}, 1, "", imports.MsgHTTPSOnly},
		{[]string{"check", "vttapp://import?url=https%3A%2F%2Fa.org%2Fmy file.module"}, 1, "", imports.MsgNotEncoded},
		{[]string{"check", "vttapp://export?url=https%3A%2F%2Fa.org"}, 1, "", imports.MsgUnknownAction},
		{[]string{"check"}, 2, "", "usage"},
	} {
		var out, errOut bytes.Buffer
		code := runLink(tc.args, &out, &errOut)
		if code != tc.code || strings.TrimSpace(out.String()) != tc.out || !strings.Contains(errOut.String(), tc.errOut) {
			t.Errorf("%v: code %d out %q err %q", tc.args, code, out.String(), errOut.String())
		}
		if tc.code == 1 && strings.TrimSpace(errOut.String()) != tc.errOut {
			t.Errorf("%v: stderr must be exactly the message, got %q", tc.args, errOut.String())
		}
	}
}

// hostConsole runs the host handler with an import manager over a real store.
func hostConsole(t *testing.T) (addr string, mgr *imports.Manager, dataDir string) {
	t.Helper()
	dataDir = t.TempDir()
	store, err := sqlite.Open(filepath.Join(dataDir, "companion.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	svc := engine.NewService(engine.ServiceConfig{Store: store})
	c := &core.Campaign{ID: "camp", System: "dnd5e", Name: "Demo", Primary: true}
	c.Normalize()
	store.Update(context.Background(), func(tx core.Tx) error { return tx.PutCampaign(c) })
	mgr = imports.NewManager(imports.Config{Service: svc, DataDir: dataDir, Collections: linkTestCollections{}})
	t.Cleanup(mgr.Close)
	srv := httptest.NewServer(routes.NewHostHandler(routes.Config{Service: svc, DataDir: dataDir, Imports: mgr, MaxBodyBytes: 64 << 20}))
	t.Cleanup(srv.Close)
	return strings.TrimPrefix(srv.URL, "http://"), mgr, dataDir
}

type linkTestCollections struct{}

func (linkTestCollections) SystemID() string { return "dnd5e" }
func (linkTestCollections) KindForCollection(label string) (string, bool) {
	return strings.TrimSuffix(label, "s"), label == "monsters"
}

func (linkTestCollections) CollectionForKind(kind string) (string, bool) {
	return kind + "s", kind == "monster"
}

func linkTestModule(t *testing.T, name string) []byte {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for name, body := range map[string]string{"module.json": `{"name":"` + name + `"}`, "monsters.json": `[{"name":"Bat"}]`, "padding.bin": strings.Repeat("z", 200000)} {
		w, _ := zw.CreateHeader(&zip.FileHeader{Name: name, Method: zip.Store})
		w.Write([]byte(body))
	}
	zw.Close()
	return buf.Bytes()
}

func TestOpenOffersTheLink(t *testing.T) {
	addr, mgr, _ := hostConsole(t)
	var out, errOut bytes.Buffer
	code := runOpen([]string{"--host-addr", addr, "vttapp://import?url=https%3A%2F%2Fexample.org%2Fbats.module"}, &out, &errOut)
	if code != 0 {
		t.Fatalf("code %d: %s", code, errOut.String())
	}
	var o imports.Offer
	if err := json.Unmarshal(out.Bytes(), &o); err != nil || o.URL != "https://example.org/bats.module" || o.From != "link" {
		t.Fatalf("%s %v", out.String(), err)
	}
	if offers := mgr.Offers(); len(offers) != 1 || offers[0].Status != imports.StatusPending {
		t.Errorf("offers %+v", offers)
	}
	out.Reset()
	errOut.Reset()
	if code := runOpen([]string{"--host-addr", addr, "vttapp://import"}, &out, &errOut); code != 1 || errorLine(t, errOut.String()) != imports.MsgNoSource {
		t.Errorf("bad link: %d %q", code, errOut.String())
	}
	errOut.Reset()
	if code := runOpen([]string{"--host-addr", "127.0.0.1:1", "vttapp://import?url=https%3A%2F%2Fa.org%2Fx.module"}, &out, &errOut); code != 1 || !strings.Contains(errOut.String(), "not running") {
		t.Errorf("no server: %d %q", code, errOut.String())
	}
}

// errorLine is the message of the one JSON error line a command writes on
// stderr for a script; it fails the test when stderr is anything else.
func errorLine(t *testing.T, stderr string) string {
	t.Helper()
	var e struct {
		Error string `json:"error"`
	}
	if strings.Count(stderr, "\n") != 1 || json.Unmarshal([]byte(stderr), &e) != nil || e.Error == "" {
		t.Errorf("stderr %q is not one JSON line {\"error\": ...}", stderr)
	}
	return e.Error
}

func TestImportFileAndURL(t *testing.T) {
	addr, _, dataDir := hostConsole(t)
	archive := linkTestModule(t, "Marsh Bats")
	path := filepath.Join(t.TempDir(), "bats.module")
	os.WriteFile(path, archive, 0o644)
	var out, errOut bytes.Buffer
	// For a script (stdout and stderr not a terminal): the result as JSON,
	// and no progress bar.
	if code := runImport([]string{"--host-addr", addr, path}, &out, &errOut); code != 0 {
		t.Fatalf("file: %d %s", code, errOut.String())
	}
	var res imports.Result
	if err := json.Unmarshal(out.Bytes(), &res); err != nil || res.Kind != "module" || res.Name != "Marsh Bats" {
		t.Fatalf("%s %v", out.String(), err)
	}
	if errOut.Len() != 0 {
		t.Errorf("piped, the import wrote %q on stderr, want nothing (no progress bar)", errOut.String())
	}
	// For a person, the bar and the sentence.
	out.Reset()
	t.Setenv("COMPANION_OUTPUT", "text")
	if code := runImport([]string{"--host-addr", addr, path}, &out, &errOut); code != 0 {
		t.Fatalf("file: %d %s", code, errOut.String())
	}
	if !strings.Contains(out.String(), `Imported module "Marsh Bats"`) {
		t.Errorf("for a person: %q", out.String())
	}
	if !strings.Contains(errOut.String(), "upload [") || !strings.Contains(errOut.String(), "100%") {
		t.Errorf("no progress bar: %q", errOut.String())
	}
	t.Setenv("COMPANION_OUTPUT", "")
	if _, err := os.Stat(filepath.Join(dataDir, "modules", res.ID, "padding.bin")); err != nil {
		t.Error(err)
	}

	// A URL is fetched by the server (loopback http is local), with a bar.
	rats := linkTestModule(t, "Marsh Rats")
	content := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/missing.module" {
			http.NotFound(w, r)
			return
		}
		w.Write(rats)
	}))
	defer content.Close()
	out.Reset()
	errOut.Reset()
	t.Setenv("COMPANION_OUTPUT", "text")
	if code := runImport([]string{"--host-addr", addr, content.URL + "/rats.module"}, &out, &errOut); code != 0 {
		t.Fatalf("url: %d %s", code, errOut.String())
	}
	if !strings.Contains(out.String(), `Imported module "Marsh Rats"`) {
		t.Fatalf("%s", out.String())
	}
	if !strings.Contains(errOut.String(), "download") {
		t.Errorf("no progress bar: %q", errOut.String())
	}
	t.Setenv("COMPANION_OUTPUT", "")

	// Errors: a sentence for a person, one JSON line for a script.
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--host-addr", addr, "http://example.org/x.module"}, "Plain http"},
		{[]string{"--host-addr", addr, filepath.Join(t.TempDir(), "missing.module")}, "cannot read"},
		{[]string{"--host-addr", addr, content.URL + "/missing.module"}, "404"},
	} {
		errOut.Reset()
		t.Setenv("COMPANION_OUTPUT", "text")
		if code := runImport(tc.args, &out, &errOut); code != 1 || !strings.Contains(errOut.String(), tc.want) || strings.HasPrefix(errOut.String(), "{") {
			t.Errorf("%v: %d %q", tc.args, code, errOut.String())
		}
		errOut.Reset()
		t.Setenv("COMPANION_OUTPUT", "")
		if code := runImport(tc.args, &out, &errOut); code != 1 || !strings.Contains(errorLine(t, errOut.String()), tc.want) {
			t.Errorf("piped %v: %d %q", tc.args, code, errOut.String())
		}
	}
}
