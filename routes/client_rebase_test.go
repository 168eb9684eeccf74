package routes

import (
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/vttapp/companion/internal/testkit"
)

func TestRebaseIndex(t *testing.T) {
	cases := map[string]string{
		`<head><base href="/"><script src="main.js"></script>`: `<head><base href="/client/"><script src="main.js"></script>`,
		`<HEAD><BASE HREF = '/' target="_top">`:                `<HEAD><base href="/client/" target="_top">`,
		"<base\n  href=\"/\"/>":                                `<base href="/client/"/>`,
		`<base href="/client/"><script src="main.js">`:         `<base href="/client/"><script src="main.js">`,
		`<base href="./">`:                                     `<base href="./">`,
		`<base href="/app/">`:                                  `<base href="/app/">`,
		`<title>no base</title>`:                               `<title>no base</title>`,
		`<p>&lt;base href="/"&gt; in text</p><base href="/">x`: `<p>&lt;base href="/"&gt; in text</p><base href="/client/">x`,
	}
	for in, want := range cases {
		f, err := fstest.MapFS{"index.html": {Data: []byte(in)}}.Open("index.html")
		if err != nil {
			t.Fatal(err)
		}
		got, err := rebaseIndex(f)
		if err != nil {
			t.Fatalf("%q: %v", in, err)
		}
		data, _ := io.ReadAll(got)
		got.Close()
		if string(data) != want {
			t.Errorf("%q became %q, want %q", in, data, want)
		}
	}
}

// An installed client built for the server's root (the Encounter+ web
// client's index.html has <base href="/">) loads its files from /client/.
func TestInstalledClientRootBaseServedUnderClient(t *testing.T) {
	env := newImportEnv(t)
	archive := testkit.Zip(t,
		"index.html", `<!doctype html><head><base href="/"></head><script src="main.js"></script>`,
		"main.js", `console.log(1)`,
		"nested/index.html", `<base href="/">`)
	if status, body := uploadClient(t, env, archive); status != http.StatusCreated {
		t.Fatalf("install: %d %s", status, body)
	}
	for _, path := range []string{"/client/", "/client/index.html"} {
		status, h, page := getClientPage(t, env, path)
		if status != 200 || !strings.Contains(page, `<base href="/client/">`) || strings.Contains(page, `<base href="/">`) {
			t.Fatalf("%s: %d %q", path, status, page)
		}
		if h.Get("Content-Length") != "" && h.Get("Content-Length") != strconv.Itoa(len(page)) {
			t.Fatalf("%s: Content-Length %s for %d bytes", path, h.Get("Content-Length"), len(page))
		}
		if h.Get("ETag") == "" || h.Get("Content-Security-Policy") != clientPolicy || !strings.HasPrefix(h.Get("Content-Type"), "text/html") {
			t.Fatalf("%s headers: %v", path, h)
		}
	}
	// Only the client's own index.html is its entry page.
	if _, _, page := getClientPage(t, env, "/client/nested/"); page != `<base href="/">` {
		t.Fatalf("nested index.html changed: %q", page)
	}
	// The revalidation of an unchanged page is a 304.
	_, h, _ := getClientPage(t, env, "/client/")
	req, _ := http.NewRequest("GET", env.public.URL+"/client/", nil)
	req.Header.Set("If-None-Match", h.Get("ETag"))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNotModified {
		t.Fatalf("revalidation: %d", resp.StatusCode)
	}
}

// The Encounter+ web client frames an entity page at the fixed
// http://localhost:8080, empty on every device but the server's: its
// scripts are served with that literal made the page's own origin (a
// rooted path), wherever a path or a template expression follows it;
// other occurrences, other files and the built-in client are as they were.
// The installed client's index.html is never cached (issue 33, items 16
// and 17).
func TestInstalledClientFramesEntitiesAtItsOwnOrigin(t *testing.T) {
	env := newImportEnv(t)
	script := "get url(){return`http://localhost:8080${this.reference}`}" +
		`;const page="http://localhost:8080/monster/goblin";const other="http://localhost:80801/x";const bare="http://localhost:8080";`
	archive := testkit.Zip(t,
		"index.html", `<!doctype html><head><base href="/"></head><script src="main.js"></script>`,
		"main.js", script,
		"notes.txt", "http://localhost:8080/monster/goblin",
		"meta.json", `{"name":"Framing Client","version":"1.0.0"}`)
	if status, body := uploadClient(t, env, archive); status != http.StatusCreated {
		t.Fatalf("install: %d %s", status, body)
	}
	want := "get url(){return`${this.reference}`}" +
		`;const page="/monster/goblin";const other="http://localhost:80801/x";const bare="http://localhost:8080";`
	status, h, js := getClientPage(t, env, "/client/main.js")
	if status != 200 || js != want {
		t.Fatalf("main.js: %d\n%s\nwant\n%s", status, js, want)
	}
	if !strings.Contains(h.Get("Content-Type"), "javascript") || h.Get("ETag") == "" || h.Get("Content-Security-Policy") != clientPolicy ||
		h.Get("X-Content-Type-Options") != "nosniff" || h.Get("Content-Length") != strconv.Itoa(len(want)) {
		t.Fatalf("main.js headers: %v", h)
	}
	// Served again from what was made once: the same bytes, revalidated by
	// its ETag.
	req, _ := http.NewRequest("GET", env.public.URL+"/client/main.js", nil)
	req.Header.Set("If-None-Match", h.Get("ETag"))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNotModified {
		t.Fatalf("revalidation: %d", resp.StatusCode)
	}
	if _, _, txt := getClientPage(t, env, "/client/notes.txt"); txt != "http://localhost:8080/monster/goblin" {
		t.Fatalf("a file that is not a script changed: %q", txt)
	}
	_, h, _ = getClientPage(t, env, "/client/")
	if h.Get("Cache-Control") != "no-store" {
		t.Fatalf("index.html Cache-Control %q, want no-store", h.Get("Cache-Control"))
	}
	// A new install is served afresh, not from what the old one made.
	archive = testkit.Zip(t,
		"index.html", `<!doctype html><script src="main.js"></script>`,
		"main.js", "get url(){return`http://localhost:8080${this.ref}`}",
		"meta.json", `{"name":"Framing Client","version":"1.0.1"}`)
	if status, body := uploadClient(t, env, archive); status != http.StatusCreated {
		t.Fatalf("install: %d %s", status, body)
	}
	if _, _, js := getClientPage(t, env, "/client/main.js"); js != "get url(){return`${this.ref}`}" {
		t.Fatalf("main.js after a new install: %q", js)
	}
	// The built-in client keeps its own files and caching.
	if status, body := testkit.Do(t, "DELETE", env.host.URL+"/host/api/client", "", nil); status != http.StatusOK {
		t.Fatalf("remove: %d %s", status, body)
	}
	if _, h, _ := getClientPage(t, env, "/client/"); h.Get("Cache-Control") == "no-store" {
		t.Fatalf("built-in index.html: %v", h)
	}
}
