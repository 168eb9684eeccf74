package routes

import (
	"bytes"
	"io"
	"mime/multipart"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vttapp/companion/imports"
	"github.com/vttapp/companion/internal/testkit"
)

// fakeClientZip is an installed client's archive built here: a tiny
// index.html and script, wrapped in one top folder.
func fakeClientZip(t *testing.T, version string) []byte {
	return testkit.Zip(t,
		"build/index.html", `<!doctype html><title>Fake client `+version+`</title><script src="main.js"></script>`,
		"build/main.js", `console.log("fake `+version+`")`,
		"build/meta.json", `{"name":"Fake Client","version":"`+version+`"}`,
	)
}

func uploadClient(t *testing.T, env *importEnv, data []byte) (int, []byte) {
	t.Helper()
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	fw, _ := mw.CreateFormFile("file", "web-client.zip")
	fw.Write(data)
	mw.Close()
	return testkit.Do(t, "POST", env.host.URL+"/host/api/client", mw.FormDataContentType(), &buf)
}

// getClientPage fetches a page of the public listener with its headers.
func getClientPage(t *testing.T, env *importEnv, path string) (int, http.Header, string) {
	t.Helper()
	resp, err := http.Get(env.public.URL + path)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header, string(data)
}

func hostClientInfo(t *testing.T, env *importEnv) imports.ClientInfo {
	t.Helper()
	status, body := testkit.Do(t, "GET", env.host.URL+"/host/api/client", "", nil)
	if status != http.StatusOK {
		t.Fatalf("GET /host/api/client: %d %s", status, body)
	}
	var info imports.ClientInfo
	importJSON(t, body, &info)
	return info
}

func TestInstalledClientServedInsteadOfBuiltIn(t *testing.T) {
	env := newImportEnv(t)
	if info := hostClientInfo(t, env); info.Installed {
		t.Fatalf("fresh data folder: %+v", info)
	}
	status, h, builtIn := getClientPage(t, env, "/client/")
	if status != 200 || !strings.Contains(builtIn, "app.js") || h.Get("Content-Security-Policy") != clientPolicy {
		t.Fatalf("built-in client: %d %q csp %q", status, builtIn, h.Get("Content-Security-Policy"))
	}

	status, body := uploadClient(t, env, fakeClientZip(t, "1.0.0"))
	if status != http.StatusCreated {
		t.Fatalf("install: %d %s", status, body)
	}
	var info imports.ClientInfo
	importJSON(t, body, &info)
	if !info.Installed || info.Name != "Fake Client" || info.Version != "1.0.0" {
		t.Fatalf("install answered %+v", info)
	}
	if got := hostClientInfo(t, env); got != info {
		t.Fatalf("GET answered %+v, install %+v", got, info)
	}

	status, h, page := getClientPage(t, env, "/client/")
	if status != 200 || !strings.Contains(page, "Fake client 1.0.0") {
		t.Fatalf("/client/ after install: %d %q", status, page)
	}
	// The entry page is never kept (a Back restores no dead page).
	if h.Get("Content-Security-Policy") != clientPolicy || h.Get("Cache-Control") != "no-store" || h.Get("ETag") == "" {
		t.Fatalf("headers: %v", h)
	}
	if !strings.Contains(clientPolicy, "connect-src 'self' ws: wss:") || strings.Contains(clientPolicy, "sandbox") {
		t.Fatalf("the client policy must let the client connect and run: %s", clientPolicy)
	}
	firstETag := h.Get("ETag")
	status, h, js := getClientPage(t, env, "/client/main.js")
	if status != 200 || js != `console.log("fake 1.0.0")` || !strings.Contains(h.Get("Content-Type"), "javascript") {
		t.Fatalf("main.js: %d %q %q", status, js, h.Get("Content-Type"))
	}
	if status, _, _ := getClientPage(t, env, "/client/index.html"); status != 200 {
		t.Fatalf("/client/index.html: %d", status)
	}
	// No mixing with the built-in client's files, no SPA fallback.
	for _, path := range []string{"/client/app.js", "/client/some/route", "/client/missing.js"} {
		if status, _, _ := getClientPage(t, env, path); status != http.StatusNotFound {
			t.Errorf("%s: %d, want 404", path, status)
		}
	}

	// A broken second install leaves the installed client as it was.
	broken := [][]byte{
		[]byte("not a zip at all"),
		testkit.Zip(t, "build/main.js", "no index"),
		testkit.Zip(t, "index.html", "x", "../escape.js", "x"),
	}
	for _, data := range broken {
		status, body := uploadClient(t, env, data)
		if status != http.StatusBadRequest {
			t.Fatalf("broken install: %d %s", status, body)
		}
		status, h, again := getClientPage(t, env, "/client/")
		if status != 200 || again != page || h.Get("ETag") != firstETag {
			t.Fatalf("after a broken install: %d %q etag %q (was %q)", status, again, h.Get("ETag"), firstETag)
		}
	}
	if got := hostClientInfo(t, env); got.Version != "1.0.0" {
		t.Fatalf("info after broken installs: %+v", got)
	}

	// A new version: index.html is not served stale (new ETag).
	if status, body := uploadClient(t, env, fakeClientZip(t, "1.1.0")); status != http.StatusCreated {
		t.Fatalf("second install: %d %s", status, body)
	}
	_, h, page = getClientPage(t, env, "/client/")
	if !strings.Contains(page, "Fake client 1.1.0") || h.Get("ETag") == firstETag {
		t.Fatalf("after update: %q etag %q", page, h.Get("ETag"))
	}
	req, _ := http.NewRequest("GET", env.public.URL+"/client/", nil)
	req.Header.Set("If-None-Match", firstETag)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("revalidating the old index.html answered %d, want 200 with the new one", resp.StatusCode)
	}

	// Removal: the built-in client again.
	status, body = testkit.Do(t, "DELETE", env.host.URL+"/host/api/client", "", nil)
	if status != http.StatusOK || !strings.Contains(string(body), `"installed":false`) {
		t.Fatalf("remove: %d %s", status, body)
	}
	if _, _, page := getClientPage(t, env, "/client/"); page != builtIn {
		t.Fatalf("after removal /client/ is not the built-in client: %q", page)
	}
	status, body = testkit.Do(t, "DELETE", env.host.URL+"/host/api/client", "", nil)
	if status != http.StatusNotFound || !strings.Contains(string(body), "no web client is installed") {
		t.Fatalf("second remove: %d %s", status, body)
	}
}

func TestHostClientRequestErrors(t *testing.T) {
	env := newImportEnv(t)
	status, body := testkit.Do(t, "POST", env.host.URL+"/host/api/client", "application/json", strings.NewReader(`{"url":"https://example.com/c.zip"}`))
	if status != http.StatusBadRequest || !strings.Contains(string(body), `\"type\": \"client\"`) {
		t.Fatalf("JSON install: %d %s", status, body)
	}
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	mw.WriteField("other", "x")
	mw.Close()
	status, body = testkit.Do(t, "POST", env.host.URL+"/host/api/client", mw.FormDataContentType(), &buf)
	if status != http.StatusBadRequest || !strings.Contains(string(body), "no 'file' field") {
		t.Fatalf("no file: %d %s", status, body)
	}
	// The public listener has no such route.
	if status, _ := testkit.Do(t, "DELETE", env.public.URL+"/host/api/client", "", nil); status == http.StatusOK {
		t.Fatal("the public listener removed the client")
	}
	for _, c := range []struct{ body, says string }{
		{`{"type":"theme","url":"https://example.com/c.zip"}`, "unknown offer type"},
		{`{"type":"client"}`, "takes a 'url'"},
		{`{"type":"client","manifest":"https://example.com/m.json","url":"https://example.com/c.zip"}`, "no 'link' or 'manifest'"},
		{`{"type":"client","url":"http://example.com/c.zip"}`, "Plain http"},
		{`{"type":"client","url":"file:///etc/passwd"}`, "Only https"},
	} {
		status, body := testkit.Do(t, "POST", env.host.URL+"/host/api/offers", "application/json", strings.NewReader(c.body))
		if status != http.StatusBadRequest || !strings.Contains(string(body), c.says) {
			t.Errorf("%s: %d %s", c.body, status, body)
		}
	}
}

// A client offered by URL is fetched only once accepted, then served.
func TestHostClientOfferByURL(t *testing.T) {
	env := newImportEnv(t)
	env.content.put("/web-client.zip", fakeClientZip(t, "2.0.0"))
	status, body := testkit.Do(t, "POST", env.host.URL+"/host/api/offers", "application/json",
		strings.NewReader(`{"type":"client","url":"`+env.content.URL+`/web-client.zip"}`))
	if status != http.StatusCreated {
		t.Fatalf("offer: %d %s", status, body)
	}
	var o imports.Offer
	importJSON(t, body, &o)
	if o.Type != "client" || o.Status != imports.StatusPending || !strings.Contains(string(body), `"type":"client"`) {
		t.Fatalf("offer: %s", body)
	}
	if info := hostClientInfo(t, env); info.Installed {
		t.Fatal("installed before the offer was accepted")
	}
	if status, body := testkit.Do(t, "POST", env.host.URL+"/host/api/offers/"+o.ID+"/accept", "", nil); status != http.StatusAccepted {
		t.Fatalf("accept: %d %s", status, body)
	}
	o = importWaitOffer(t, env, o.ID, false)
	if o.Status != imports.StatusInstalled || o.Result == nil || o.Result.Kind != "client" || o.Result.Name != "Fake Client 2.0.0" {
		t.Fatalf("offer settled as %+v", o)
	}
	if _, _, page := getClientPage(t, env, "/client/"); !strings.Contains(page, "Fake client 2.0.0") {
		t.Fatalf("/client/: %q", page)
	}
}

// Requests cannot read outside the installed client's folder, by name,
// encoding or symbolic link.
func TestInstalledClientPathAttacks(t *testing.T) {
	env := newImportEnv(t)
	if status, body := uploadClient(t, env, fakeClientZip(t, "1.0.0")); status != http.StatusCreated {
		t.Fatalf("install: %d %s", status, body)
	}
	secret := filepath.Join(env.dataDir, "secret.txt")
	if err := os.WriteFile(secret, []byte("TOP SECRET"), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(env.dataDir, "client")
	links := os.Symlink(secret, filepath.Join(dir, "link.txt")) == nil &&
		os.Symlink(env.dataDir, filepath.Join(dir, "up")) == nil
	paths := []string{
		"/client/../secret.txt", "/client/%2e%2e/secret.txt", "/client/..%2fsecret.txt", "/client/%2e%2e%2fsecret.txt",
		"/client/..%5csecret.txt", "/client/main.js%00", "/client//secret.txt", "/client/./main.js/../../secret.txt",
		"/client/%2fsecret.txt", "/client/link.txt", "/client/up/secret.txt", "/client/up/companion.db",
	}
	for _, path := range paths {
		status, out := rawGetAt(t, env.public.URL, path)
		if strings.Contains(out, "TOP SECRET") || strings.Contains(out, "SQLite format") {
			t.Fatalf("%s leaked a file outside the client: %s", path, out)
		}
		if status == 200 {
			t.Errorf("%s answered 200", path)
		}
	}
	if !links {
		t.Log("no symbolic links on this system: link cases checked as plain missing files")
	}
	if status, out := rawGetAt(t, env.public.URL, "/client/main.js"); status != 200 || !strings.Contains(out, "fake 1.0.0") {
		t.Fatalf("main.js over the raw path: %d", status)
	}
}
