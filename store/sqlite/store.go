// Package sqlite is the embedded store of Companion: core.Store on
// modernc.org/sqlite (pure Go), one database file in WAL mode with foreign
// keys on.
//
// Writes are serialised on a single connection (one Update at a time);
// reads run on a separate pool of read-only connections, so a View sees the
// last committed state and never waits for a running Update.
//
// Guarantees, each kept by a test:
//   - an Update is all or nothing, also when the process is killed (SIGKILL)
//     at any moment, and an Update that returned nil survives the kill
//     (crash_test.go); with synchronous=FULL it also survives a power cut,
//     which no test can show (see options.synchronous);
//   - the schema is migrated at Open (schema.go), each numbered step once;
//   - owned content goes with its owner: a module takes its entities, maps
//     and their tokens; a campaign also its game, screen, combatants and
//     messages;
//   - objects that must belong somewhere are refused (not found) when their
//     parent is missing: a token needs its map; a combatant, a message, a
//     game and a screen need their campaign. Entities and maps may name any
//     owner, or none.
package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"path/filepath"
	"runtime"
	"strings"
	"sync"

	"github.com/vttapp/companion/core"
	_ "modernc.org/sqlite" // registers the "sqlite" driver
)

// Store is a core.Store backed by one SQLite database file.
type Store struct {
	writer  *sql.DB // exactly one connection: Update calls queue for it
	readers *sql.DB // read-only connections for View

	writerStmts *stmtCache
	readerStmts *stmtCache

	closeOnce sync.Once
	closeErr  error
}

var _ core.Store = (*Store)(nil)

// busyTimeoutMillis is how long a connection waits for a lock held by
// another process (a second companion, the sqlite3 shell) before failing.
const busyTimeoutMillis = 10000

// options are the knobs tests and benchmarks turn; Open uses the defaults.
type options struct {
	// synchronous is the PRAGMA synchronous of the writer.
	//
	// In WAL mode, NORMAL already survives the death of the process at any
	// moment (SIGKILL, a panic, the OOM killer): COMMIT has written the
	// transaction to the WAL file with write(2) before it returns, and the
	// operating system keeps that data when the process dies; recovery
	// then replays complete transactions only. What NORMAL can lose is the
	// last commits on power loss or a kernel crash, because the WAL is only
	// fsynced at checkpoints.
	//
	// We choose FULL: every commit fsyncs the WAL, so a write that was
	// acknowledged to a player also survives a power cut of the laptop
	// running the game. The cost is one fsync per Update (see
	// BenchmarkPutEntity, which reports the ratio to NORMAL); bulk work
	// such as an import is one transaction, so it pays it once.
	synchronous string
	// migrations replaces the schema steps (tests of the migration runner).
	migrations []string
	// beforeMigrate is Options.BeforeMigrate.
	beforeMigrate MigrationHook
}

// MigrationHook is called before a database that holds data (schema
// version 1 or more) is migrated to a newer schema: from and to are the
// versions, and snapshot writes a consistent copy of the database as it
// stands into a new file. An error stops the opening with nothing migrated.
type MigrationHook func(from, to int, snapshot func(ctx context.Context, path string) error) error

// Options change how OpenWith opens a database.
type Options struct {
	// BeforeMigrate, when set, is called before a migration (the server
	// backs the data folder up there).
	BeforeMigrate MigrationHook
}

func defaultOptions() options {
	return options{synchronous: "FULL", migrations: migrations}
}

// Open opens (creating it when missing) the database at path, applies the
// pending schema migrations and returns the store. The folder must exist.
func Open(path string) (*Store, error) {
	s, _, err := open(context.Background(), path, defaultOptions())
	return s, err
}

// OpenWith is Open with options.
func OpenWith(path string, o Options) (*Store, error) {
	opt := defaultOptions()
	opt.beforeMigrate = o.BeforeMigrate
	s, _, err := open(context.Background(), path, opt)
	return s, err
}

// open is Open with options; it also reports the migrations it applied.
func open(ctx context.Context, path string, opt options) (*Store, []int, error) {
	if strings.TrimSpace(path) == "" {
		return nil, nil, core.Invalidf("store: the database path is empty")
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, nil, fmt.Errorf("store: database path %s: %w", path, err)
	}

	writer, err := sql.Open("sqlite", writerDSN(abs, opt.synchronous))
	if err != nil {
		return nil, nil, fmt.Errorf("store: open %s: %w", abs, err)
	}
	writer.SetMaxOpenConns(1)
	writer.SetMaxIdleConns(1)
	writer.SetConnMaxLifetime(0)
	writer.SetConnMaxIdleTime(0)

	if err := checkWAL(ctx, writer); err != nil {
		writer.Close()
		return nil, nil, fmt.Errorf("store: open %s: %w", abs, err)
	}
	applied, err := migrate(ctx, writer, opt.migrations, opt.beforeMigrate)
	if err != nil {
		writer.Close()
		return nil, nil, fmt.Errorf("store: open %s: %w", abs, err)
	}

	// Readers are opened after the writer has put the file in WAL mode and
	// created its schema: a read-only connection can do neither.
	readers, err := sql.Open("sqlite", readerDSN(abs))
	if err != nil {
		writer.Close()
		return nil, nil, fmt.Errorf("store: open %s: %w", abs, err)
	}
	n := max(4, runtime.GOMAXPROCS(0))
	readers.SetMaxOpenConns(n)
	readers.SetMaxIdleConns(n)
	readers.SetConnMaxLifetime(0)
	readers.SetConnMaxIdleTime(0)
	if err := readers.PingContext(ctx); err != nil {
		readers.Close()
		writer.Close()
		return nil, nil, fmt.Errorf("store: open %s for reading: %w", abs, err)
	}
	s := &Store{writer: writer, readers: readers,
		writerStmts: newStmtCache(writer), readerStmts: newStmtCache(readers)}
	return s, applied, nil
}

// fileURI turns an absolute path into a SQLite URI, escaping the characters
// ('?', '#', '%', spaces...) that would otherwise be read as URI syntax.
func fileURI(abs string) string {
	u := url.URL{Scheme: "file", OmitHost: true, Path: filepath.ToSlash(abs)}
	if !strings.HasPrefix(u.Path, "/") { // C:/... on Windows
		u.Path = "/" + u.Path
	}
	return u.String()
}

// writerDSN configures the single writing connection: WAL, foreign keys,
// BEGIN IMMEDIATE (the write lock is taken at the start of Update, so a
// transaction never fails half-way because another process wrote first).
func writerDSN(abs, synchronous string) string {
	q := url.Values{}
	q.Add("_txlock", "immediate")
	q.Add("_pragma", fmt.Sprintf("busy_timeout(%d)", busyTimeoutMillis))
	q.Add("_pragma", "foreign_keys(1)")
	q.Add("_pragma", "journal_mode(WAL)")
	q.Add("_pragma", "synchronous("+synchronous+")")
	return fileURI(abs) + "?" + q.Encode()
}

// readerDSN opens connections that cannot write at all (mode=ro): a write
// slipped into a View fails instead of racing the writer.
func readerDSN(abs string) string {
	q := url.Values{}
	q.Add("mode", "ro")
	q.Add("_pragma", fmt.Sprintf("busy_timeout(%d)", busyTimeoutMillis))
	q.Add("_pragma", "foreign_keys(1)")
	return fileURI(abs) + "?" + q.Encode()
}

// checkWAL makes sure the journal really is WAL: on a file system without
// shared memory support SQLite silently keeps another mode, and the
// concurrency of View and Update depends on WAL.
func checkWAL(ctx context.Context, db *sql.DB) error {
	var mode string
	if err := db.QueryRowContext(ctx, "PRAGMA journal_mode").Scan(&mode); err != nil {
		return err
	}
	if !strings.EqualFold(mode, "wal") {
		return fmt.Errorf("the database could not be put in WAL mode (journal mode is %q); is it on a network file system?", mode)
	}
	return nil
}

// Close closes the database; a checkpoint folds the WAL back into the main
// file. Calling Close again returns the first result.
func (s *Store) Close() error {
	s.closeOnce.Do(func() {
		s.closeErr = errors.Join(s.readerStmts.close(), s.writerStmts.close(),
			s.readers.Close(), s.writer.Close())
	})
	return s.closeErr
}

// View runs fn in a read-only transaction: it sees one consistent snapshot
// of the last committed state. Writes inside fn fail.
func (s *Store) View(ctx context.Context, fn func(tx core.Tx) error) error {
	sqlTx, err := s.readers.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return internal("begin a read", err)
	}
	t := &tx{ctx: ctx, q: sqlTx, stmts: s.readerStmts}
	defer func() {
		// A read transaction has nothing to undo: Rollback just ends it,
		// also when fn panics. Its connection is free after it.
		sqlTx.Rollback() //nolint:errcheck
		s.readerStmts.prepare(t.missed)
	}()
	return fn(t)
}

// Update runs fn in one write transaction, committed when fn returns nil.
// An error from fn is returned as is, after everything fn wrote has been
// rolled back. A panic in fn rolls everything back too and then goes on
// unchanged (it is not recovered here): a panic is a bug, the HTTP layer's
// recovery turns it into a 500 with a log line, and the store stays usable.
// When ctx ends before the commit, nothing is written: Tx methods called
// after that and Update itself return the context's error (wrapped in an
// internal error; errors.Is(err, context.Canceled) works).
//
// Updates are serialised; calling Update from inside fn deadlocks.
func (s *Store) Update(ctx context.Context, fn func(tx core.Tx) error) (err error) {
	sqlTx, err := s.writer.BeginTx(ctx, nil)
	if err != nil {
		return internal("begin a write", err)
	}
	t := &tx{ctx: ctx, q: sqlTx, writable: true, stmts: s.writerStmts}
	committed := false
	defer func() {
		if !committed {
			sqlTx.Rollback() //nolint:errcheck // the connection is reset either way
		}
		s.writerStmts.prepare(t.missed) // the writer is free again
	}()
	if err := fn(t); err != nil {
		return err
	}
	if err := sqlTx.Commit(); err != nil {
		// A context canceled while fn ran makes database/sql roll the
		// transaction back from its own goroutine; Commit then answers
		// either the context's error or ErrTxDone, whichever it sees
		// first. Name the cause either way.
		if ctxErr := ctx.Err(); ctxErr != nil {
			return internal("commit", ctxErr)
		}
		return internal("commit", err)
	}
	committed = true
	return nil
}

// internal wraps an unexpected error with what the store was doing. Errors
// that already carry a kind keep it.
func internal(doing string, err error) error {
	var e *core.Error
	if errors.As(err, &e) {
		return err
	}
	return core.Internal(fmt.Errorf("store: %s: %w", doing, err))
}
