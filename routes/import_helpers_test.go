package routes

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/core/engine"
	"github.com/vttapp/companion/imports"
	"github.com/vttapp/companion/internal/testkit"
	"github.com/vttapp/companion/store/sqlite"
)

// importCollections stands in for the loaded system's collection labels.
type importCollections struct{}

func (importCollections) SystemID() string { return "dnd5e" }
func (importCollections) KindForCollection(label string) (string, bool) {
	kind, ok := map[string]string{"monsters": "monster", "spells": "spell"}[label]
	return kind, ok
}

func (importCollections) CollectionForKind(kind string) (string, bool) {
	label, ok := map[string]string{"monster": "monsters", "spell": "spells"}[kind]
	return label, ok
}

// importEnv is the public and host handlers over a real store, with an
// import manager whose HTTP client trusts the TLS content server.
type importEnv struct {
	public, host *httptest.Server
	content      *importContent
	manager      *imports.Manager
	svc          *engine.Service
	dataDir      string
}

func newImportEnv(t testing.TB) *importEnv {
	t.Helper()
	dataDir := t.TempDir()
	store, err := sqlite.Open(filepath.Join(dataDir, "companion.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	svc := engine.NewService(engine.ServiceConfig{Store: store})
	c := &core.Campaign{ID: campaignID, System: "dnd5e", Name: "Demo", Primary: true}
	c.Normalize()
	if err := store.Update(context.Background(), func(tx core.Tx) error { return tx.PutCampaign(c) }); err != nil {
		t.Fatal(err)
	}
	content := newImportContent(t)
	mgr := imports.NewManager(imports.Config{Service: svc, DataDir: dataDir, Collections: importCollections{}, Client: content.Client(), AppVersion: "1.0.0"})
	t.Cleanup(mgr.Close)
	cfg := Config{Service: svc, DataDir: dataDir, Imports: mgr, MaxBodyBytes: 64 << 20}
	env := &importEnv{content: content, manager: mgr, svc: svc, dataDir: dataDir}
	env.public = httptest.NewServer(NewPublicHandler(cfg))
	env.host = httptest.NewServer(NewHostHandler(cfg))
	t.Cleanup(env.public.Close)
	t.Cleanup(env.host.Close)
	return env
}

// importContent is a TLS server of archives and manifests on loopback.
type importContent struct {
	*httptest.Server
	mu    sync.Mutex
	files map[string][]byte
}

func newImportContent(t testing.TB) *importContent {
	c := &importContent{files: map[string][]byte{}}
	c.Server = httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c.mu.Lock()
		data, ok := c.files[r.URL.Path]
		c.mu.Unlock()
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Write(data)
	}))
	t.Cleanup(c.Close)
	return c
}

func (c *importContent) put(path string, data []byte) {
	c.mu.Lock()
	c.files[path] = data
	c.mu.Unlock()
}

func importJSON(t *testing.T, data []byte, v any) {
	t.Helper()
	if err := json.Unmarshal(data, v); err != nil {
		t.Fatalf("%v in %s", err, data)
	}
}

// importWaitOffer polls the host API until the offer leaves pending and
// downloading (or its manifest is checked, when checkedOnly).
func importWaitOffer(t *testing.T, env *importEnv, id string, checkedOnly bool) imports.Offer {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		status, body := testkit.Do(t, "GET", env.host.URL+"/host/api/offers/"+id, "", nil)
		if status != http.StatusOK {
			t.Fatalf("GET offer: %d %s", status, body)
		}
		var o imports.Offer
		importJSON(t, body, &o)
		if checkedOnly && !o.Checking {
			return o
		}
		if !checkedOnly && o.Status != imports.StatusPending && o.Status != imports.StatusDownloading {
			return o
		}
		if time.Now().After(deadline) {
			t.Fatalf("offer still %s", o.Status)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func newRecorder() *httptest.ResponseRecorder { return httptest.NewRecorder() }

// newRequest builds a request as a player on the LAN sends it (by the
// server's address: writes from other host names are refused).
func newRequest(method, target, body string) *http.Request {
	req := httptest.NewRequest(method, target, strings.NewReader(body))
	req.Host = "192.168.1.20:8080"
	return req
}
