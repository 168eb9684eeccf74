package api

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vttapp/companion/internal/testkit"
	"github.com/vttapp/companion/tests/e2e"
)

// fakeWebClient is an installed client's archive: a tiny index.html and
// script wrapped in one top folder, with the meta.json the Encounter+ web
// client's release carries.
func fakeWebClient(t *testing.T, version string) []byte {
	return testkit.Zip(t,
		"web-client/index.html", `<!doctype html><title>Fake web client `+version+`</title><script src="main.js"></script>`,
		"web-client/main.js", `document.title += " ran";`,
		"web-client/meta.json", `{"name":"Fake Web Client","version":"`+version+`"}`,
	)
}

// clientPage is the body of the public listener's /client/.
func clientPage(t *testing.T, s *e2e.Server) string {
	t.Helper()
	resp, err := http.Get(s.URL + "/client/")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("/client/: %d %s", resp.StatusCode, data)
	}
	return string(data)
}

// The command line installs a client from a file and from a URL, keeps it
// through a broken install, and removes it.
func TestClientCommands(t *testing.T) {
	s := e2e.StartServer(t, e2e.ServerOptions{})
	hostAddr := strings.TrimPrefix(s.HostURL, "http://")
	builtIn := clientPage(t, s)

	if code, _, errOut := e2e.ImportRun(t, "client"); code != 2 || !strings.Contains(errOut, "companion client install") {
		t.Errorf("no action: %d %q", code, errOut)
	}

	dir := t.TempDir()
	zipPath := filepath.Join(dir, "web-client.zip")
	os.WriteFile(zipPath, fakeWebClient(t, "1.0.0"), 0o644)
	code, out, errOut := e2e.ImportRun(t, "client", "install", "--host-addr", hostAddr, zipPath)
	var info struct {
		Installed     bool
		Name, Version string
	}
	if code != 0 || json.Unmarshal([]byte(out), &info) != nil || !info.Installed || info.Name != "Fake Web Client" || info.Version != "1.0.0" {
		t.Fatalf("install file: %d %q %q", code, out, errOut)
	}
	if page := clientPage(t, s); !strings.Contains(page, "Fake web client 1.0.0") {
		t.Fatalf("/client/ after install: %q", page)
	}
	if _, err := os.Stat(filepath.Join(s.DataDir, "client", "index.html")); err != nil {
		t.Fatalf("not installed in the data folder: %v", err)
	}

	// A broken archive: a clear error, the installed client unchanged.
	badPath := filepath.Join(dir, "broken.zip")
	os.WriteFile(badPath, []byte("this is not a zip"), 0o644)
	code, _, errOut = e2e.ImportRun(t, "client", "install", "--host-addr", hostAddr, badPath)
	if code != 1 || !strings.Contains(errOut, "zip archive") {
		t.Fatalf("broken install: %d %q", code, errOut)
	}
	if page := clientPage(t, s); !strings.Contains(page, "Fake web client 1.0.0") {
		t.Fatalf("/client/ after a broken install: %q", page)
	}

	// From a URL (plain http on loopback: the local network is allowed).
	files := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write(fakeWebClient(t, "2.0.0"))
	}))
	defer files.Close()
	code, out, errOut = e2e.ImportRun(t, "client", "install", "--host-addr", hostAddr, files.URL+"/web-client.zip")
	if code != 0 || !strings.Contains(out, `"version":"2.0.0"`) {
		t.Fatalf("install URL: %d %q %q", code, out, errOut)
	}
	if page := clientPage(t, s); !strings.Contains(page, "Fake web client 2.0.0") {
		t.Fatalf("/client/ after the URL install: %q", page)
	}
	var offers []struct{ Type, Status string }
	if e2e.ImportGetJSON(t, s.HostURL+"/host/api/offers", &offers); len(offers) != 1 || offers[0].Type != "client" || offers[0].Status != "installed" {
		t.Fatalf("offers: %+v", offers)
	}
	code, _, errOut = e2e.ImportRun(t, "client", "install", "--host-addr", hostAddr, "http://example.org/web-client.zip")
	if code != 1 || !strings.Contains(errOut, "Plain http can only be used for a source on the local network") {
		t.Fatalf("remote http: %d %q", code, errOut)
	}

	code, out, errOut = e2e.ImportRun(t, "client", "remove", "--host-addr", hostAddr)
	if code != 0 || strings.TrimSpace(out) != `{"installed":false}` {
		t.Fatalf("remove: %d %q %q", code, out, errOut)
	}
	if page := clientPage(t, s); page != builtIn {
		t.Fatalf("/client/ after removal is not the built-in client")
	}
	code, _, errOut = e2e.ImportRun(t, "client", "remove", "--host-addr", hostAddr)
	if code != 1 || !strings.Contains(errOut, "no web client is installed") {
		t.Fatalf("second remove: %d %q", code, errOut)
	}
}
