package web

import (
	"io/fs"
	"strings"
	"testing"
)

// The embedded client is the built bundle and nothing else: its start page
// loads app.js, and neither the sources nor node_modules are in the binary.
func TestClientIsTheBuiltBundle(t *testing.T) {
	c := Client()
	page, err := fs.ReadFile(c, "index.html")
	if err != nil {
		t.Fatalf("client index.html: %v", err)
	}
	if !strings.Contains(string(page), `src="app.js"`) || !strings.Contains(string(page), `href="app.css"`) {
		t.Fatalf("index.html does not load the bundle:\n%s", page)
	}
	for _, name := range []string{"app.js", "app.css", "THIRD_PARTY_LICENSES.txt"} {
		if info, err := fs.Stat(c, name); err != nil || info.Size() == 0 {
			t.Fatalf("%s missing or empty: %v", name, err)
		}
	}
	err = fs.WalkDir(FS, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if strings.Contains(p, "node_modules") || strings.HasPrefix(p, "client/src") || strings.HasSuffix(p, ".ts") {
			t.Errorf("embedded but must not be: %s", p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// The licences of the bundled packages ship beside the bundle.
func TestClientLicencesNameTheBundledLibraries(t *testing.T) {
	text, err := fs.ReadFile(Client(), "THIRD_PARTY_LICENSES.txt")
	if err != nil {
		t.Fatal(err)
	}
	for _, pkg := range []string{"pixi.js", "pixi-viewport"} {
		if !strings.Contains(string(text), "\n"+pkg+" ") {
			t.Errorf("THIRD_PARTY_LICENSES.txt does not name %s", pkg)
		}
	}
}

// The GM map bundle and the console's page are the host console's: the
// player client's files do not include them, though they are embedded.
func TestHostFilesOnlyThroughTheHostConsole(t *testing.T) {
	for _, name := range []string{"gm/gm.js", "gm", "gm/gm.css", "host", "host/index.html", "host/console.js", "host/console.css"} {
		if _, err := fs.Stat(Client(), name); err == nil {
			t.Errorf("Client() serves %s", name)
		}
	}
	for _, name := range []string{HostGMDir + "/gm.js", HostConsoleDir + "/console.js", HostConsoleDir + "/index.html", HostConsoleDir + "/console.css"} {
		if info, err := fs.Stat(FS, name); err != nil || info.Size() == 0 {
			t.Fatalf("embedded %s: %v", name, err)
		}
	}
	// The page loads the built bundle, not the sources it was built from.
	page, err := fs.ReadFile(FS, HostConsoleDir+"/index.html")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(page), `src="/host/console.js"`) || strings.Contains(string(page), ".ts\"") {
		t.Fatalf("host index.html does not load the bundle:\n%s", page)
	}
}
