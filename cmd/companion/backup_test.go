package main

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vttapp/companion/core/engine"

	"github.com/vttapp/companion/backup"
	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/routes"
	"github.com/vttapp/companion/store/sqlite"
)

// gameFolder is a data folder with a database holding a campaign and a
// map's background file.
func gameFolder(t *testing.T) (string, *sqlite.Store) {
	t.Helper()
	dir := t.TempDir()
	store, err := sqlite.Open(filepath.Join(dir, "companion.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	c := &core.Campaign{ID: "camp", System: "dnd5e", Name: "Salt Marsh", Primary: true}
	c.Normalize()
	if err := store.Update(context.Background(), func(tx core.Tx) error { return tx.PutCampaign(c) }); err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(filepath.Join(dir, "campaigns", "camp", "maps"), 0o755)
	os.WriteFile(filepath.Join(dir, "campaigns", "camp", "maps", "cave.png"), []byte("cave"), 0o644)
	return dir, store
}

// campaignIn opens the data folder's database and reads its campaign.
func campaignIn(t *testing.T, dir string) string {
	t.Helper()
	store, err := sqlite.Open(filepath.Join(dir, "companion.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	var name string
	store.View(context.Background(), func(tx core.Tx) error {
		c, err := tx.Campaign("camp")
		if err == nil {
			name = c.Name
		}
		return err
	})
	return name
}

func run2(t *testing.T, fn func([]string, *bytes.Buffer, *bytes.Buffer) int, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := fn(args, &out, &errOut)
	return code, out.String(), errOut.String()
}

func backupCmd(args []string, out, errOut *bytes.Buffer) int  { return runBackup(args, out, errOut) }
func restoreCmd(args []string, out, errOut *bytes.Buffer) int { return runRestore(args, out, errOut) }

// With no server running, companion backup copies the folder itself;
// companion restore makes a new data folder of it, refuses to write over
// one, and with --replace moves the one in the way aside.
func TestBackupAndRestoreCommands(t *testing.T) {
	data, store := gameFolder(t)
	store.Close()
	dest := filepath.Join(t.TempDir(), "saved")
	code, out, errOut := run2(t, backupCmd, "--data", data, dest)
	var res backup.Result
	if code != 0 || json.Unmarshal([]byte(out), &res) != nil || res.Path != dest || res.Files != 1 {
		t.Fatalf("backup: %d %s %s", code, out, errOut)
	}
	fresh := filepath.Join(t.TempDir(), "fresh")
	code, out, errOut = run2(t, restoreCmd, "--data", fresh, dest)
	if code != 0 || !strings.Contains(out, `"restored":"`+fresh+`"`) {
		t.Fatalf("restore: %d %s %s", code, out, errOut)
	}
	if campaignIn(t, fresh) != "Salt Marsh" {
		t.Error("the restored folder lost the campaign")
	}
	if got, _ := os.ReadFile(filepath.Join(fresh, "campaigns", "camp", "maps", "cave.png")); string(got) != "cave" {
		t.Error("the restored folder lost the map's file")
	}
	if _, err := os.Stat(filepath.Join(fresh, "backup.json")); err == nil {
		t.Error("the manifest was restored into the data folder")
	}
	// Over a data folder: refused, then moved aside with --replace.
	code, _, errOut = run2(t, restoreCmd, "--data", data, dest)
	if code != 1 || !strings.Contains(errOut, "is not empty") || !strings.Contains(errOut, "--replace") {
		t.Errorf("over a data folder: %d %s", code, errOut)
	}
	code, out, errOut = run2(t, restoreCmd, "--replace", "--data", data, dest)
	var r restored
	if code != 0 || json.Unmarshal([]byte(out), &r) != nil || !strings.HasPrefix(r.MovedAside, data+".before-restore-") {
		t.Fatalf("--replace: %d %s %s", code, out, errOut)
	}
	if _, err := os.Stat(filepath.Join(r.MovedAside, "companion.db")); err != nil {
		t.Errorf("the folder moved aside lost its database: %v", err)
	}
	// Not a backup, a damaged backup: refused before anything moves.
	code, _, errOut = run2(t, restoreCmd, "--replace", "--data", data, fresh)
	if code != 1 || !strings.Contains(errOut, "no backup.json") {
		t.Errorf("from a data folder: %d %s", code, errOut)
	}
	os.WriteFile(filepath.Join(dest, "companion.db"), []byte(strings.Repeat("garbage ", 1000)), 0o644)
	code, _, errOut = run2(t, restoreCmd, "--replace", "--data", data, dest)
	if code != 1 || !strings.Contains(errOut, "not a database") {
		t.Errorf("a damaged backup: %d %s", code, errOut)
	}
	if aside, _ := filepath.Glob(data + ".before-restore-*"); len(aside) != 1 {
		t.Errorf("refused restores moved folders aside: %v", aside)
	}
	if _, err := os.Stat(filepath.Join(data, "companion.db")); err != nil {
		t.Errorf("a refused restore took the data folder away: %v", err)
	}
}

// A running server's data folder: companion backup asks the server, and
// companion restore refuses to touch it.
func TestBackupAndRestoreWithARunningServer(t *testing.T) {
	data, store := gameFolder(t)
	svc := engine.NewService(engine.ServiceConfig{Store: store})
	host := httptest.NewServer(routes.NewHostHandler(routes.Config{Service: svc, DataDir: data, InstanceID: "inst-1",
		Backups: backup.NewMaker(data, "1.0.0", store.BackupInto)}))
	defer host.Close()
	if err := writeInstance(data, instance{ID: "inst-1", PID: 4242, HostAddr: strings.TrimPrefix(host.URL, "http://")}); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := run2(t, backupCmd, "--data", data)
	var res backup.Result
	if code != 0 || json.Unmarshal([]byte(out), &res) != nil || !strings.HasPrefix(res.Path, filepath.Join(data, "backups")) || res.Version != "1.0.0" {
		t.Fatalf("backup through the server: %d %s %s", code, out, errOut)
	}
	code, _, errOut = run2(t, restoreCmd, "--replace", "--data", data, res.Path)
	if code != 1 || !strings.Contains(errOut, "pid 4242") || !strings.Contains(errOut, "stop it") {
		t.Errorf("restore over a running server: %d %s", code, errOut)
	}
	if _, err := os.Stat(filepath.Join(data, "companion.db")); err != nil {
		t.Errorf("the running server's folder was touched: %v", err)
	}
}

// Before a migration the server backs the whole folder up: the database
// as it stands, the files hard-linked; companion restore takes it back.
func TestBackupBeforeMigrate(t *testing.T) {
	data, store := gameFolder(t)
	store.Close()
	hook := backupBeforeMigrate(context.Background(), data, slog.New(slog.DiscardHandler))
	db := filepath.Join(data, "companion.db")
	err := hook(1, 2, func(ctx context.Context, path string) error { return sqlite.SnapshotFile(ctx, db, path) })
	if err != nil {
		t.Fatal(err)
	}
	list, err := backup.List(filepath.Join(data, "backups"))
	if err != nil || len(list) != 1 || !strings.HasSuffix(list[0].Path, "_before-schema-2-from-1") || !list[0].Linked {
		t.Fatalf("backups: %+v %v", list, err)
	}
	a, _ := os.Stat(filepath.Join(data, "campaigns", "camp", "maps", "cave.png"))
	b, _ := os.Stat(filepath.Join(list[0].Path, "campaigns", "camp", "maps", "cave.png"))
	if !os.SameFile(a, b) {
		t.Log("the media were copied, not linked (a file system without hard links)")
	}
	fresh := filepath.Join(t.TempDir(), "undo")
	if code, out, errOut := run2(t, restoreCmd, "--data", fresh, list[0].Path); code != 0 {
		t.Fatalf("restore: %d %s %s", code, out, errOut)
	}
	if campaignIn(t, fresh) != "Salt Marsh" {
		t.Error("the restored folder lost the campaign")
	}
	// A backup that cannot be written stops the migration.
	err = hook(1, 2, func(context.Context, string) error { return core.Invalidf("the disk is full") })
	if err == nil || !strings.Contains(err.Error(), "the disk is full") {
		t.Errorf("a failed backup: %v", err)
	}
}
