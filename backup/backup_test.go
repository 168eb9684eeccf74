package backup

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/vttapp/companion/core"
)

// dataFolder writes a small data folder: a "database", served folders, and
// what a backup leaves out.
func dataFolder(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for name, body := range map[string]string{
		"companion.db":                      "live database",
		"companion.db-wal":                  "wal",
		"companion.db-shm":                  "shm",
		"server.json":                       `{"pid": 1}`,
		"companion.log":                     "a background server's output",
		".staging/import-1/half.png":        "half an import",
		"backups/old/backup.json":           "an older backup",
		"modules/m1/monsters/goblin.png":    "goblin art",
		"campaigns/c1/maps/cave.png":        "cave",
		"campaigns/c1/fog/cave-2.png":       "fog",
		"systems/homebrew/system.json":      `{"id": "homebrew"}`,
		"others/notes.txt":                  "notes",
		"client/index.html":                 "<html>",
		"campaigns/c1/handouts/letter.webp": "letter",
	} {
		p := filepath.Join(dir, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// fakeSnapshot "snapshots" the database by copying its file.
func fakeSnapshot(data string) func(ctx context.Context, path string) error {
	return func(ctx context.Context, path string) error {
		_, err := copyFile(filepath.Join(data, Database), path)
		return err
	}
}

// files maps every file under dir to its content.
func files(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			rel, _ := filepath.Rel(dir, p)
			data, _ := os.ReadFile(p)
			out[filepath.ToSlash(rel)] = string(data)
		}
		return nil
	})
	return out
}

func TestMakeCopiesTheDataFolderAndTheSnapshot(t *testing.T) {
	data := dataFolder(t)
	os.Symlink("/etc/passwd", filepath.Join(data, "others", "link"))
	dest := filepath.Join(t.TempDir(), "copy")
	// A file that appears while the snapshot is taken (an import committing
	// meanwhile) is in the backup: the folders are copied again after it.
	snapshot := func(ctx context.Context, path string) error {
		os.WriteFile(filepath.Join(data, "campaigns", "c1", "maps", "new.png"), []byte("new map"), 0o644)
		return fakeSnapshot(data)(ctx, path)
	}
	res, err := Make(context.Background(), Options{DataDir: data, Dest: dest, Snapshot: snapshot, Reason: "by hand", Version: "1.2.3"})
	if err != nil {
		t.Fatal(err)
	}
	got := files(t, dest)
	manifest := got[ManifestFile]
	delete(got, ManifestFile)
	want := map[string]string{
		"companion.db": "live database", "modules/m1/monsters/goblin.png": "goblin art", "campaigns/c1/maps/cave.png": "cave",
		"campaigns/c1/maps/new.png": "new map", "campaigns/c1/fog/cave-2.png": "fog", "systems/homebrew/system.json": `{"id": "homebrew"}`,
		"others/notes.txt": "notes", "client/index.html": "<html>", "campaigns/c1/handouts/letter.webp": "letter",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("backup holds %v\nwant %v", keys(got), keys(want))
	}
	if res.Path != dest || res.Files != 8 || res.Version != "1.2.3" || res.Reason != "by hand" || res.App != "companion" ||
		!reflect.DeepEqual(res.Skipped, []string{"others/link"}) {
		t.Errorf("result %+v", res)
	}
	if !strings.Contains(manifest, `"format": 1`) {
		t.Errorf("manifest %s", manifest)
	}
	m, err := Read(dest)
	if err != nil || m.Files != 8 || m.Bytes != res.Bytes {
		t.Errorf("Read: %+v %v", m, err)
	}
	if entries, _ := os.ReadDir(filepath.Dir(dest)); len(entries) != 1 {
		t.Errorf("the work folder was left beside the backup: %v", entries)
	}
}

func TestMakeRefusesAndLeavesNothing(t *testing.T) {
	data := dataFolder(t)
	ctx := context.Background()
	outside := t.TempDir()
	os.Mkdir(filepath.Join(outside, "taken"), 0o755)
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	for _, c := range []struct {
		name string
		opt  Options
		ctx  context.Context
		kind core.ErrorKind
		says string
	}{
		{"inside the data folder", Options{Dest: filepath.Join(data, "modules", "copy")}, ctx, core.KindInvalid, "inside the data folder"},
		{"the data folder itself", Options{Dest: data}, ctx, core.KindConflict, "already exists"},
		{"holding the data folder", Options{Dest: filepath.Dir(data)}, ctx, core.KindConflict, "already exists"},
		{"an existing folder", Options{Dest: filepath.Join(outside, "taken")}, ctx, core.KindConflict, "already exists"},
		{"a failing snapshot", Options{Dest: filepath.Join(outside, "a"), Snapshot: func(context.Context, string) error {
			return core.Invalidf("the disk is full")
		}}, ctx, core.KindInvalid, "the disk is full"},
		{"a cancelled backup", Options{Dest: filepath.Join(outside, "b")}, cancelled, core.KindInternal, ""},
		{"no database", Options{DataDir: outside, Dest: filepath.Join(outside, "c")}, ctx, core.KindNotFound, "no Companion database"},
	} {
		opt := c.opt
		if opt.DataDir == "" {
			opt.DataDir = data
		}
		if opt.Snapshot == nil {
			opt.Snapshot = fakeSnapshot(data)
		}
		_, err := Make(c.ctx, opt)
		if err == nil || core.KindOf(err) != c.kind || !strings.Contains(core.MessageOf(err), c.says) {
			t.Errorf("%s: %v (%s)", c.name, err, core.KindOf(err))
		}
	}
	if entries, _ := os.ReadDir(outside); len(entries) != 1 {
		t.Errorf("refused backups left %d entries beside the destination", len(entries))
	}
}

// A backup under the data folder's backups/ is named after its time and
// reason, listed newest first, and never copied into the next backup.
func TestBackupsInsideTheDataFolder(t *testing.T) {
	data := dataFolder(t)
	day := time.Date(2024, 5, 1, 20, 30, 0, 0, time.UTC)
	first, err := Make(context.Background(), Options{DataDir: data, Snapshot: fakeSnapshot(data), Reason: "before schema 2", Now: func() time.Time { return day }})
	if err != nil {
		t.Fatal(err)
	}
	if first.Path != filepath.Join(data, "backups", "2024-05-01_20-30-00_before-schema-2") {
		t.Errorf("path %s", first.Path)
	}
	later := day.Add(time.Hour)
	second, err := Make(context.Background(), Options{DataDir: data, Snapshot: fakeSnapshot(data), Now: func() time.Time { return later }})
	if err != nil {
		t.Fatal(err)
	}
	for name := range files(t, second.Path) {
		if strings.HasPrefix(name, "backups/") {
			t.Errorf("a backup copied the backups: %s", name)
		}
	}
	os.MkdirAll(filepath.Join(data, "backups", "cut-short", "modules"), 0o755)
	list, err := List(filepath.Join(data, "backups"))
	if err != nil || len(list) != 2 || list[0].Path != second.Path || list[1].Path != first.Path {
		t.Errorf("List: %+v %v", list, err)
	}
}

func TestRestoreIntoAFreshFolderOnly(t *testing.T) {
	data := dataFolder(t)
	res, err := Make(context.Background(), Options{DataDir: data, Dest: filepath.Join(t.TempDir(), "b"), Snapshot: fakeSnapshot(data)})
	if err != nil {
		t.Fatal(err)
	}
	ok := func(context.Context, string) error { return nil }
	target := filepath.Join(t.TempDir(), "restored")
	if _, err := Restore(context.Background(), res.Path, target, ok); err != nil {
		t.Fatal(err)
	}
	want := files(t, res.Path)
	delete(want, ManifestFile)
	if got := files(t, target); !reflect.DeepEqual(got, want) {
		t.Errorf("restored %v, want %v", keys(got), keys(want))
	}
	// Into an empty folder made for it.
	empty := t.TempDir()
	if _, err := Restore(context.Background(), res.Path, empty, ok); err != nil {
		t.Errorf("into an empty folder: %v", err)
	}
	// Never over a data folder, never from what is not a backup, never a
	// database the check refuses; and nothing is written then.
	before := files(t, data)
	_, err = Restore(context.Background(), res.Path, data, ok)
	if core.KindOf(err) != core.KindConflict || !strings.Contains(err.Error(), "is not empty") {
		t.Errorf("over a data folder: %v", err)
	}
	if !reflect.DeepEqual(files(t, data), before) {
		t.Error("a refused restore changed the data folder")
	}
	_, err = Restore(context.Background(), data, filepath.Join(t.TempDir(), "x"), ok)
	if core.KindOf(err) != core.KindInvalid || !strings.Contains(err.Error(), "no backup.json") {
		t.Errorf("from a data folder: %v", err)
	}
	parent := t.TempDir()
	_, err = Restore(context.Background(), res.Path, filepath.Join(parent, "y"), func(context.Context, string) error {
		return core.Invalidf("companion.db is damaged")
	})
	if err == nil || !strings.Contains(err.Error(), "damaged") {
		t.Errorf("a damaged database: %v", err)
	}
	if entries, _ := os.ReadDir(parent); len(entries) != 0 {
		t.Errorf("a refused restore left %v", entries)
	}
	// A data folder in the way is moved aside, never deleted.
	aside, err := MoveAside(data, time.Date(2024, 5, 1, 0, 0, 0, 0, time.UTC))
	if err != nil || aside != data+".before-restore-2024-05-01_00-00-00" {
		t.Fatalf("MoveAside: %s %v", aside, err)
	}
	if !reflect.DeepEqual(files(t, aside), before) {
		t.Error("the folder moved aside lost files")
	}
	if _, err := Restore(context.Background(), res.Path, data, ok); err != nil {
		t.Errorf("restore once moved aside: %v", err)
	}
}

func TestMakerMakesOneBackupAtATime(t *testing.T) {
	data := dataFolder(t)
	started, release := make(chan struct{}), make(chan struct{})
	m := NewMaker(data, "1.0.0", func(ctx context.Context, path string) error {
		close(started)
		<-release
		return fakeSnapshot(data)(ctx, path)
	})
	done := make(chan error, 1)
	go func() { _, err := m.Make(context.Background(), "", ""); done <- err }()
	<-started
	_, err := m.Make(context.Background(), filepath.Join(t.TempDir(), "second"), "")
	if core.KindOf(err) != core.KindConflict || !strings.Contains(err.Error(), "already being written") {
		t.Errorf("a second backup meanwhile: %v", err)
	}
	close(release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	list, err := m.List()
	if err != nil || len(list) != 1 || list[0].Reason != "by hand" {
		t.Errorf("List: %+v %v", list, err)
	}
	if errors.Is(err, context.Canceled) {
		t.Fatal(err)
	}
}

func keys(m map[string]string) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
