package routes

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vttapp/companion/backup"
	"github.com/vttapp/companion/core/engine"
	"github.com/vttapp/companion/internal/testkit"
	"github.com/vttapp/companion/store/sqlite"
)

func TestHostBackupsWhileTheServerRuns(t *testing.T) {
	dataDir := t.TempDir()
	store, err := sqlite.Open(filepath.Join(dataDir, "companion.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	os.MkdirAll(filepath.Join(dataDir, "campaigns", "c1", "maps"), 0o755)
	os.WriteFile(filepath.Join(dataDir, "campaigns", "c1", "maps", "cave.png"), []byte("cave"), 0o644)
	svc := engine.NewService(engine.ServiceConfig{Store: store})
	host := httptest.NewServer(NewHostHandler(Config{Service: svc, DataDir: dataDir,
		Backups: backup.NewMaker(dataDir, "9.9.9", store.BackupInto)}))
	defer host.Close()

	status, body := testkit.Do(t, "POST", host.URL+"/host/api/backups", "", nil)
	var res backup.Result
	if status != http.StatusCreated || json.Unmarshal(body, &res) != nil || res.Files != 1 || res.Version != "9.9.9" ||
		!strings.HasPrefix(res.Path, filepath.Join(dataDir, "backups")+string(filepath.Separator)) {
		t.Fatalf("backup: %d %s", status, body)
	}
	if v, err := sqlite.CheckFile(t.Context(), filepath.Join(res.Path, "companion.db")); err != nil || v != sqlite.SchemaVersion() {
		t.Errorf("the backup's database: %d %v", v, err)
	}
	elsewhere := filepath.Join(t.TempDir(), "my backup")
	status, body = testkit.Do(t, "POST", host.URL+"/host/api/backups", "application/json", strings.NewReader(`{"folder": "`+filepath.ToSlash(elsewhere)+`"}`))
	if status != http.StatusCreated || !strings.Contains(string(body), `"path"`) {
		t.Fatalf("backup elsewhere: %d %s", status, body)
	}
	for _, c := range []struct {
		body   string
		status int
		says   string
	}{
		{`{"folder": "relative/path"}`, 400, "absolute path"},
		{`{"fodler": "/tmp/x"}`, 400, "fodler"},
		{`{"folder": "` + filepath.ToSlash(elsewhere) + `"}`, 409, "already exists"},
		{`{"folder": "` + filepath.ToSlash(filepath.Join(dataDir, "modules", "x")) + `"}`, 400, "inside the data folder"},
	} {
		status, body := testkit.Do(t, "POST", host.URL+"/host/api/backups", "application/json", strings.NewReader(c.body))
		if status != c.status || !strings.Contains(string(body), c.says) {
			t.Errorf("%s: %d %s", c.body, status, body)
		}
	}
	status, body = testkit.Do(t, "GET", host.URL+"/host/api/backups", "", nil)
	var list []backup.Entry
	if status != 200 || json.Unmarshal(body, &list) != nil || len(list) != 1 || list[0].Path != res.Path {
		t.Errorf("list: %d %s", status, body)
	}
	// A server without backups says so.
	bare := httptest.NewServer(NewHostHandler(Config{Service: svc, DataDir: dataDir}))
	defer bare.Close()
	if status, body := testkit.Do(t, "POST", bare.URL+"/host/api/backups", "", nil); status != 503 {
		t.Errorf("without a maker: %d %s", status, body)
	}
}
