package imports

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/vttapp/companion/core"
)

// contentServer serves files from a map that tests can change, counting hits.
type contentServer struct {
	*httptest.Server
	mu    sync.Mutex
	files map[string][]byte
	hits  map[string]*atomic.Int64
	// handlers override paths (redirects, slow answers).
	handlers map[string]http.HandlerFunc
}

func newContentServer(t *testing.T, tls bool) *contentServer {
	cs := &contentServer{files: map[string][]byte{}, hits: map[string]*atomic.Int64{}, handlers: map[string]http.HandlerFunc{}}
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		cs.mu.Lock()
		data, ok := cs.files[r.URL.Path]
		handler := cs.handlers[r.URL.Path]
		counter := cs.hits[r.URL.Path]
		if counter == nil {
			counter = &atomic.Int64{}
			cs.hits[r.URL.Path] = counter
		}
		cs.mu.Unlock()
		counter.Add(1)
		if handler != nil {
			handler(w, r)
			return
		}
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Write(data)
	})
	if tls {
		cs.Server = httptest.NewTLSServer(h)
	} else {
		cs.Server = httptest.NewServer(h)
	}
	t.Cleanup(cs.Close)
	return cs
}

func (cs *contentServer) put(path string, data []byte) {
	cs.mu.Lock()
	cs.files[path] = data
	cs.mu.Unlock()
}

func (cs *contentServer) handle(path string, h http.HandlerFunc) {
	cs.mu.Lock()
	cs.handlers[path] = h
	cs.mu.Unlock()
}

func (cs *contentServer) hitCount(path string) int64 {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	if c := cs.hits[path]; c != nil {
		return c.Load()
	}
	return 0
}

func newTestManager(t *testing.T, env *testEnv, client *http.Client, lim Limits) *Manager {
	m := NewManager(Config{Service: env.svc, DataDir: env.dataDir, Collections: testCollections{}, Client: client, Limits: lim, AppVersion: "1.4.0"})
	t.Cleanup(m.Close)
	return m
}

func settle(t *testing.T, m *Manager, id string) Offer {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	o, err := m.Wait(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	return o
}

func checked(t *testing.T, m *Manager, id string) Offer {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	o, err := m.WaitChecked(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	return o
}

func manifestJSON(t *testing.T, fields map[string]any) []byte {
	t.Helper()
	doc := map[string]any{"id": "marsh-bats", "name": "Marsh Bats", "type": "module", "version": "1.0.0"}
	for k, v := range fields {
		doc[k] = v
	}
	data, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func batsModule(t *testing.T, version, monster string) []byte {
	return makeZip(t,
		zipEntry{name: "module.json", body: `{"name":"Marsh Bats","system":"dnd5e","version":"` + version + `"}`},
		zipEntry{name: "monsters.json", body: `[{"name":"` + monster + `","image":"bat.png"}]`},
		zipEntry{name: "monsters/bat.png", body: "png " + version},
	)
}

func TestOfferURLDownloadsOnlyAfterAccept(t *testing.T) {
	env := newTestEnv(t)
	srv := newContentServer(t, false) // plain http on 127.0.0.1: local, allowed
	archive := batsModule(t, "1.0.0", "Cave Bat")
	srv.put("/bats.module", archive)
	var changes atomic.Int64
	m := NewManager(Config{Service: env.svc, DataDir: env.dataDir, Collections: testCollections{}, OnChange: func(Offer) { changes.Add(1) }})
	defer m.Close()

	o, err := m.Offer(Source{URL: srv.URL + "/bats.module"}, "api 192.168.1.7")
	if err != nil {
		t.Fatal(err)
	}
	if o.Status != StatusPending || o.Host != "127.0.0.1" || o.From != "api 192.168.1.7" || o.URL == "" {
		t.Errorf("offer %+v", o)
	}
	time.Sleep(50 * time.Millisecond)
	if n := srv.hitCount("/bats.module"); n != 0 {
		t.Fatalf("downloaded %d times before accept", n)
	}
	if list := m.Offers(); len(list) != 1 || list[0].ID != o.ID {
		t.Errorf("offers %+v", list)
	}
	if _, err := m.Accept(o.ID, ""); err != nil {
		t.Fatal(err)
	}
	done := settle(t, m, o.ID)
	if done.Status != StatusInstalled || done.Result == nil || done.Result.Kind != KindModule {
		t.Fatalf("offer %+v", done)
	}
	if done.Progress.Done != int64(len(archive)) || done.Progress.Total != int64(len(archive)) {
		t.Errorf("progress %+v, want %d", done.Progress, len(archive))
	}
	if changes.Load() < 3 {
		t.Errorf("OnChange called %d times", changes.Load())
	}
	_, err = m.Accept(o.ID, "")
	wantKind(t, err, core.KindConflict, "installed")
	env.view(t, func(tx core.Tx) error {
		mod, err := tx.Module(done.Result.ID)
		if err == nil && mod.Package != "" {
			t.Errorf("a url import carries no package: %q", mod.Package)
		}
		return err
	})
}

func TestOfferDecline(t *testing.T) {
	env := newTestEnv(t)
	srv := newContentServer(t, false)
	srv.put("/bats.module", batsModule(t, "1.0.0", "Cave Bat"))
	m := newTestManager(t, env, nil, Limits{})
	o, _ := m.Offer(Source{URL: srv.URL + "/bats.module"}, "link")
	d, err := m.Decline(o.ID)
	if err != nil || d.Status != StatusDeclined {
		t.Fatalf("%+v %v", d, err)
	}
	_, err = m.Accept(o.ID, "")
	wantKind(t, err, core.KindConflict, "declined")
	_, err = m.Decline("nope")
	wantKind(t, err, core.KindNotFound, "nope")
	if srv.hitCount("/bats.module") != 0 {
		t.Error("a declined offer was downloaded")
	}
	if mods, _, _, _ := env.counts(t); mods != 0 {
		t.Error("a declined offer was installed")
	}
}

// A manifest offer over TLS: the manifest is fetched first and shows the
// package; accepting installs the module under the manifest's id with the
// manifest remembered; a second offer of the same version shows it installed.
func TestOfferManifestOverTLS(t *testing.T) {
	env := newTestEnv(t)
	srv := newContentServer(t, true)
	archive := batsModule(t, "1.0.0", "Cave Bat")
	sum := sha256.Sum256(archive)
	srv.put("/bats.module", archive)
	srv.put("/manifest.json", manifestJSON(t, map[string]any{"download": srv.URL + "/bats.module", "sha256": hex.EncodeToString(sum[:]),
		"description": "Bats in a marsh", "changelog": "first", "compatibility": map[string]any{"minimum": "1.0.0"}}))
	m := newTestManager(t, env, srv.Client(), Limits{})

	o, _ := m.Offer(Source{Manifest: srv.URL + "/manifest.json"}, "link")
	o = checked(t, m, o.ID)
	if o.Status != StatusPending || o.Package == nil {
		t.Fatalf("offer %+v", o)
	}
	p := o.Package
	if p.ID != "marsh-bats" || p.Name != "Marsh Bats" || p.Version != "1.0.0" || p.Type != "module" || p.Installed != "none" || !p.Compatible {
		t.Errorf("package %+v", p)
	}
	if srv.hitCount("/bats.module") != 0 {
		t.Fatal("archive downloaded before accept")
	}
	if _, err := m.Accept(o.ID, ""); err != nil {
		t.Fatal(err)
	}
	if done := settle(t, m, o.ID); done.Status != StatusInstalled || done.Result.ID != "marsh-bats" {
		t.Fatalf("offer %+v", done)
	}
	env.view(t, func(tx core.Tx) error {
		mod, err := tx.Module("marsh-bats")
		if err == nil && mod.Package != srv.URL+"/manifest.json" {
			t.Errorf("package %q", mod.Package)
		}
		return err
	})
	o2, _ := m.Offer(Source{Manifest: srv.URL + "/manifest.json"}, "link")
	o2 = checked(t, m, o2.ID)
	if o2.Package.Installed != "same" || o2.Package.InstalledVersion != "1.0.0" {
		t.Errorf("second offer %+v", o2.Package)
	}
	_, err := m.Accept(o2.ID, "")
	wantKind(t, err, core.KindConflict, "already installed")
}

// Offers that must fail, each with nothing installed.
func TestOfferManifestFailures(t *testing.T) {
	env := newTestEnv(t)
	srv := newContentServer(t, true)
	plain := newContentServer(t, false)
	archive := batsModule(t, "1.0.0", "Cave Bat")
	srv.put("/bats.module", archive)
	plain.put("/manifest.json", manifestJSON(t, map[string]any{"download": srv.URL + "/bats.module"}))
	srv.put("/public-http.json", manifestJSON(t, map[string]any{"download": "http://example.org/bats.module"}))
	srv.put("/extra.json", manifestJSON(t, map[string]any{"download": srv.URL + "/bats.module", "colour": "red"}))
	srv.put("/array.json", []byte(`[{"id":"x"}]`))
	srv.put("/badsum.json", manifestJSON(t, map[string]any{"download": srv.URL + "/bats.module", "sha256": strings.Repeat("ab", 32)}))
	srv.put("/system.json", manifestJSON(t, map[string]any{"download": srv.URL + "/bats.module", "type": "system"}))
	srv.put("/toonew.json", manifestJSON(t, map[string]any{"download": srv.URL + "/bats.module", "compatibility": map[string]any{"minimum": "9.0.0"}}))
	srv.handle("/redirect-private.json", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "http://10.255.255.1/manifest.json", http.StatusFound)
	})
	srv.handle("/redirect-downgrade.json", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, plain.URL+"/manifest.json", http.StatusFound)
	})
	srv.handle("/redirect-ftp.json", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "ftp://example.org/manifest.json", http.StatusFound)
	})
	srv.handle("/redirect-loop.json", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/redirect-loop.json", http.StatusFound)
	})
	m := newTestManager(t, env, srv.Client(), Limits{})

	for _, tc := range []struct {
		path, want string
		atAccept   bool
	}{
		{"/public-http.json", "Plain http can only be used for a source on the local network, not 'example.org'.", false},
		{"/extra.json", "colour", false},
		{"/array.json", "must be a JSON object", false},
		{"/missing.json", "404", false},
		{"/redirect-private.json", "redirect from https to plain http", false},
		{"/redirect-downgrade.json", "redirect from https to plain http", false},
		{"/redirect-ftp.json", "Only https URLs can be imported from a link, not 'ftp'.", false},
		{"/redirect-loop.json", "too many redirects", false},
		{"/badsum.json", "sha256", true},
		{"/system.json", "says it is a system", true},
	} {
		t.Run(tc.path, func(t *testing.T) {
			o, _ := m.Offer(Source{Manifest: srv.URL + tc.path}, "link")
			o = checked(t, m, o.ID)
			if tc.atAccept {
				if _, err := m.Accept(o.ID, ""); err != nil {
					t.Fatal(err)
				}
				o = settle(t, m, o.ID)
			}
			if o.Status != StatusFailed || !strings.Contains(o.Error, tc.want) {
				t.Errorf("offer %s %q, want failed with %q", o.Status, o.Error, tc.want)
			}
		})
	}
	o, _ := m.Offer(Source{Manifest: srv.URL + "/toonew.json"}, "link")
	o = checked(t, m, o.ID)
	if o.Package == nil || o.Package.Compatible {
		t.Fatalf("offer %+v", o)
	}
	_, err := m.Accept(o.ID, "")
	wantKind(t, err, core.KindConflict, "not compatible")
	if plain.hitCount("/manifest.json") != 0 {
		t.Error("a downgrading redirect was followed")
	}
	if mods, _, ents, _ := env.counts(t); mods+ents != 0 {
		t.Errorf("installed %d modules %d entities", mods, ents)
	}
	if entries, _ := os.ReadDir(filepath.Join(env.dataDir, ".staging")); len(entries) != 0 {
		t.Errorf("staging not cleaned: %v", entries)
	}
}

// A redirect between local http addresses is followed (and re-checked).
func TestDownloadFollowsAllowedRedirect(t *testing.T) {
	env := newTestEnv(t)
	srv := newContentServer(t, false)
	srv.put("/real.module", batsModule(t, "1.0.0", "Cave Bat"))
	srv.handle("/moved.module", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/real.module", http.StatusMovedPermanently)
	})
	m := newTestManager(t, env, nil, Limits{})
	res, err := m.ImportURL(context.Background(), srv.URL+"/moved.module", "", nil)
	if err != nil || res.Kind != KindModule {
		t.Fatalf("%+v %v", res, err)
	}
}

func TestDownloadLimits(t *testing.T) {
	env := newTestEnv(t)
	srv := newContentServer(t, false)
	srv.put("/big.module", makeZip(t, zipEntry{name: "module.json", body: `{"name":"Big"}`}, zipEntry{name: "big.bin", body: strings.Repeat("x", 5000), store: true}))
	srv.handle("/slow.module", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", "100000")
		w.Write(make([]byte, 10))
		w.(http.Flusher).Flush()
		select {
		case <-r.Context().Done():
		case <-time.After(5 * time.Second):
		}
	})
	srv.handle("/chunked.module", func(w http.ResponseWriter, r *http.Request) {
		for i := 0; i < 10; i++ {
			w.Write(make([]byte, 1000))
			w.(http.Flusher).Flush()
		}
	})
	m := newTestManager(t, env, nil, Limits{MaxDownloadBytes: 2000, DownloadTimeout: 300 * time.Millisecond})
	_, err := m.ImportURL(context.Background(), srv.URL+"/big.module", "", nil)
	wantKind(t, err, core.KindTooLarge, "")
	_, err = m.ImportURL(context.Background(), srv.URL+"/chunked.module", "", nil)
	wantKind(t, err, core.KindTooLarge, "larger than 2000 bytes")
	m2 := newTestManager(t, env, nil, Limits{DownloadTimeout: 300 * time.Millisecond})
	start := time.Now()
	_, err = m2.ImportURL(context.Background(), srv.URL+"/slow.module", "", nil)
	wantKind(t, err, core.KindInvalid, "did not answer within")
	if time.Since(start) > 4*time.Second {
		t.Error("the timeout did not stop the download")
	}
	_, err = m.ImportURL(context.Background(), "http://example.org/x.module", "", nil)
	wantKind(t, err, core.KindInvalid, "Plain http")
	if entries, _ := os.ReadDir(filepath.Join(env.dataDir, ".staging")); len(entries) != 0 {
		t.Errorf("staging not cleaned: %v", entries)
	}
}

// Round trip: install from a manifest, update from a newer manifest (the
// id is kept, old content replaced), delete: no row and no file remain.
func TestModuleUpdateRoundTrip(t *testing.T) {
	env := newTestEnv(t)
	srv := newContentServer(t, true)
	srv.put("/v1.module", batsModule(t, "1.0.0", "Cave Bat"))
	srv.put("/manifest.json", manifestJSON(t, map[string]any{"download": srv.URL + "/v1.module"}))
	m := newTestManager(t, env, srv.Client(), Limits{})
	ctx := context.Background()

	o, _ := m.Offer(Source{Manifest: srv.URL + "/manifest.json"}, "link")
	checked(t, m, o.ID)
	m.Accept(o.ID, "")
	if done := settle(t, m, o.ID); done.Status != StatusInstalled {
		t.Fatalf("install: %+v", done)
	}
	ups, err := m.CheckUpdates(ctx)
	if err != nil || len(ups) != 1 || ups[0].Update || ups[0].Available != "1.0.0" {
		t.Fatalf("updates %+v %v", ups, err)
	}
	_, err = m.UpdateModule(ctx, "marsh-bats", nil)
	wantKind(t, err, core.KindConflict, "up to date")

	// A newer version that needs a newer application is not offered.
	srv.put("/manifest.json", manifestJSON(t, map[string]any{"download": srv.URL + "/v2.module", "version": "1.1.0", "compatibility": map[string]any{"minimum": "2.0.0"}}))
	ups, _ = m.CheckUpdates(ctx)
	if ups[0].Update || ups[0].Compatible || ups[0].Available != "1.1.0" {
		t.Errorf("incompatible update %+v", ups[0])
	}
	_, err = m.UpdateModule(ctx, "marsh-bats", nil)
	wantKind(t, err, core.KindConflict, "not compatible")

	srv.put("/v2.module", batsModule(t, "1.1.0", "Giant Bat"))
	srv.put("/manifest.json", manifestJSON(t, map[string]any{"download": srv.URL + "/v2.module", "version": "1.1.0", "changelog": "bigger bats"}))
	ups, _ = m.CheckUpdates(ctx)
	if !ups[0].Update || ups[0].Installed != "1.0.0" || ups[0].Available != "1.1.0" || ups[0].Changelog != "bigger bats" {
		t.Errorf("update %+v", ups[0])
	}
	res, err := m.UpdateModule(ctx, "marsh-bats", nil)
	if err != nil || res.ID != "marsh-bats" {
		t.Fatalf("%+v %v", res, err)
	}
	env.view(t, func(tx core.Tx) error {
		mod, _ := tx.Module("marsh-bats")
		if mod.Version != "1.1.0" || mod.Package != srv.URL+"/manifest.json" {
			t.Errorf("module %+v", mod)
		}
		list, _ := tx.Entities(core.EntityQuery{Owner: "marsh-bats"})
		if len(list) != 1 || list[0].Name != "Giant Bat" {
			t.Errorf("entities after update %+v", list)
		}
		return nil
	})
	img, _ := os.ReadFile(filepath.Join(env.dataDir, "modules/marsh-bats/monsters/bat.png"))
	if string(img) != "png 1.1.0" {
		t.Errorf("files not replaced: %q", img)
	}

	if err := m.DeleteModule(ctx, "marsh-bats"); err != nil {
		t.Fatal(err)
	}
	if mods, camps, ents, maps := env.counts(t); mods+camps+ents+maps != 0 {
		t.Errorf("rows left: %d %d %d %d", mods, camps, ents, maps)
	}
	if files := env.dataFiles(t); len(files) != 0 {
		t.Errorf("files left: %v", files)
	}
	wantKind(t, m.DeleteModule(ctx, "marsh-bats"), core.KindNotFound, "marsh-bats")
}

func TestOfferLimit(t *testing.T) {
	env := newTestEnv(t)
	m := NewManager(Config{Service: env.svc, DataDir: env.dataDir, Collections: testCollections{}, MaxOffers: 2})
	defer m.Close()
	for i := 0; i < 2; i++ {
		if _, err := m.Offer(Source{URL: "https://example.org/a.module"}, "api"); err != nil {
			t.Fatal(err)
		}
	}
	_, err := m.Offer(Source{URL: "https://example.org/a.module"}, "api")
	wantKind(t, err, core.KindInvalid, "Too many")
	// Declined offers make room and are forgotten first.
	m.Decline(m.Offers()[0].ID)
	if _, err := m.Offer(Source{URL: "https://example.org/b.module"}, "api"); err != nil {
		t.Fatal(err)
	}
	if n := len(m.Offers()); n != 2 {
		t.Errorf("%d offers kept", n)
	}
}

func TestCompareVersions(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want int
	}{
		{"1.0.0", "1.0.0", 0}, {"1.0.0", "1.0.1", -1}, {"1.10.0", "1.9.0", 1}, {"2.0.0", "10.0.0", -1},
		{"1.0.0-alpha", "1.0.0", -1}, {"1.0.0-alpha.2", "1.0.0-alpha.10", -1}, {"1.0.0-alpha", "1.0.0-beta", -1},
		{"1.0.0-1", "1.0.0-alpha", -1}, {"5.2.0+1234", "5.2.0+999", 1}, {"5.2.0+1234", "5.2.0", 0}, {"junk", "0.0.1", -1},
	} {
		if got := CompareVersions(tc.a, tc.b); got != tc.want {
			t.Errorf("%s vs %s: %d, want %d", tc.a, tc.b, got, tc.want)
		}
	}
	p := &Package{Compatibility: &Compatibility{Minimum: "5.0.5", Maximum: "5.2.0+1234"}}
	for app, want := range map[string]bool{"5.0.4": false, "5.0.5": true, "5.2.0+1234": true, "5.2.0+1235": false, "5.3.0": false, "": true} {
		if got := p.Compatible(app); got != want {
			t.Errorf("compatible(%q) = %v", app, got)
		}
	}
}

func TestNewManagerRemovesLeftoverStaging(t *testing.T) {
	env := newTestEnv(t)
	left := filepath.Join(env.dataDir, ".staging", "import-123", "monsters.json")
	os.MkdirAll(filepath.Dir(left), 0o755)
	os.WriteFile(left, []byte("[]"), 0o644)
	newTestManager(t, env, nil, Limits{})
	if _, err := os.Stat(filepath.Join(env.dataDir, ".staging")); !os.IsNotExist(err) {
		t.Errorf("leftover staging kept: %v", err)
	}
}

// A map downloaded from a URL is named after the file the server suggests.
func TestImportURLNamesMapFromDisposition(t *testing.T) {
	env := newTestEnv(t)
	if err := Seed(context.Background(), env.svc, env.dataDir, os.DirFS("testdata/sample"), testCollections{}); err != nil {
		t.Fatal(err)
	}
	srv := newContentServer(t, true)
	doc := uvttDoc(t, nil)
	srv.handle("/download", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Disposition", `attachment; filename="..\\evil\\Crypt.dd2vtt"`)
		w.Write(doc)
	})
	m := newTestManager(t, env, srv.Client(), Limits{})
	res, err := m.ImportURL(context.Background(), srv.URL+"/download?id=3", "test-compendium", nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Kind != KindMap || res.Name != "Crypt" {
		t.Errorf("result %+v", res)
	}
	mp, err := m.Map(context.Background(), res.ID)
	if err != nil || mp.Owner != "test-compendium" || !strings.HasPrefix(mp.Image, "/modules/test-compendium/maps/") {
		t.Errorf("map %+v %v", mp, err)
	}
}
