package imports

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"
)

// stagedFiles counts the files in the staging folder.
func stagedFiles(t *testing.T, dataDir string) int {
	t.Helper()
	n := 0
	filepath.WalkDir(filepath.Join(dataDir, ".staging"), func(_ string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			n++
		}
		return nil
	})
	return n
}

// TestFileOfferInstallsOnlyAfterAccept: a file opened on the device waits
// as an offer naming the file; nothing is installed until it is accepted,
// and its staged copy is gone afterwards.
func TestFileOfferInstallsOnlyAfterAccept(t *testing.T) {
	env := newTestEnv(t)
	m := newTestManager(t, env, nil, Limits{})
	o, err := m.OfferFile(bytes.NewReader(batsModule(t, "1.0.0", "Marsh Bat")), "/home/gm/Downloads/marsh-bats.module")
	if err != nil {
		t.Fatal(err)
	}
	if o.Status != StatusPending || o.File != "marsh-bats.module" || o.From != FromFile || o.URL != "" || o.Manifest != "" {
		t.Fatalf("offer %+v", o)
	}
	if mods, _ := env.svc.Modules(context.Background()); len(mods) != 0 {
		t.Fatalf("installed before the person accepted: %d modules", len(mods))
	}
	if n := stagedFiles(t, env.dataDir); n != 1 {
		t.Fatalf("%d staged files, want the copy of the offered file", n)
	}
	if _, err := m.Accept(o.ID, ""); err != nil {
		t.Fatal(err)
	}
	done := settle(t, m, o.ID)
	if done.Status != StatusInstalled || done.Result == nil || done.Result.Name != "Marsh Bats" {
		t.Fatalf("after accept: %+v", done)
	}
	if n := stagedFiles(t, env.dataDir); n != 0 {
		t.Fatalf("%d staged files left after the install", n)
	}
}

// TestFileOfferDeclinedLeavesNothing: a declined or dismissed file offer
// removes its copy and installs nothing; a failed one cannot be retried
// (the file must be opened again).
func TestFileOfferDeclinedLeavesNothing(t *testing.T) {
	env := newTestEnv(t)
	m := newTestManager(t, env, nil, Limits{})
	o, err := m.OfferFile(bytes.NewReader(batsModule(t, "1.0.0", "Marsh Bat")), "marsh-bats.module")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.Decline(o.ID); err != nil {
		t.Fatal(err)
	}
	if n := stagedFiles(t, env.dataDir); n != 0 {
		t.Fatalf("%d staged files after decline", n)
	}
	if mods, _ := env.svc.Modules(context.Background()); len(mods) != 0 {
		t.Fatal("a declined file was installed")
	}

	o, err = m.OfferFile(bytes.NewReader(batsModule(t, "1.0.0", "Marsh Bat")), "again.module")
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Dismiss(o.ID); err != nil {
		t.Fatal(err)
	}
	if n := stagedFiles(t, env.dataDir); n != 0 {
		t.Fatalf("%d staged files after dismiss", n)
	}

	bad, err := m.OfferFile(bytes.NewReader([]byte("not an archive")), "broken.module")
	if err != nil {
		t.Fatal(err)
	}
	m.Accept(bad.ID, "")
	if got := settle(t, m, bad.ID); got.Status != StatusFailed {
		t.Fatalf("a broken file: %+v", got)
	}
	if _, err := m.Retry(bad.ID); err == nil {
		t.Fatal("a file offer retried without its file")
	}
	if _, err := m.OfferFile(bytes.NewReader(nil), " "); err == nil {
		t.Fatal("a file offer without a name")
	}
}
