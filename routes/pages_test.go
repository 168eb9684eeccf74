package routes

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/core/engine"
	"github.com/vttapp/companion/hub"
	"github.com/vttapp/companion/internal/testkit"
)

const (
	pagesModule = "mod-pages"
	pageIntro   = "page-intro"
	pageSecret  = "page-secret"
	pagesEnc    = "enc-pages"
	secretText  = "The abbess is a vampire"
)

// pagesEnv is a server pair over a module "Marsh Bats" with an intro page
// (a read-aloud section and a secret one), a secret page, an encounter.
type pagesEnv struct {
	svc          *engine.Service
	public, host *httptest.Server
	dataDir      string
}

func seedPages(tx core.Tx) error {
	m := &core.Module{ID: pagesModule, Name: "Marsh Bats", System: "dnd5e"}
	if err := m.Normalize(); err != nil {
		return err
	}
	if err := tx.PutModule(m); err != nil {
		return err
	}
	for _, p := range []*core.Page{
		{ID: pageIntro, Name: "Introduction", Content: `<p><img src="/modules/mod-pages/heading.png" alt="heading"></p><h2 id="boxed">Read aloud</h2><p>The reeds whisper.</p>` +
			`<h2>Secrets</h2><p>` + secretText + `. See <a href="/page/the-secret">the secret</a>.</p>`},
		{ID: pageSecret, Name: "The Secret", Format: "markdown", Content: "Only for **the GM**: the crypt key."},
	} {
		p.Owner = pagesModule
		if err := p.Normalize(); err != nil {
			return err
		}
		if err := tx.PutPage(p); err != nil {
			return err
		}
	}
	e := &core.Encounter{ID: pagesEnc, Name: "Goblins", Owner: pagesModule, Combatants: []core.EncounterCreature{{Reference: "/monster/goblin", Count: 2, Label: "G"}}}
	if err := e.Normalize(); err != nil {
		return err
	}
	return tx.PutEncounter(e)
}

func newPagesEnv(t *testing.T) *pagesEnv {
	t.Helper()
	g := testkit.NewGame(t, testkit.GameOptions{Seed: seedPages})
	live := hub.New(g.Service, g.Bus, nil, hub.Options{})
	cfg := Config{Service: g.Service, Hub: live, Systems: g.Holder, DataDir: g.DataDir}
	env := &pagesEnv{svc: g.Service, dataDir: g.DataDir, public: httptest.NewServer(NewPublicHandler(cfg)), host: httptest.NewServer(NewHostHandler(cfg))}
	t.Cleanup(func() { live.Close(); env.public.Close(); env.host.Close() })
	return env
}

func pageGet(t *testing.T, url string) (int, http.Header, string) {
	t.Helper()
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := client.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var b strings.Builder
	buf := make([]byte, 32<<10)
	for {
		n, err := resp.Body.Read(buf)
		b.Write(buf[:n])
		if err != nil {
			break
		}
	}
	return resp.StatusCode, resp.Header, b.String()
}

func pageSend(t *testing.T, method, url, body string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest(method, url, strings.NewReader(body))
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var b strings.Builder
	buf := make([]byte, 32<<10)
	for {
		n, err := resp.Body.Read(buf)
		b.Write(buf[:n])
		if err != nil {
			break
		}
	}
	return resp.StatusCode, b.String()
}

var pageURLs = []string{"/module/marsh-bats/page/introduction", "/module/" + pagesModule + "/page/" + pageIntro, "/page/introduction", "/page/" + pageIntro}

// Players get 404 for a page until the game master shows it, then only
// what was shown; the host listener renders every page whole, themed.
func TestPagesPublicOnlyOnceShown(t *testing.T) {
	e := newPagesEnv(t)
	player := testkit.Dial(t, e.public.URL+"/", nil)
	for _, u := range append(pageURLs, "/module/marsh-bats/page/the-secret", "/page/nope", "/module/nope/page/introduction") {
		if status, _, body := pageGet(t, e.public.URL+u); status != http.StatusNotFound || strings.Contains(body, "reeds") {
			t.Errorf("public %s before it was shown: %d", u, status)
		}
	}
	status, h, body := pageGet(t, e.host.URL+pageURLs[0])
	if status != http.StatusOK || !strings.Contains(body, secretText) || !strings.Contains(body, "--parchment") ||
		!strings.Contains(body, `<article class="page">`) || !strings.Contains(body, `data-link="page"`) {
		t.Fatalf("host page: %d\n%s", status, body)
	}
	if !strings.Contains(h.Get("Content-Security-Policy"), "default-src 'none'") || h.Get("Cache-Control") != "no-store" {
		t.Errorf("headers %v", h)
	}
	if status, h, _ := pageGet(t, e.host.URL+"/page/introduction"); status != http.StatusFound || h.Get("Location") != pageURLs[0] {
		t.Errorf("host /page/: %d %s", status, h.Get("Location"))
	}

	// The read-aloud section, as a handout: the players' socket gets the
	// screen with its text and link, never the secret.
	status, out := pageSend(t, "POST", e.host.URL+"/host/api/pages/"+pageIntro+"/show", `{"section":"boxed"}`)
	if status != http.StatusOK || !strings.Contains(out, `"shown":"sections"`) {
		t.Fatalf("show: %d %s", status, out)
	}
	leak := func(env testkit.Envelope) {
		if strings.Contains(string(env.Data), "vampire") || strings.Contains(string(env.Data), "crypt key") {
			t.Errorf("players received %s: %s", env.Name, env.Data)
		}
	}
	player.WaitFor(5*time.Second, leak, "screenUpdated", "The reeds whisper", `[Open the page](/module/marsh-bats/page/introduction#boxed)`)
	for _, u := range pageURLs[:2] {
		status, _, body := pageGet(t, e.public.URL+u)
		if status != http.StatusOK || !strings.Contains(body, "The reeds whisper") || strings.Contains(body, "vampire") || strings.Contains(body, "heading.png") {
			t.Errorf("public %s after the section was shown: %d\n%s", u, status, body)
		}
	}
	if status, h, _ := pageGet(t, e.public.URL+pageURLs[2]); status != http.StatusFound || h.Get("Location") != pageURLs[0] {
		t.Errorf("public /page/: %d %s", status, h.Get("Location"))
	}
	// The secret page is still nobody's business.
	if status, _, _ := pageGet(t, e.public.URL+"/module/marsh-bats/page/the-secret"); status != http.StatusNotFound {
		t.Errorf("the secret page: %d", status)
	}

	// The whole page: the link to the unshown secret keeps its text only.
	if status, out := pageSend(t, "POST", e.host.URL+"/host/api/pages/"+pageIntro+"/show", `{"overlay":false}`); status != http.StatusOK {
		t.Fatalf("show whole: %d %s", status, out)
	}
	_, _, body = pageGet(t, e.public.URL+pageURLs[0])
	if !strings.Contains(body, secretText+". See the secret.") || !strings.Contains(body, `src="/modules/mod-pages/heading.png"`) || strings.Contains(body, "data-link") {
		t.Errorf("public whole page:\n%s", body)
	}

	// Hidden again.
	if status, out := pageSend(t, "DELETE", e.host.URL+"/host/api/pages/"+pageIntro+"/show", ""); status != http.StatusOK {
		t.Fatalf("hide: %d %s", status, out)
	}
	player.WaitFor(5*time.Second, leak, "screenUpdated", `"overlayHandoutText":""`)
	for _, u := range pageURLs {
		if status, _, _ := pageGet(t, e.public.URL+u); status != http.StatusNotFound {
			t.Errorf("public %s after hiding: %d", u, status)
		}
	}
}

// The module's folder serves media only: a page's text never reaches
// players as a file, whatever an archive left there.
func TestPagesModuleFolderServesMediaOnly(t *testing.T) {
	e := newPagesEnv(t)
	dir := filepath.Join(e.dataDir, "modules", pagesModule)
	os.MkdirAll(dir, 0o755)
	for name, data := range map[string]string{"heading.png": "\x89PNG\r\n\x1a\nx", "module.xml": "<module>" + secretText + "</module>",
		"introduction.html": "<p>" + secretText + "</p>", "pages.json": `[{"content":"` + secretText + `"}]`, "page.md": secretText} {
		os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644)
	}
	if status, _, _ := pageGet(t, e.public.URL+"/modules/"+pagesModule+"/heading.png"); status != http.StatusOK {
		t.Errorf("the page's image: %d", status)
	}
	for _, name := range []string{"module.xml", "introduction.html", "pages.json", "page.md"} {
		if status, _, body := pageGet(t, e.public.URL+"/modules/"+pagesModule+"/"+name); status != http.StatusNotFound || strings.Contains(body, secretText) {
			t.Errorf("%s: %d", name, status)
		}
	}
}

func TestHostLibraryAPI(t *testing.T) {
	e := newPagesEnv(t)
	status, body := pageSend(t, "GET", e.host.URL+"/host/api/library", "")
	if status != http.StatusOK || !strings.Contains(body, `"id":"`+pagesModule+`"`) || !strings.Contains(body, `"pages":2`) {
		t.Fatalf("libraries: %d %s", status, body)
	}
	status, body = pageSend(t, "GET", e.host.URL+"/host/api/library/"+pagesModule, "")
	if status != http.StatusOK || !strings.Contains(body, `"url":"/module/marsh-bats/page/introduction"`) || !strings.Contains(body, `"type":"encounter"`) {
		t.Fatalf("library: %d %s", status, body)
	}
	status, body = pageSend(t, "GET", e.host.URL+"/host/api/pages/"+pageSecret, "")
	var view core.PageView
	if status != http.StatusOK || json.Unmarshal([]byte(body), &view) != nil || !strings.Contains(view.HTML, `Only for <strong>the GM</strong>`) ||
		view.Page.Format != "markdown" || view.Maps == nil {
		t.Fatalf("page: %d %s", status, body)
	}
	if status, body = pageSend(t, "POST", e.host.URL+"/host/api/pages/"+pageIntro+"/show", `{"section":"nope"}`); status != http.StatusNotFound {
		t.Errorf("unknown section: %d %s", status, body)
	}
	if status, body = pageSend(t, "POST", e.host.URL+"/host/api/pages/"+pageIntro+"/show", `{"sektion":"boxed"}`); status != http.StatusBadRequest {
		t.Errorf("misspelt key: %d %s", status, body)
	}
	if status, body = pageSend(t, "POST", e.host.URL+"/host/api/pages/"+pageIntro+"/map", ``); status != http.StatusConflict {
		t.Errorf("a page without a map: %d %s", status, body)
	}
	status, body = pageSend(t, "GET", e.host.URL+"/host/api/encounters/"+pagesEnc, "")
	if status != http.StatusOK || !strings.Contains(body, `"resolvedEntityId":"`+testkit.GoblinID+`"`) {
		t.Fatalf("encounter: %d %s", status, body)
	}
	status, body = pageSend(t, "POST", e.host.URL+"/host/api/encounters/"+pagesEnc+"/run", `{"hidden":true}`)
	if status != http.StatusCreated || strings.Count(body, `"hidden":true`) < 4 || !strings.Contains(body, `"mapId":"`+testkit.MapID+`"`) ||
		!strings.Contains(body, `"label":"G2"`) {
		t.Fatalf("run: %d %s", status, body)
	}
	// The players' snapshot does not show the hidden goblins.
	if _, _, snap := pageGet(t, e.public.URL+"/api"); strings.Contains(snap, `"G1"`) {
		t.Errorf("players see the hidden encounter: %s", snap)
	}
}
