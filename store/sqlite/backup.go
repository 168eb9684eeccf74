package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/vttapp/companion/core"
)

// Backups of the database. VACUUM INTO writes a consistent copy of the
// database into a new file: it reads one snapshot, as any read does, so it
// runs on a read-only connection and never takes the write lock: in WAL
// mode, writers go on committing while it copies (what a write waits for
// meanwhile is measured by BenchmarkWriteStallDuringBackup). The copy is
// compact, holds every committed change up to its snapshot and none after,
// and needs no WAL file beside it.

// BackupInto writes a consistent copy of the database to path, which must
// not exist yet, while the store goes on serving.
func (s *Store) BackupInto(ctx context.Context, path string) error {
	return vacuumInto(ctx, s.readers, path)
}

// vacuumInto runs VACUUM INTO on a connection of db.
func vacuumInto(ctx context.Context, db interface {
	ExecContext(context.Context, string, ...any) (sql.Result, error)
}, path string) error {
	abs, err := filepath.Abs(path)
	if err != nil {
		return core.Internal(err)
	}
	if _, err := db.ExecContext(ctx, "VACUUM INTO ?", abs); err != nil {
		return internal("copy the database to "+abs, err)
	}
	return nil
}

// SnapshotFile writes a consistent copy of the database file src to dst
// (which must not exist), without migrating it: the backup of a data
// folder no server is running on.
func SnapshotFile(ctx context.Context, src, dst string) error {
	abs, err := filepath.Abs(src)
	if err != nil {
		return core.Internal(err)
	}
	db, err := sql.Open("sqlite", readerDSN(abs))
	if err != nil {
		return internal("open "+abs, err)
	}
	defer db.Close()
	return vacuumInto(ctx, db, dst)
}

// CheckFile opens the database file at path read-only and checks it: the
// file is a whole SQLite database (PRAGMA quick_check) whose schema this
// build can read. It returns the schema version.
func CheckFile(ctx context.Context, path string) (int, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return 0, core.Internal(err)
	}
	db, err := sql.Open("sqlite", readerDSN(abs))
	if err != nil {
		return 0, internal("open "+abs, err)
	}
	defer db.Close()
	var version int
	if err := db.QueryRowContext(ctx, "PRAGMA user_version").Scan(&version); err != nil {
		return 0, core.Invalidf("%s is not a database Companion can read: %v", path, err)
	}
	if version > len(migrations) {
		return version, core.Invalidf("%s has schema version %d but this build of companion knows only up to %d: use a newer companion", path, version, len(migrations))
	}
	if version == 0 {
		return 0, core.Invalidf("%s holds no Companion data (schema version 0)", path)
	}
	rows, err := db.QueryContext(ctx, "PRAGMA quick_check")
	if err != nil {
		return version, core.Invalidf("%s cannot be checked: %v", path, err)
	}
	defer rows.Close()
	var problems []string
	for rows.Next() {
		var line string
		if err := rows.Scan(&line); err != nil {
			return version, core.Internal(err)
		}
		if line != "ok" {
			problems = append(problems, line)
		}
	}
	if err := rows.Err(); err != nil {
		return version, core.Invalidf("%s is damaged: %v", path, err)
	}
	if len(problems) > 0 {
		if len(problems) > 3 {
			problems = append(problems[:3], fmt.Sprintf("and %d more", len(problems)-3))
		}
		return version, core.Invalidf("%s is damaged: %s", path, strings.Join(problems, "; "))
	}
	return version, nil
}

// SchemaVersion is the newest schema version this build knows.
func SchemaVersion() int { return len(migrations) }
