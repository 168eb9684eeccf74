package export

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/imports/content"
)

// A URL into the owner's own folder goes back to the path inside the
// archive that the installer resolves to the same URL; anything else is
// kept as written.
func TestRelativeTurnsOwnURLsBackIntoArchivePaths(t *testing.T) {
	w := &exportWriter{prefix: "/modules/m1"}
	for _, c := range []struct {
		ref    string
		entity bool
		want   string
	}{
		{"/modules/m1/art/a.png", false, "art/a.png"},
		{"/modules/m1/art/a.png", true, "art/a.png"},
		{"/modules/m1/a.png", false, "a.png"},
		// An entity's bare file name would resolve under its collection's
		// folder: a file at the folder's root keeps its URL path.
		{"/modules/m1/a.png", true, "/modules/m1/a.png"},
		{"/modules/m2/art/a.png", false, "/modules/m2/art/a.png"},
		{"/modules/m10/a.png", false, "/modules/m10/a.png"},
		{"/systems/dnd5e/icons/x.svg", false, "/systems/dnd5e/icons/x.svg"},
		{"https://example.org/a.png", false, "https://example.org/a.png"},
		{"/modules/m1/", false, "/modules/m1/"},
		{"/modules/m1/art/../../x.png", false, "/modules/m1/art/../../x.png"},
		{`/modules/m1/art\a.png`, false, `/modules/m1/art\a.png`},
		{"", false, ""},
	} {
		if got := w.relative(c.ref, c.entity); got != c.want {
			t.Errorf("relative(%q, entity %v) = %q, want %q", c.ref, c.entity, got, c.want)
		}
	}
}

// An export that an import with the same limits would refuse is refused
// before the download starts, each limit with its own message; media count
// towards the download limit as they are stored, not deflated.
func TestFitsImportHoldsAnExportToTheImportLimits(t *testing.T) {
	stage, folder := t.TempDir(), t.TempDir()
	if err := os.WriteFile(filepath.Join(stage, "module.json"), []byte(`{"name":"Fen"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	for name, size := range map[string]int{"maps/a.png": 3000, "notes.txt": 500, "old.json": 9000} {
		p := filepath.Join(folder, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, make([]byte, size), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	x := &Archive{Kind: content.KindModule, Name: "Fen", stage: stage, files: []string{"module.json"}, folder: folder}
	roomy := content.Limits{MaxEntries: 3, MaxTotalBytes: 3514, MaxDownloadBytes: 3000}
	if err := fitsImport(context.Background(), roomy, x); err != nil {
		t.Fatalf("an export within every limit (a data file at the folder's root not carried): %v", err)
	}
	for _, c := range []struct {
		name string
		lim  content.Limits
		want string
	}{
		{"files", content.Limits{MaxEntries: 2, MaxTotalBytes: 1 << 20, MaxDownloadBytes: 1 << 20}, "an archive of 3 files"},
		{"bytes", content.Limits{MaxEntries: 10, MaxTotalBytes: 3513, MaxDownloadBytes: 1 << 20}, "would unpack to"},
		{"media", content.Limits{MaxEntries: 10, MaxTotalBytes: 1 << 20, MaxDownloadBytes: 2999}, "of media"},
	} {
		err := fitsImport(context.Background(), c.lim, x)
		if core.KindOf(err) != core.KindTooLarge || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "could not be imported back") {
			t.Errorf("%s: %v, want too large saying %q", c.name, err, c.want)
		}
	}
}

func TestSizeText(t *testing.T) {
	for n, want := range map[int64]string{80: "80 bytes", 12 << 10: "12 KiB", 640 << 20: "640 MiB", 3<<30 + 1<<29: "3.5 GiB"} {
		if got := sizeText(n); got != want {
			t.Errorf("sizeText(%d) = %q, want %q", n, got, want)
		}
	}
}
