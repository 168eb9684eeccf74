package sqlite

import (
	"context"
	"database/sql"
	"fmt"
)

// migrations are the numbered schema changes, oldest first: migrations[i]
// brings the database from version i to version i+1 (PRAGMA user_version).
// A released migration is never edited; a change of schema is a new entry
// appended at the end.
//
// Every object is a row holding its JSON document (doc) plus the columns
// that queries filter or order on. Fields that core tags `json:"-"` (owner,
// revision, primary, campaign, rank, map id) live only in their columns.
var migrations = []string{
	// 1: the initial schema.
	`
CREATE TABLE modules (
	id       TEXT PRIMARY KEY,
	system   TEXT NOT NULL,
	name     TEXT NOT NULL,
	slug     TEXT NOT NULL,
	revision INTEGER NOT NULL,
	doc      TEXT NOT NULL
);
CREATE INDEX modules_by_name ON modules (name COLLATE NOCASE, id);

CREATE TABLE campaigns (
	id         TEXT PRIMARY KEY,
	system     TEXT NOT NULL,
	name       TEXT NOT NULL,
	slug       TEXT NOT NULL,
	is_primary INTEGER NOT NULL DEFAULT 0,
	revision   INTEGER NOT NULL,
	doc        TEXT NOT NULL
);
CREATE INDEX campaigns_by_name ON campaigns (name COLLATE NOCASE, id);
-- At most one primary campaign per system, whatever the code does.
CREATE UNIQUE INDEX campaigns_one_primary ON campaigns (system) WHERE is_primary;

-- A campaign's game state (without its combatants, which are rows) and its
-- player-screen settings: at most one each, gone with the campaign.
CREATE TABLE games (
	campaign TEXT PRIMARY KEY REFERENCES campaigns (id) ON DELETE CASCADE,
	doc      TEXT NOT NULL
);
CREATE TABLE screens (
	campaign TEXT PRIMARY KEY REFERENCES campaigns (id) ON DELETE CASCADE,
	doc      TEXT NOT NULL
);

-- owner is a module id, a campaign id or empty; the triggers below delete
-- owned rows with their owner (a foreign key cannot point at two tables).
CREATE TABLE entities (
	id       TEXT PRIMARY KEY,
	kind     TEXT NOT NULL,
	system   TEXT NOT NULL,
	owner    TEXT NOT NULL,
	name     TEXT NOT NULL,
	slug     TEXT NOT NULL,
	revision INTEGER NOT NULL,
	doc      TEXT NOT NULL
);
CREATE INDEX entities_by_name ON entities (name COLLATE NOCASE, id);
CREATE INDEX entities_by_kind ON entities (kind, name COLLATE NOCASE, id);
CREATE INDEX entities_by_slug ON entities (slug, kind);
CREATE INDEX entities_by_owner ON entities (owner);

CREATE TABLE combatants (
	id        TEXT PRIMARY KEY,
	campaign  TEXT NOT NULL REFERENCES campaigns (id) ON DELETE CASCADE,
	entity_id TEXT NOT NULL,
	rank      INTEGER NOT NULL,
	revision  INTEGER NOT NULL,
	doc       TEXT NOT NULL
);
CREATE INDEX combatants_by_campaign ON combatants (campaign, rank, id);
CREATE INDEX combatants_by_entity ON combatants (entity_id);

CREATE TABLE maps (
	id       TEXT PRIMARY KEY,
	owner    TEXT NOT NULL,
	name     TEXT NOT NULL,
	slug     TEXT NOT NULL,
	rank     INTEGER NOT NULL,
	revision INTEGER NOT NULL,
	doc      TEXT NOT NULL
);
CREATE INDEX maps_by_owner ON maps (owner, rank, name COLLATE NOCASE, id);

-- seq keeps the tokens of a map in insertion order (an INTEGER PRIMARY KEY
-- survives VACUUM, a bare rowid may not); an upsert keeps it.
CREATE TABLE tokens (
	seq      INTEGER PRIMARY KEY,
	id       TEXT NOT NULL UNIQUE,
	map_id   TEXT NOT NULL REFERENCES maps (id) ON DELETE CASCADE,
	revision INTEGER NOT NULL,
	doc      TEXT NOT NULL
);
CREATE INDEX tokens_by_map ON tokens (map_id, seq);

-- AUTOINCREMENT: a sequence number is never reused, so seq orders the log
-- even after deletions and even when two messages share a timestamp.
CREATE TABLE messages (
	seq      INTEGER PRIMARY KEY AUTOINCREMENT,
	id       TEXT NOT NULL UNIQUE,
	campaign TEXT NOT NULL REFERENCES campaigns (id) ON DELETE CASCADE,
	created  TEXT NOT NULL,
	doc      TEXT NOT NULL
);
CREATE INDEX messages_by_campaign ON messages (campaign, seq);

CREATE TRIGGER modules_delete_owned AFTER DELETE ON modules BEGIN
	DELETE FROM entities WHERE owner = OLD.id;
	DELETE FROM maps WHERE owner = OLD.id;
END;
CREATE TRIGGER campaigns_delete_owned AFTER DELETE ON campaigns BEGIN
	DELETE FROM entities WHERE owner = OLD.id;
	DELETE FROM maps WHERE owner = OLD.id;
END;
`,
	// 2: adventures: pages, encounters, groups and assets owned like maps,
	// and the pages (or sections) a campaign's game master showed players.
	`
-- A page's document is stored without its content (head), which has a
-- column of its own: the library tree lists pages without reading them.
CREATE TABLE pages (
	id       TEXT PRIMARY KEY,
	owner    TEXT NOT NULL,
	name     TEXT NOT NULL,
	slug     TEXT NOT NULL,
	rank     INTEGER NOT NULL,
	revision INTEGER NOT NULL,
	head     TEXT NOT NULL,
	content  TEXT NOT NULL
);
CREATE INDEX pages_by_owner ON pages (owner, rank, name COLLATE NOCASE, id);
CREATE INDEX pages_by_slug ON pages (slug);

CREATE TABLE encounters (
	id       TEXT PRIMARY KEY,
	owner    TEXT NOT NULL,
	name     TEXT NOT NULL,
	slug     TEXT NOT NULL,
	rank     INTEGER NOT NULL,
	revision INTEGER NOT NULL,
	doc      TEXT NOT NULL
);
CREATE INDEX encounters_by_owner ON encounters (owner, rank, name COLLATE NOCASE, id);

-- "groups" is a word of SQL's window frames: the table is library_groups.
CREATE TABLE library_groups (
	id       TEXT PRIMARY KEY,
	owner    TEXT NOT NULL,
	name     TEXT NOT NULL,
	slug     TEXT NOT NULL,
	rank     INTEGER NOT NULL,
	revision INTEGER NOT NULL,
	doc      TEXT NOT NULL
);
CREATE INDEX library_groups_by_owner ON library_groups (owner, rank, name COLLATE NOCASE, id);

CREATE TABLE assets (
	id       TEXT PRIMARY KEY,
	owner    TEXT NOT NULL,
	name     TEXT NOT NULL,
	slug     TEXT NOT NULL,
	rank     INTEGER NOT NULL,
	revision INTEGER NOT NULL,
	doc      TEXT NOT NULL
);
CREATE INDEX assets_by_owner ON assets (owner, rank, name COLLATE NOCASE, id);

-- What players may read: a page whole (section '') or some of its
-- sections, per campaign; gone with the campaign or the page.
CREATE TABLE page_shows (
	seq      INTEGER PRIMARY KEY,
	campaign TEXT NOT NULL REFERENCES campaigns (id) ON DELETE CASCADE,
	page_id  TEXT NOT NULL REFERENCES pages (id) ON DELETE CASCADE,
	section  TEXT NOT NULL,
	UNIQUE (campaign, page_id, section)
);
CREATE INDEX page_shows_by_page ON page_shows (page_id);

DROP TRIGGER modules_delete_owned;
DROP TRIGGER campaigns_delete_owned;
CREATE TRIGGER modules_delete_owned AFTER DELETE ON modules BEGIN
	DELETE FROM entities WHERE owner = OLD.id;
	DELETE FROM maps WHERE owner = OLD.id;
	DELETE FROM pages WHERE owner = OLD.id;
	DELETE FROM encounters WHERE owner = OLD.id;
	DELETE FROM library_groups WHERE owner = OLD.id;
	DELETE FROM assets WHERE owner = OLD.id;
END;
CREATE TRIGGER campaigns_delete_owned AFTER DELETE ON campaigns BEGIN
	DELETE FROM entities WHERE owner = OLD.id;
	DELETE FROM maps WHERE owner = OLD.id;
	DELETE FROM pages WHERE owner = OLD.id;
	DELETE FROM encounters WHERE owner = OLD.id;
	DELETE FROM library_groups WHERE owner = OLD.id;
	DELETE FROM assets WHERE owner = OLD.id;
END;
`,
	// 3: players' seats and the join key (core/seats.go, core/access.go).
	`
CREATE TABLE seats (
	entity_id TEXT PRIMARY KEY,
	campaign  TEXT NOT NULL REFERENCES campaigns (id) ON DELETE CASCADE,
	doc       TEXT NOT NULL
);
CREATE INDEX seats_by_campaign ON seats (campaign);
CREATE TABLE access (
	name TEXT PRIMARY KEY,
	doc  TEXT NOT NULL
);
`,
	// 4: entities an import writes in batches before they are installed
	// (core.Tx.StageEntity): invisible to every read until one
	// transaction adopts them all.
	`
CREATE TABLE staged_entities (
	stage  TEXT NOT NULL,
	id     TEXT NOT NULL,
	kind   TEXT NOT NULL,
	system TEXT NOT NULL,
	name   TEXT NOT NULL,
	slug   TEXT NOT NULL,
	doc    TEXT NOT NULL,
	PRIMARY KEY (stage, id)
);
`,
	// 5: who reads a private message besides the game master (core's
	// whisper.go): '' for everyone, else '|' and the hashes of the seats
	// that read it, each followed by '|' ('|' alone: the game master's
	// only). A player's read filters on it (RecentMessagesFor).
	`
ALTER TABLE messages ADD COLUMN audience TEXT NOT NULL DEFAULT '';
`,
	// 6: random tables, owned like pages and encounters, and the rows a
	// noRepeat table gave in each campaign (core's tables.go).
	`
CREATE TABLE roll_tables (
	id       TEXT PRIMARY KEY,
	owner    TEXT NOT NULL,
	name     TEXT NOT NULL,
	slug     TEXT NOT NULL,
	rank     INTEGER NOT NULL,
	revision INTEGER NOT NULL,
	doc      TEXT NOT NULL
);
CREATE INDEX roll_tables_by_owner ON roll_tables (owner, rank, name COLLATE NOCASE, id);
CREATE TABLE roll_table_history (
	campaign TEXT NOT NULL REFERENCES campaigns (id) ON DELETE CASCADE,
	table_id TEXT NOT NULL REFERENCES roll_tables (id) ON DELETE CASCADE,
	rows     TEXT NOT NULL,
	PRIMARY KEY (campaign, table_id)
);

DROP TRIGGER modules_delete_owned;
DROP TRIGGER campaigns_delete_owned;
CREATE TRIGGER modules_delete_owned AFTER DELETE ON modules BEGIN
	DELETE FROM entities WHERE owner = OLD.id;
	DELETE FROM maps WHERE owner = OLD.id;
	DELETE FROM pages WHERE owner = OLD.id;
	DELETE FROM encounters WHERE owner = OLD.id;
	DELETE FROM library_groups WHERE owner = OLD.id;
	DELETE FROM assets WHERE owner = OLD.id;
	DELETE FROM roll_tables WHERE owner = OLD.id;
END;
CREATE TRIGGER campaigns_delete_owned AFTER DELETE ON campaigns BEGIN
	DELETE FROM entities WHERE owner = OLD.id;
	DELETE FROM maps WHERE owner = OLD.id;
	DELETE FROM pages WHERE owner = OLD.id;
	DELETE FROM encounters WHERE owner = OLD.id;
	DELETE FROM library_groups WHERE owner = OLD.id;
	DELETE FROM assets WHERE owner = OLD.id;
	DELETE FROM roll_tables WHERE owner = OLD.id;
END;
`,
	// 7: the handout journal: what each campaign's game master showed
	// players (core's journal.go).
	`
CREATE TABLE journal (
	id       TEXT PRIMARY KEY,
	campaign TEXT NOT NULL REFERENCES campaigns (id) ON DELETE CASCADE,
	doc      TEXT NOT NULL
);
CREATE INDEX journal_by_campaign ON journal (campaign);
`,
}

// migrate brings db to the newest version of steps, each step in its own
// transaction together with the version bump, so that a crash or a failing
// step leaves the database at the last complete version. Before migrating
// a database that holds data it calls before (when set) with a way to copy
// the database as it stands. It returns the versions it applied (none when
// the database is current).
func migrate(ctx context.Context, db *sql.DB, steps []string, before MigrationHook) (applied []int, err error) {
	conn, err := db.Conn(ctx)
	if err != nil {
		return nil, err
	}
	defer conn.Close()

	var current int
	if err := conn.QueryRowContext(ctx, "PRAGMA user_version").Scan(&current); err != nil {
		return nil, fmt.Errorf("read schema version: %w", err)
	}
	if current > len(steps) {
		return nil, fmt.Errorf("the database has schema version %d but this build of companion knows only up to %d: use a newer companion", current, len(steps))
	}
	if before != nil && current > 0 && current < len(steps) {
		snapshot := func(ctx context.Context, path string) error { return vacuumInto(ctx, conn, path) }
		if err := before(current, len(steps), snapshot); err != nil {
			return nil, fmt.Errorf("before migrating the schema from version %d to %d: %w (nothing was changed)", current, len(steps), err)
		}
	}
	for version := current + 1; version <= len(steps); version++ {
		done, err := applyMigration(ctx, conn, version, steps[version-1])
		if err != nil {
			return applied, err
		}
		if done {
			applied = append(applied, version)
		}
	}
	return applied, nil
}

// applyMigration runs one step; done is false when another process applied
// it first.
func applyMigration(ctx context.Context, conn *sql.Conn, version int, step string) (done bool, err error) {
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		return false, fmt.Errorf("migration %d: %w", version, err)
	}
	defer tx.Rollback() //nolint:errcheck // no-op after Commit
	// Re-read the version inside the transaction: another process may have
	// migrated between our read and our write lock.
	var current int
	if err := tx.QueryRowContext(ctx, "PRAGMA user_version").Scan(&current); err != nil {
		return false, fmt.Errorf("migration %d: %w", version, err)
	}
	if current >= version {
		return false, nil
	}
	if _, err := tx.ExecContext(ctx, step); err != nil {
		return false, fmt.Errorf("migration %d: %w", version, err)
	}
	// user_version lives in the database header, which is written as part
	// of the transaction: it commits or rolls back with the step.
	if _, err := tx.ExecContext(ctx, fmt.Sprintf("PRAGMA user_version = %d", version)); err != nil {
		return false, fmt.Errorf("migration %d: %w", version, err)
	}
	if err := tx.Commit(); err != nil {
		return false, fmt.Errorf("migration %d: %w", version, err)
	}
	return true, nil
}
