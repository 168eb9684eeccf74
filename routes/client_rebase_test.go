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
