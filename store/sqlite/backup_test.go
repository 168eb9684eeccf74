package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/vttapp/companion/core"
)

// countEntities opens a database file on its own and counts its entities.
func countEntities(t *testing.T, path string) int {
	t.Helper()
	db, err := sql.Open("sqlite", readerDSN(path))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var n int
	if err := db.QueryRow("SELECT count(*) FROM entities").Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// A backup is taken while a write holds the write lock: it needs no more
// than a read, so it finishes without waiting for that write, and holds
// what was committed before it, not the write in progress.
func TestBackupNeverWaitsForTheWriter(t *testing.T) {
	s := newStore(t)
	put(t, s, testCampaign("c1"), testEntity("e1", "monster", "Goblin", "c1"))
	holding, release := make(chan struct{}), make(chan struct{})
	writeDone := make(chan error, 1)
	go func() {
		writeDone <- s.Update(context.Background(), func(tx core.Tx) error {
			if err := tx.PutEntity(testEntity("e2", "monster", "Orc", "c1")); err != nil {
				return err
			}
			close(holding)
			<-release
			return nil
		})
	}()
	<-holding
	dst := filepath.Join(t.TempDir(), "copy.db")
	backupDone := make(chan error, 1)
	go func() { backupDone <- s.BackupInto(context.Background(), dst) }()
	select {
	case err := <-backupDone:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(30 * time.Second): // a failure bound, not a measure: it waits on the writer
		close(release)
		t.Fatal("the backup waited for the write in progress")
	}
	close(release)
	if err := <-writeDone; err != nil {
		t.Fatal(err)
	}
	if n := countEntities(t, dst); n != 1 {
		t.Errorf("the backup holds %d entities, want the 1 committed before it", n)
	}
	if v, err := CheckFile(context.Background(), dst); err != nil || v != len(migrations) {
		t.Errorf("CheckFile of the backup: %d %v", v, err)
	}
	// The store goes on: the write is there, a second backup has it.
	dst2 := filepath.Join(t.TempDir(), "copy2.db")
	if err := s.BackupInto(context.Background(), dst2); err != nil || countEntities(t, dst2) != 2 {
		t.Errorf("second backup: %v", err)
	}
	if err := s.BackupInto(context.Background(), dst2); err == nil {
		t.Error("a backup over an existing file was written")
	}
}

func TestSnapshotFileAndCheckFile(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	path := filepath.Join(dir, "companion.db")
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	put(t, s, testCampaign("c1"), testEntity("e1", "monster", "Goblin", "c1"))
	s.Close()
	copyPath := filepath.Join(dir, "copy.db")
	if err := SnapshotFile(ctx, path, copyPath); err != nil {
		t.Fatal(err)
	}
	if countEntities(t, copyPath) != 1 {
		t.Error("the snapshot lost the entity")
	}
	garbage := filepath.Join(dir, "garbage.db")
	os.WriteFile(garbage, []byte(strings.Repeat("not a database ", 500)), 0o644)
	if _, err := CheckFile(ctx, garbage); core.KindOf(err) != core.KindInvalid {
		t.Errorf("a file that is no database: %v", err)
	}
	// A database whose pages were overwritten in the middle.
	damaged := filepath.Join(dir, "damaged.db")
	data, _ := os.ReadFile(copyPath)
	for i := 4096 + 100; i < len(data) && i < 4096*3; i++ {
		data[i] = 0xA5
	}
	os.WriteFile(damaged, data, 0o644)
	if _, err := CheckFile(ctx, damaged); err == nil {
		t.Error("a damaged database passed the check")
	}
	empty := filepath.Join(dir, "empty.db")
	if db, err := sql.Open("sqlite", empty); err == nil {
		db.Exec("CREATE TABLE x (a)")
		db.Close()
	}
	if _, err := CheckFile(ctx, empty); err == nil || !strings.Contains(err.Error(), "schema version 0") {
		t.Errorf("a database of another program: %v", err)
	}
}

// Before a database that holds data is migrated, the hook gets a copy of
// it as it stands (the server backs the data folder up there); a hook
// that fails leaves the database unmigrated. A new database, or one that
// is current, is not backed up.
func TestMigrationIsPrecededByABackup(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "companion.db")
	old := []string{`CREATE TABLE notes (text TEXT); INSERT INTO notes VALUES ('written by the old version');`}
	newer := append(append([]string{}, old...), `ALTER TABLE notes ADD COLUMN author TEXT; UPDATE notes SET author = 'new';`)

	calls := 0
	hook := func(from, to int, snapshot func(context.Context, string) error) error {
		calls++
		return nil
	}
	opt := defaultOptions()
	opt.migrations, opt.beforeMigrate = old, hook
	s, _, err := open(context.Background(), path, opt)
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	if calls != 0 {
		t.Fatalf("a new database was backed up %d times", calls)
	}

	opt.migrations = newer
	opt.beforeMigrate = func(from, to int, snapshot func(context.Context, string) error) error {
		return errors.New("the disk is full")
	}
	if s, _, err := open(context.Background(), path, opt); err == nil {
		s.Close()
		t.Fatal("opened although the backup before the migration failed")
	} else if !strings.Contains(err.Error(), "the disk is full") || !strings.Contains(err.Error(), "nothing was changed") {
		t.Fatalf("error %q", err)
	}
	if v, _ := CheckFile(context.Background(), path); v != 1 {
		t.Fatalf("after a failed backup the schema is %d, want 1", v)
	}

	saved := filepath.Join(dir, "before.db")
	var got [2]int
	opt.beforeMigrate = func(from, to int, snapshot func(context.Context, string) error) error {
		got = [2]int{from, to}
		return snapshot(context.Background(), saved)
	}
	s, applied, err := open(context.Background(), path, opt)
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	if got != [2]int{1, 2} || len(applied) != 1 {
		t.Fatalf("hook saw %v, applied %v", got, applied)
	}
	db, _ := sql.Open("sqlite", readerDSN(saved))
	defer db.Close()
	var version int
	var text string
	db.QueryRow("PRAGMA user_version").Scan(&version)
	db.QueryRow("SELECT text FROM notes").Scan(&text)
	if version != 1 || text != "written by the old version" {
		t.Errorf("the copy before the migration: version %d, %q", version, text)
	}
	if _, err := db.Exec("SELECT author FROM notes"); err == nil {
		t.Error("the copy before the migration has the new column")
	}

	opt.beforeMigrate = func(int, int, func(context.Context, string) error) error {
		t.Error("a current database was backed up")
		return nil
	}
	s, _, err = open(context.Background(), path, opt)
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
}
