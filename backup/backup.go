// Package backup copies a whole data folder while the server runs, and
// restores such a copy into a fresh folder.
//
// A backup is a folder: the database as one consistent snapshot (taken by
// the caller's Snapshot, SQLite's VACUUM INTO, which never blocks play),
// every other file of the data folder (modules, campaigns, systems,
// others, the installed web client), and backup.json, written last, which
// says it is whole. The server writes its files once and never changes
// them in place (a new fog mask, background or install is a new file, put
// in place by a rename), so copying them around the snapshot is enough:
// the folders are copied once before it and again after it for what
// appeared meanwhile, and every file the snapshot names is in the copy.
//
// It knows the data folder's layout, not the database: store/sqlite does
// the snapshot and the check of a restored database.
package backup

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync/atomic"
	"time"

	"github.com/vttapp/companion/core"
)

// ManifestFile, at the root of a backup, says it is whole.
const ManifestFile = "backup.json"

// Database is the database file of a data folder, and of a backup.
const Database = "companion.db"

// FolderName is where backups go by default, inside the data folder (and
// is never itself copied).
const FolderName = "backups"

// notCopied are the top-level entries of a data folder a backup leaves
// out: the live database (the snapshot stands for it), the running
// server's address and log, work in progress, the backups themselves,
// and the tiles cut from map pictures (a cache, cut again on request).
var notCopied = map[string]bool{
	Database: true, Database + "-wal": true, Database + "-shm": true, Database + "-journal": true,
	"server.json": true, "server.json.tmp": true, "companion.log": true, ".staging": true, ".first-run": true, ".tiles": true,
	FolderName: true,
}

// Manifest is backup.json.
type Manifest struct {
	App      string    `json:"app"`    // "companion"
	Format   int       `json:"format"` // 1
	Version  string    `json:"version"`
	Created  time.Time `json:"created"`
	Reason   string    `json:"reason"`
	Database string    `json:"database"`
	Files    int       `json:"files"` // besides the database and this file
	Bytes    int64     `json:"bytes"` // of those files and the database
	// Linked: the files were hard-linked to the data folder's rather than
	// copied (a backup before a migration, on the same disk): it guards
	// the database, not against losing the disk.
	Linked bool `json:"linked,omitempty"`
	// Skipped lists entries that are not regular files (links, devices),
	// which a backup never follows.
	Skipped []string `json:"skipped,omitempty"`
}

// Result is a backup made: where, its manifest, how long it took.
type Result struct {
	Path       string `json:"path"`
	DurationMs int64  `json:"durationMs"`
	Manifest
}

// Options say what to back up, where and how.
type Options struct {
	DataDir string
	// Dest is the backup folder to make; it must not exist. Empty means
	// a new folder under DataDir/backups, named after the time.
	Dest string
	// Snapshot writes a consistent copy of the database to a new file.
	Snapshot func(ctx context.Context, path string) error
	Reason   string
	Version  string
	// Link hard-links files instead of copying them where it can.
	Link bool
	Now  func() time.Time
}

// Make writes a backup of the data folder.
func Make(ctx context.Context, opt Options) (Result, error) {
	now := time.Now
	if opt.Now != nil {
		now = opt.Now
	}
	started := now()
	data, err := filepath.Abs(opt.DataDir)
	if err != nil {
		return Result{}, core.Internal(err)
	}
	if info, err := os.Stat(filepath.Join(data, Database)); err != nil || !info.Mode().IsRegular() {
		return Result{}, core.NotFoundf("%s holds no Companion database to back up", data)
	}
	dest := opt.Dest
	if dest == "" {
		name := NewName(started, opt.Reason)
		dest = filepath.Join(data, FolderName, name)
		for i := 2; exists(dest); i++ { // two backups in one second
			dest = filepath.Join(data, FolderName, fmt.Sprintf("%s-%d", name, i))
		}
	}
	if dest, err = filepath.Abs(dest); err != nil {
		return Result{}, core.Internal(err)
	}
	if err := checkDest(data, dest); err != nil {
		return Result{}, err
	}
	if err := os.MkdirAll(filepath.Dir(dest), 0o755); err != nil {
		return Result{}, core.Invalidf("cannot make the folder for the backup: %v", errors.Unwrap(err))
	}
	work, err := os.MkdirTemp(filepath.Dir(dest), "."+filepath.Base(dest)+".partial-")
	if err != nil {
		return Result{}, core.Invalidf("cannot write the backup beside %s: %v", dest, errors.Unwrap(err))
	}
	done := false
	defer func() {
		if !done {
			os.RemoveAll(work)
		}
	}()
	c := &copier{link: opt.Link, skip: notCopied, copied: map[string]bool{}, manifest: Manifest{App: "companion", Format: 1,
		Version: opt.Version, Created: started.UTC(), Reason: opt.Reason, Database: Database, Linked: opt.Link}}
	// Files before the snapshot, the snapshot, then files that appeared meanwhile.
	if err := c.tree(ctx, data, work); err != nil {
		return Result{}, err
	}
	if err := opt.Snapshot(ctx, filepath.Join(work, Database)); err != nil {
		return Result{}, err
	}
	if info, err := os.Stat(filepath.Join(work, Database)); err == nil {
		c.manifest.Bytes += info.Size()
	}
	if err := syncFile(filepath.Join(work, Database)); err != nil {
		return Result{}, core.Internal(err)
	}
	if err := c.tree(ctx, data, work); err != nil {
		return Result{}, err
	}
	sort.Strings(c.manifest.Skipped)
	if err := writeJSONFile(filepath.Join(work, ManifestFile), c.manifest); err != nil {
		return Result{}, core.Internal(err)
	}
	if err := os.Rename(work, dest); err != nil {
		return Result{}, core.Internal(err)
	}
	done = true
	return Result{Path: dest, DurationMs: now().Sub(started).Milliseconds(), Manifest: c.manifest}, nil
}

func exists(p string) bool {
	_, err := os.Lstat(p)
	return err == nil
}

// NewName names a backup folder after its time (and why it was made, when
// not by hand): 2024-05-01_20-30-00, 2024-05-01_20-30-00_before-schema-2.
func NewName(t time.Time, reason string) string {
	name := t.Format("2006-01-02_15-04-05")
	if tag := tagOf(reason); tag != "" {
		name += "_" + tag
	}
	return name
}

// tagOf turns a reason into a short file-name tag: letters, digits, dashes.
func tagOf(reason string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(reason) {
		if (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') {
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			dash = false
			b.WriteRune(r)
		} else {
			dash = true
		}
		if b.Len() >= 40 {
			break
		}
	}
	return b.String()
}

// checkDest refuses a destination that exists, or that lies inside the
// data folder anywhere but under its backups folder (the copy would copy
// itself), or that holds the data folder.
func checkDest(data, dest string) error {
	if _, err := os.Lstat(dest); err == nil {
		return core.Conflictf("%s already exists: a backup is written into a new folder", dest)
	}
	if within(dest, data) && !within(dest, filepath.Join(data, FolderName)) {
		return core.Invalidf("%s is inside the data folder: choose a folder outside it, or under its %s folder", dest, FolderName)
	}
	if within(data, dest) {
		return core.Invalidf("%s would hold the data folder it copies", dest)
	}
	return nil
}

// within reports whether p is dir or inside it.
func within(p, dir string) bool {
	rel, err := filepath.Rel(dir, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// copier copies a folder tree file by file, each file once.
type copier struct {
	link     bool
	skip     map[string]bool // top-level entries left out
	copied   map[string]bool
	manifest Manifest
}

// tree copies every file of src not copied yet into dst, leaving out the
// top-level entries to skip.
func (c *copier) tree(ctx context.Context, src, dst string) error {
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil // removed while walking: it is not part of the game any more
			}
			return core.Invalidf("cannot read %s: %v", p, errors.Unwrap(err))
		}
		if cerr := ctx.Err(); cerr != nil {
			return cerr
		}
		rel, err := filepath.Rel(src, p)
		if err != nil || rel == "." {
			return err
		}
		if !strings.ContainsRune(rel, filepath.Separator) && c.skip[d.Name()] {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		target := filepath.Join(dst, rel)
		switch {
		case d.IsDir():
			return os.MkdirAll(target, 0o755)
		case !d.Type().IsRegular():
			if !c.copied[rel] {
				c.copied[rel] = true
				c.manifest.Skipped = append(c.manifest.Skipped, filepath.ToSlash(rel))
			}
			return nil
		case c.copied[rel]:
			return nil
		}
		n, err := c.file(p, target)
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		if err != nil {
			return core.Invalidf("cannot copy %s: %v", p, err)
		}
		c.copied[rel] = true
		c.manifest.Files++
		c.manifest.Bytes += n
		return nil
	})
}

// file links or copies one file and returns its size.
func (c *copier) file(src, dst string) (int64, error) {
	if c.link {
		if err := os.Link(src, dst); err == nil {
			info, err := os.Stat(dst)
			if err != nil {
				return 0, err
			}
			return info.Size(), nil
		}
	}
	return copyFile(src, dst)
}

func copyFile(src, dst string) (int64, error) {
	in, err := os.Open(src)
	if err != nil {
		return 0, err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return 0, err
	}
	n, err := io.Copy(out, in)
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(dst)
	}
	return n, err
}

func syncFile(path string) error {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return err
	}
	err = f.Sync()
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

func writeJSONFile(path string, v any) error {
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if _, err := f.Write(append(data, '\n')); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// Read reads a backup's manifest: a folder without a valid one is not a
// whole Companion backup.
func Read(dir string) (Manifest, error) {
	data, err := os.ReadFile(filepath.Join(dir, ManifestFile))
	if errors.Is(err, fs.ErrNotExist) {
		return Manifest{}, core.Invalidf("%s is not a whole Companion backup: it has no %s", dir, ManifestFile)
	}
	if err != nil {
		return Manifest{}, core.Invalidf("cannot read %s: %v", dir, errors.Unwrap(err))
	}
	var m Manifest
	if err := json.Unmarshal(data, &m); err != nil || m.App != "companion" || m.Database == "" {
		return Manifest{}, core.Invalidf("%s is not a Companion backup: its %s is not one", dir, ManifestFile)
	}
	if m.Format != 1 {
		return Manifest{}, core.Invalidf("%s is a backup of format %d, which this build of companion cannot restore: use a newer companion", dir, m.Format)
	}
	return m, nil
}

// Entry is a backup listed in a folder.
type Entry struct {
	Path string `json:"path"`
	Manifest
}

// List lists the whole backups in dir, newest first; a folder that is not
// one (a backup cut short) is left out. A missing dir is no backups.
func List(dir string) ([]Entry, error) {
	out := []Entry{}
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return out, nil
	}
	if err != nil {
		return nil, core.Internal(err)
	}
	for _, e := range entries {
		if !e.IsDir() || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		p := filepath.Join(dir, e.Name())
		if m, err := Read(p); err == nil {
			out = append(out, Entry{Path: p, Manifest: m})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Created.After(out[j].Created) })
	return out, nil
}

// Maker makes backups for the running server, one at a time.
type Maker struct {
	dataDir  string
	version  string
	snapshot func(ctx context.Context, path string) error
	busy     atomic.Bool
}

// NewMaker returns a Maker of backups of dataDir whose database snapshot
// is taken by snapshot.
func NewMaker(dataDir, version string, snapshot func(ctx context.Context, path string) error) *Maker {
	return &Maker{dataDir: dataDir, version: version, snapshot: snapshot}
}

// Make backs the data folder up into dest (empty: a new folder under the
// data folder's backups/). A second backup while one runs is a conflict.
func (m *Maker) Make(ctx context.Context, dest, reason string) (Result, error) {
	if !m.busy.CompareAndSwap(false, true) {
		return Result{}, core.Conflictf("a backup is already being written: wait for it to finish")
	}
	defer m.busy.Store(false)
	if reason == "" {
		reason = "by hand"
	}
	return Make(ctx, Options{DataDir: m.dataDir, Dest: dest, Snapshot: m.snapshot, Reason: reason, Version: m.version})
}

// List lists the backups in the data folder's backups/.
func (m *Maker) List() ([]Entry, error) { return List(filepath.Join(m.dataDir, FolderName)) }

// Restore copies the backup in dir into dataDir, which must not exist or
// be empty: a restore never writes over a data folder. check verifies the
// backup's database first (whole, of a schema this build reads). The copy
// is made beside dataDir and renamed into place once whole.
func Restore(ctx context.Context, dir, dataDir string, check func(ctx context.Context, db string) error) (Manifest, error) {
	m, err := Read(dir)
	if err != nil {
		return Manifest{}, err
	}
	if err := check(ctx, filepath.Join(dir, m.Database)); err != nil {
		return Manifest{}, err
	}
	src, err := filepath.Abs(dir)
	if err != nil {
		return Manifest{}, core.Internal(err)
	}
	data, err := filepath.Abs(dataDir)
	if err != nil {
		return Manifest{}, core.Internal(err)
	}
	if within(data, src) || within(src, data) {
		return Manifest{}, core.Invalidf("the backup %s and the data folder %s must not hold one another", src, data)
	}
	if entries, err := os.ReadDir(data); err == nil && len(entries) > 0 {
		return Manifest{}, core.Conflictf("the data folder %s is not empty: restore into a new folder", data)
	} else if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return Manifest{}, core.Invalidf("cannot read %s: %v", data, errors.Unwrap(err))
	}
	if err := os.MkdirAll(filepath.Dir(data), 0o755); err != nil {
		return Manifest{}, core.Invalidf("cannot make %s: %v", filepath.Dir(data), errors.Unwrap(err))
	}
	work, err := os.MkdirTemp(filepath.Dir(data), "."+filepath.Base(data)+".restoring-")
	if err != nil {
		return Manifest{}, core.Invalidf("cannot write beside %s: %v", data, errors.Unwrap(err))
	}
	done := false
	defer func() {
		if !done {
			os.RemoveAll(work)
		}
	}()
	c := &copier{skip: map[string]bool{ManifestFile: true}, copied: map[string]bool{}}
	if err := c.tree(ctx, src, work); err != nil {
		return Manifest{}, err
	}
	if m.Database != Database {
		if err := os.Rename(filepath.Join(work, m.Database), filepath.Join(work, Database)); err != nil {
			return Manifest{}, core.Internal(err)
		}
	}
	if err := syncFile(filepath.Join(work, Database)); err != nil {
		return Manifest{}, core.Internal(err)
	}
	os.Remove(data) // an empty folder the person made for it
	if err := os.Rename(work, data); err != nil {
		return Manifest{}, core.Internal(err)
	}
	done = true
	return m, nil
}

// MoveAside renames a data folder out of the way of a restore, to
// <folder>.before-restore-<time>, and returns the new name: nothing is
// ever deleted.
func MoveAside(dataDir string, now time.Time) (string, error) {
	aside := fmt.Sprintf("%s.before-restore-%s", strings.TrimRight(dataDir, `/\`), now.Format("2006-01-02_15-04-05"))
	if _, err := os.Lstat(aside); err == nil {
		return "", core.Conflictf("%s already exists", aside)
	}
	if err := os.Rename(dataDir, aside); err != nil {
		return "", core.Invalidf("cannot move %s aside: %v", dataDir, errors.Unwrap(err))
	}
	return aside, nil
}
