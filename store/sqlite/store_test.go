package sqlite

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/vttapp/companion/core"
)

func TestOpenConfiguresTheDatabase(t *testing.T) {
	s := newStore(t)
	var mode, sync string
	var fk, version int
	if err := s.writer.QueryRow("PRAGMA journal_mode").Scan(&mode); err != nil {
		t.Fatal(err)
	}
	if err := s.writer.QueryRow("PRAGMA synchronous").Scan(&sync); err != nil {
		t.Fatal(err)
	}
	if err := s.writer.QueryRow("PRAGMA foreign_keys").Scan(&fk); err != nil {
		t.Fatal(err)
	}
	if err := s.writer.QueryRow("PRAGMA user_version").Scan(&version); err != nil {
		t.Fatal(err)
	}
	if mode != "wal" || sync != "2" || fk != 1 || version != len(migrations) {
		t.Fatalf("writer: journal_mode=%s synchronous=%s foreign_keys=%d user_version=%d; want wal, 2 (FULL), 1, %d",
			mode, sync, fk, version, len(migrations))
	}
	if err := s.readers.QueryRow("PRAGMA foreign_keys").Scan(&fk); err != nil {
		t.Fatal(err)
	}
	if fk != 1 {
		t.Fatalf("reader: foreign_keys=%d, want 1", fk)
	}
	// Readers are read-only connections.
	if _, err := s.readers.Exec("DELETE FROM modules"); err == nil || !strings.Contains(err.Error(), "readonly") {
		t.Fatalf("a write on a reader connection: err=%v, want a read-only error", err)
	}
}

func TestOpenRejectsBadPaths(t *testing.T) {
	_, err := Open("  ")
	wantKind(t, err, core.KindInvalid, "path is empty")

	missing := filepath.Join(t.TempDir(), "no such folder", "companion.db")
	if s, err := Open(missing); err == nil {
		s.Close()
		t.Fatal("Open in a missing folder succeeded")
	} else if !strings.Contains(err.Error(), missing) {
		t.Fatalf("error %q does not name the path %s", err, missing)
	}
}

func TestOpenHandlesURICharactersInPath(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "a dir?with#odd%chars")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "companion.db")
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	put(t, s, testModule("m1"))
	s.Close()
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("the database was not created at %s", path)
	}
}

func TestReopenAppliesNothingTwice(t *testing.T) {
	path := filepath.Join(t.TempDir(), "companion.db")
	// The real schema, then a last step that would fail or duplicate data
	// if it ran twice.
	steps := append(append([]string{}, migrations...),
		`CREATE TABLE audit (note TEXT NOT NULL); INSERT INTO audit VALUES ('migrated');`)
	opt := defaultOptions()
	opt.migrations = steps

	s, applied, err := open(context.Background(), path, opt)
	if err != nil {
		t.Fatal(err)
	}
	var want []int // every step, the test's last included
	for v := 1; v <= len(steps); v++ {
		want = append(want, v)
	}
	if !reflect.DeepEqual(applied, want) {
		t.Fatalf("first open applied %v, want %v", applied, want)
	}
	put(t, s, testModule("m1"))
	s.Close()

	for round := 0; round < 2; round++ {
		s, applied, err = open(context.Background(), path, opt)
		if err != nil {
			t.Fatal(err)
		}
		if len(applied) != 0 {
			t.Fatalf("reopen %d applied %v, want nothing", round, applied)
		}
		if n := countRows(t, s, "audit"); n != 1 {
			t.Fatalf("the last migration ran %d times", n)
		}
		view(t, s, func(tx core.Tx) error { _, err := tx.Module("m1"); return err })
		s.Close()
	}

	// A later build with one more step applies only that one.
	opt.migrations = append(steps, `INSERT INTO audit VALUES ('one more');`)
	s, applied, err = open(context.Background(), path, opt)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if want := []int{len(steps) + 1}; !reflect.DeepEqual(applied, want) {
		t.Fatalf("upgrade applied %v, want %v", applied, want)
	}
	if n := countRows(t, s, "audit"); n != 2 {
		t.Fatalf("audit has %d rows, want 2", n)
	}
}

func TestOpenWithRealMigrationsReportsThem(t *testing.T) {
	path := filepath.Join(t.TempDir(), "companion.db")
	s, applied, err := open(context.Background(), path, defaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	if len(applied) != len(migrations) {
		t.Fatalf("applied %v on a new database, want all %d", applied, len(migrations))
	}
	s, applied, err = open(context.Background(), path, defaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	if len(applied) != 0 {
		t.Fatalf("reopen applied %v", applied)
	}
}

func TestFailedMigrationLeavesTheLastVersion(t *testing.T) {
	path := filepath.Join(t.TempDir(), "companion.db")
	opt := defaultOptions()
	opt.migrations = []string{
		`CREATE TABLE one (a TEXT);`,
		`CREATE TABLE two (a TEXT); INSERT INTO no_such_table VALUES (1);`,
	}
	if s, _, err := open(context.Background(), path, opt); err == nil {
		s.Close()
		t.Fatal("open succeeded with a failing migration")
	} else if !strings.Contains(err.Error(), "migration 2") {
		t.Fatalf("error %q does not name migration 2", err)
	}
	opt.migrations = opt.migrations[:1]
	s, applied, err := open(context.Background(), path, opt)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if len(applied) != 0 {
		t.Fatalf("applied %v: migration 1 should have been kept", applied)
	}
	var n int
	if err := s.writer.QueryRow("SELECT count(*) FROM sqlite_master WHERE name = 'two'").Scan(&n); err != nil {
		t.Fatal(err)
	}
	if n != 0 {
		t.Fatal("the failed migration left table 'two' behind")
	}
}

func TestOpenRefusesANewerSchema(t *testing.T) {
	path := filepath.Join(t.TempDir(), "companion.db")
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.writer.Exec("PRAGMA user_version = 99"); err != nil {
		t.Fatal(err)
	}
	s.Close()
	if s, err := Open(path); err == nil {
		s.Close()
		t.Fatal("Open accepted a database from the future")
	} else if !strings.Contains(err.Error(), "schema version 99") {
		t.Fatalf("error %q does not explain the version", err)
	}
}

func TestCloseTwice(t *testing.T) {
	s, err := Open(filepath.Join(t.TempDir(), "companion.db"))
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
}

func TestUpdateRollsBackOnError(t *testing.T) {
	s := newStore(t)
	errBoom := errors.New("boom")
	err := s.Update(context.Background(), func(tx core.Tx) error {
		if err := tx.PutModule(testModule("m1")); err != nil {
			return err
		}
		if err := tx.PutEntity(testEntity("e1", "monster", "Goblin", "m1")); err != nil {
			return err
		}
		return errBoom
	})
	if !errors.Is(err, errBoom) {
		t.Fatalf("Update returned %v, want fn's error as is", err)
	}
	// A domain error keeps its kind through Update.
	err = s.Update(context.Background(), func(tx core.Tx) error { return core.Conflictf("locked") })
	wantKind(t, err, core.KindConflict, "locked")

	view(t, s, func(tx core.Tx) error {
		_, err := tx.Module("m1")
		wantNotFound(t, err)
		_, err = tx.Entity("e1")
		wantNotFound(t, err)
		return nil
	})
}

func TestUpdateRollsBackOnPanicAndStaysUsable(t *testing.T) {
	s := newStore(t)
	func() {
		defer func() {
			if p := recover(); p != "boom" {
				t.Fatalf("recovered %v, want the panic of fn to continue", p)
			}
		}()
		s.Update(context.Background(), func(tx core.Tx) error {
			if err := tx.PutModule(testModule("m1")); err != nil {
				t.Fatal(err)
			}
			panic("boom")
		})
	}()
	view(t, s, func(tx core.Tx) error {
		_, err := tx.Module("m1")
		wantNotFound(t, err)
		return nil
	})
	// The single writer connection came back to the pool in a clean state.
	put(t, s, testModule("m2"))
	view(t, s, func(tx core.Tx) error {
		_, err := tx.Module("m2")
		return err
	})
}

func TestUpdateHonoursContext(t *testing.T) {
	s := newStore(t)

	canceled, cancel := context.WithCancel(context.Background())
	cancel()
	called := false
	err := s.Update(canceled, func(tx core.Tx) error { called = true; return nil })
	if !errors.Is(err, context.Canceled) || called {
		t.Fatalf("Update on a canceled context: err=%v called=%v", err, called)
	}

	// Canceled while fn runs: nothing is committed.
	ctx, cancel := context.WithCancel(context.Background())
	err = s.Update(ctx, func(tx core.Tx) error {
		if err := tx.PutModule(testModule("m1")); err != nil {
			return err
		}
		cancel()
		return nil
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Update canceled during fn returned %v", err)
	}
	view(t, s, func(tx core.Tx) error {
		_, err := tx.Module("m1")
		wantNotFound(t, err)
		return nil
	})
	put(t, s, testModule("m2")) // still usable

	// Canceled, then fn goes on writing: the failure names the cause.
	ctx, cancel = context.WithCancel(context.Background())
	err = s.Update(ctx, func(tx core.Tx) error {
		cancel()
		time.Sleep(10 * time.Millisecond) // let database/sql end the transaction
		return tx.PutModule(testModule("m3"))
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("a write after the cancel returned %v, want it to match context.Canceled", errorText(err))
	}
	view(t, s, func(tx core.Tx) error {
		_, err := tx.Module("m3")
		wantNotFound(t, err)
		return nil
	})

	// A domain error keeps its kind even when the context ended.
	ctx, cancel = context.WithCancel(context.Background())
	err = s.Update(ctx, func(tx core.Tx) error { cancel(); return core.Invalidf("bad") })
	wantKind(t, err, core.KindInvalid, "bad")

	err = s.View(canceled, func(tx core.Tx) error { return nil })
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("View on a canceled context returned %v", err)
	}
}

func TestViewRefusesWrites(t *testing.T) {
	s := newStore(t)
	put(t, s, testCampaign("c1"), testMap("map1", "c1"))
	writes := map[string]func(tx core.Tx) error{
		"PutModule":       func(tx core.Tx) error { return tx.PutModule(testModule("m1")) },
		"DeleteModule":    func(tx core.Tx) error { return tx.DeleteModule("m1") },
		"PutCampaign":     func(tx core.Tx) error { return tx.PutCampaign(testCampaign("c2")) },
		"DeleteCampaign":  func(tx core.Tx) error { return tx.DeleteCampaign("c1") },
		"PutGame":         func(tx core.Tx) error { return tx.PutGame("c1", &core.Game{}) },
		"PutScreen":       func(tx core.Tx) error { return tx.PutScreen("c1", &core.Screen{}) },
		"PutEntity":       func(tx core.Tx) error { return tx.PutEntity(testEntity("e1", "monster", "Orc", "")) },
		"DeleteEntity":    func(tx core.Tx) error { return tx.DeleteEntity("e1") },
		"PutCombatant":    func(tx core.Tx) error { return tx.PutCombatant(testCombatant("k1", "c1", "", 1)) },
		"DeleteCombatant": func(tx core.Tx) error { return tx.DeleteCombatant("k1") },
		"PutMap":          func(tx core.Tx) error { return tx.PutMap(testMap("map2", "c1")) },
		"DeleteMap":       func(tx core.Tx) error { return tx.DeleteMap("map1") },
		"PutToken":        func(tx core.Tx) error { return tx.PutToken(testToken("t1", "map1")) },
		"DeleteToken":     func(tx core.Tx) error { return tx.DeleteToken("t1") },
		"AddMessage":      func(tx core.Tx) error { return tx.AddMessage(testMessage("", "c1", "hi")) },
	}
	for name, write := range writes {
		err := s.View(context.Background(), write)
		wantKind(t, err, core.KindInternal)
		if !strings.Contains(errorText(err), name+" called inside View") {
			t.Errorf("%s in View: error %q does not explain the mistake", name, errorText(err))
		}
	}
	if n := countRows(t, s, "maps"); n != 1 {
		t.Fatalf("maps has %d rows after refused writes", n)
	}
}

func TestViewReturnsFnError(t *testing.T) {
	s := newStore(t)
	errBoom := errors.New("boom")
	if err := s.View(context.Background(), func(tx core.Tx) error { return errBoom }); !errors.Is(err, errBoom) {
		t.Fatalf("View returned %v", err)
	}
}

// Close folds the WAL back into the database file: after a clean shutdown
// the data folder holds companion.db alone.
func TestCloseCheckpointsTheWAL(t *testing.T) {
	path := filepath.Join(t.TempDir(), "companion.db")
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	put(t, s, testModule("m1"))
	view(t, s, func(tx core.Tx) error { _, err := tx.Module("m1"); return err })
	if _, err := os.Stat(path + "-wal"); err != nil {
		t.Fatalf("no WAL while open: %v", err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	for _, suffix := range []string{"-wal", "-shm"} {
		if _, err := os.Stat(path + suffix); !os.IsNotExist(err) {
			t.Errorf("%s still exists after Close (err %v)", path+suffix, err)
		}
	}
	s, err = Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	view(t, s, func(tx core.Tx) error { _, err := tx.Module("m1"); return err })
}
