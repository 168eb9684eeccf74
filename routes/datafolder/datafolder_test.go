package datafolder

import (
	"os"
	"path/filepath"
	"testing"
)

// File finds a served file by its URL path, as content names it, and
// nothing outside the served folders.
func TestFileNamesOnlyServedFiles(t *testing.T) {
	data := t.TempDir()
	dir, name, ok := File(data, "/campaigns/c1/maps/cellar%20map.png?v=2")
	if !ok || dir != filepath.Join(data, "campaigns") || name != "c1/maps/cellar map.png" {
		t.Fatalf("File = %q %q %v", dir, name, ok)
	}
	for _, bad := range []string{
		"/companion.db", "/systems/dnd5e/x.png", "/campaigns", "/campaigns/../companion.db",
		"/others/a%5Cb.png", "/others/a%00.png", "/modules/%zz", "",
	} {
		if dir, name, ok := File(data, bad); ok {
			t.Errorf("File(%q) = %q %q: not a served file", bad, dir, name)
		}
	}
	if _, _, ok := File("", "/campaigns/c1/a.png"); ok {
		t.Error("File without a data folder found a file")
	}
}

// OpenInRoot never follows a link out of its folder.
func TestOpenInRootStaysInItsFolder(t *testing.T) {
	root := t.TempDir()
	outside := filepath.Join(t.TempDir(), "secret.png")
	if err := os.WriteFile(outside, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "ok.png"), []byte("y"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(root, "link.png")); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	f, err := OpenInRoot(root, "ok.png")()
	if err != nil {
		t.Fatalf("a file in the folder: %v", err)
	}
	f.Close()
	for _, name := range []string{"link.png", "../" + filepath.Base(filepath.Dir(outside)) + "/secret.png"} {
		if f, err := OpenInRoot(root, name)(); err == nil {
			f.Close()
			t.Errorf("OpenInRoot opened %q outside its folder", name)
		}
	}
}
