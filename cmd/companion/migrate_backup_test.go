package main

import (
	"database/sql"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vttapp/companion/backup"
)

// schemaOneUndo takes a database of the newest schema back to schema 1:
// the journal (7), the random tables (6), the messages' audience (5), the
// staged entities' table (4), the seats' tables (3) and the
// library's (2) gone, the owner triggers as
// migration 1 wrote them. It is the fixture of a data folder left by the
// version before the library came in; a new migration adds its own undo
// here.
const schemaOneUndo = `
DROP TRIGGER modules_delete_owned;
DROP TRIGGER campaigns_delete_owned;
DROP TABLE journal;
DROP TABLE roll_table_history;
DROP TABLE roll_tables;
ALTER TABLE messages DROP COLUMN audience;
DROP TABLE staged_entities;
DROP TABLE seats;
DROP TABLE access;
DROP TABLE page_shows;
DROP TABLE pages;
DROP TABLE encounters;
DROP TABLE library_groups;
DROP TABLE assets;
CREATE TRIGGER modules_delete_owned AFTER DELETE ON modules BEGIN
	DELETE FROM entities WHERE owner = OLD.id;
	DELETE FROM maps WHERE owner = OLD.id;
END;
CREATE TRIGGER campaigns_delete_owned AFTER DELETE ON campaigns BEGIN
	DELETE FROM entities WHERE owner = OLD.id;
	DELETE FROM maps WHERE owner = OLD.id;
END;
PRAGMA user_version = 1;
`

// newestSchema is the schema version schemaOneUndo starts from.
const newestSchema = 7

// userVersion reads a database file's schema version.
func userVersion(t *testing.T, path string) int {
	t.Helper()
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var v int
	if err := db.QueryRow("PRAGMA user_version").Scan(&v); err != nil {
		t.Fatal(err)
	}
	return v
}

// A data folder of the older schema, started by the server as a game
// master would after an upgrade: the server backs the whole folder up
// before it migrates, the backup holds the database as it stood (schema
// 1, the campaign in it) and the media, and the game goes on in the
// migrated folder with nothing lost.
func TestServeBacksUpBeforeMigratingAnOlderDataFolder(t *testing.T) {
	data, store := gameFolder(t)
	store.Close()
	dbPath := filepath.Join(data, "companion.db")
	db, err := sql.Open("sqlite", dbPath)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(schemaOneUndo); err != nil {
		t.Fatal(err)
	}
	db.Close()
	if v := userVersion(t, dbPath); v != 1 {
		t.Fatalf("the fixture is at schema %d, not 1", v)
	}

	inst, _ := startServe(t, data, "--empty")

	list, err := backup.List(filepath.Join(data, "backups"))
	if err != nil || len(list) != 1 || !strings.HasSuffix(list[0].Path, fmt.Sprintf("_before-schema-%d-from-1", newestSchema)) {
		t.Fatalf("backups after the start: %+v %v", list, err)
	}
	saved := list[0].Path
	if v := userVersion(t, filepath.Join(saved, "companion.db")); v != 1 {
		t.Errorf("the backup's database is at schema %d, want 1 (as it stood)", v)
	}
	if campaignIn(t, saved) != "Salt Marsh" {
		t.Error("the backup lost the campaign")
	}
	if body, err := os.ReadFile(filepath.Join(saved, "campaigns", "camp", "maps", "cave.png")); err != nil || string(body) != "cave" {
		t.Errorf("the backup's media: %q %v", body, err)
	}

	// The running server's folder is migrated and whole.
	resp, err := http.Get("http://" + inst.HostAddr + "/host/api/campaign")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var state struct {
		Campaign struct{ Name string } `json:"campaign"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&state); err != nil || resp.StatusCode != 200 || state.Campaign.Name != "Salt Marsh" {
		t.Errorf("the migrated folder's campaign: %d %+v %v", resp.StatusCode, state, err)
	}
	resp2, err := http.Get("http://" + inst.HostAddr + "/host/api/library/camp")
	if err != nil {
		t.Fatal(err)
	}
	resp2.Body.Close()
	if resp2.StatusCode != 200 {
		t.Errorf("the library of the migrated folder: %d", resp2.StatusCode)
	}
	if v := userVersion(t, dbPath); v != newestSchema {
		t.Errorf("the data folder's database is at schema %d after the start, want %d", v, newestSchema)
	}
	if body, err := os.ReadFile(filepath.Join(data, "campaigns", "camp", "maps", "cave.png")); err != nil || string(body) != "cave" {
		t.Errorf("the data folder's media: %q %v", body, err)
	}
}
