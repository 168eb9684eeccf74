package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"time"

	"github.com/vttapp/companion/backup"
	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/store/sqlite"
)

// runBackup implements `companion backup [FOLDER]`: a consistent copy of
// the whole data folder. When a server runs with the data folder, it
// writes the backup itself (POST /host/api/backups) while play goes on;
// otherwise the folder is copied here, its database left unmigrated.
func runBackup(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("companion backup", flag.ContinueOnError)
	fs.SetOutput(stderr)
	dataDir := fs.String("data", envOr("COMPANION_DATA", defaultDataDir()), "the data folder to back up")
	hostAddr := fs.String("host-addr", "", "host console of the running server (default: the one running with --data, if any)")
	rest, err := parseInterleaved(fs, args)
	if err != nil {
		return 2
	}
	if len(rest) > 1 {
		fmt.Fprintln(stderr, "usage: companion backup [--data DIR] [--host-addr ADDR] [FOLDER]   (default FOLDER: a new one in DIR/backups)")
		return 2
	}
	folder := ""
	if len(rest) == 1 {
		if folder, err = filepath.Abs(rest[0]); err != nil {
			fmt.Fprintln(stderr, err)
			return 1
		}
	}
	addr := *hostAddr
	if addr == "" {
		if inst, ok := runningInstance(*dataDir); ok {
			addr = dialAddr(inst.HostAddr)
		}
	}
	var res backup.Result
	if addr != "" {
		body, _ := json.Marshal(map[string]string{"folder": folder})
		err = linkCall(addr, http.MethodPost, "/host/api/backups", "application/json", bytes.NewReader(body), http.StatusCreated, &res)
	} else {
		db := filepath.Join(*dataDir, backup.Database)
		res, err = backup.Make(context.Background(), backup.Options{DataDir: *dataDir, Dest: folder, Reason: "by hand", Version: core.Version,
			Snapshot: func(ctx context.Context, path string) error { return sqlite.SnapshotFile(ctx, db, path) }})
	}
	if err != nil {
		printError(stderr, err)
		return 1
	}
	printResult(stdout, res, func(w io.Writer) { describeBackup(w, res) })
	return 0
}

// restored is what `companion restore` prints.
type restored struct {
	Restored   string    `json:"restored"`
	From       string    `json:"from"`
	Created    time.Time `json:"created"`
	Version    string    `json:"version"`
	MovedAside string    `json:"movedAside,omitempty"`
}

// runRestore implements `companion restore BACKUP`: the backup becomes the
// data folder, which must be new or empty (or, with --replace, is moved
// aside first; nothing is deleted). Never while a server runs with it.
func runRestore(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("companion restore", flag.ContinueOnError)
	fs.SetOutput(stderr)
	dataDir := fs.String("data", envOr("COMPANION_DATA", defaultDataDir()), "the data folder to restore into: new or empty")
	replace := fs.Bool("replace", false, "move a data folder in the way aside (to <folder>.before-restore-<time>) first")
	rest, err := parseInterleaved(fs, args)
	if err != nil {
		return 2
	}
	if len(rest) != 1 {
		fmt.Fprintln(stderr, "usage: companion restore [--data DIR] [--replace] BACKUP")
		return 2
	}
	out, err := restore(rest[0], *dataDir, *replace)
	if err != nil {
		printError(stderr, err)
		return 1
	}
	printResult(stdout, out, func(w io.Writer) { describeRestore(w, out) })
	return 0
}

func restore(from, dataDir string, replace bool) (restored, error) {
	if inst, ok := runningInstance(dataDir); ok {
		return restored{}, fmt.Errorf("a Companion server (pid %d) is running with the data folder %s: stop it before restoring into it", inst.PID, dataDir)
	}
	check := func(ctx context.Context, db string) error {
		_, err := sqlite.CheckFile(ctx, db)
		return err
	}
	// Check the backup before anything is moved.
	m, err := backup.Read(from)
	if err != nil {
		return restored{}, err
	}
	if err := check(context.Background(), filepath.Join(from, m.Database)); err != nil {
		return restored{}, err
	}
	out := restored{Restored: dataDir, From: from, Created: m.Created, Version: m.Version}
	if entries, err := os.ReadDir(dataDir); err == nil && len(entries) > 0 {
		if !replace {
			return restored{}, fmt.Errorf("the data folder %s is not empty: restore into a new folder (--data NEW), or give --replace to move it aside first", dataDir)
		}
		if out.MovedAside, err = backup.MoveAside(dataDir, time.Now()); err != nil {
			return restored{}, err
		}
	}
	checked := func(context.Context, string) error { return nil } // just above, before anything moved
	if _, err := backup.Restore(context.Background(), from, dataDir, checked); err != nil {
		if out.MovedAside != "" {
			if rerr := os.Rename(out.MovedAside, dataDir); rerr != nil {
				return restored{}, fmt.Errorf("%s; the data folder stays at %s", core.MessageOf(err), out.MovedAside)
			}
		}
		return restored{}, err
	}
	return out, nil
}

// backupBeforeMigrate is the store's migration hook: the whole data folder
// is backed up (its files hard-linked where the disk allows, the database
// copied as it stands) before its database moves to a newer schema, so
// that `companion restore` takes an upgrade back.
func backupBeforeMigrate(ctx context.Context, dataDir string, log *slog.Logger) sqlite.MigrationHook {
	return func(from, to int, snapshot func(ctx context.Context, path string) error) error {
		res, err := backup.Make(ctx, backup.Options{DataDir: dataDir, Snapshot: snapshot, Link: true, Version: core.Version,
			Reason: fmt.Sprintf("before schema %d (from %d)", to, from)})
		if err != nil {
			return fmt.Errorf("backing up the data folder: %w", err)
		}
		log.Info("backed up the data folder before migrating its database", "from", from, "to", to, "backup", res.Path)
		return nil
	}
}
