package content

import (
	"strings"
	"testing"
	"testing/fstest"

	"github.com/vttapp/companion/core"
)

// File references in archive content end up in src and href attributes of
// the web client and the reference pages: only paths inside the archive,
// http(s) URLs and data:image URLs are kept.
func TestContentReferencesRefuseScriptURLs(t *testing.T) {
	r := contentReader{prefix: "/modules/m1"}
	for _, ref := range []string{
		"javascript://%0aalert(1)",
		"JavaScript://x%0Aalert(1)",
		"vbscript://x",
		"data:text/html;base64,PHNjcmlwdD4=",
		"data:image/svg+xml,<svg onload=alert(1)>",
		"file:///etc/passwd",
		"//evil.example/x.png",
		`\\evil.example\share\x.png`,
		"../../companion.db",
	} {
		if got, err := r.resolve(ref, "monsters"); err == nil {
			t.Errorf("%q kept as %q", ref, got)
		} else if core.KindOf(err) != core.KindInvalid {
			t.Errorf("%q: %v", ref, err)
		}
	}
	for ref, want := range map[string]string{
		"goblin.png":                  "/modules/m1/monsters/goblin.png",
		"art/goblin.png":              "/modules/m1/art/goblin.png",
		"https://example.org/g.png":   "https://example.org/g.png",
		"HTTP://192.168.1.2/g.png":    "HTTP://192.168.1.2/g.png",
		"data:image/png;base64,iVBOR": "data:image/png;base64,iVBOR",
		"/systems/dnd5e/icons/x.svg":  "/systems/dnd5e/icons/x.svg",
	} {
		if got, err := r.resolve(ref, "monsters"); err != nil || got != want {
			t.Errorf("%q: %q %v, want %q", ref, got, err, want)
		}
	}
}

// One JSON file of an archive is read whole: a huge one is refused before
// it is read, not parsed into gigabytes of memory.
func TestContentJSONFilesAreCapped(t *testing.T) {
	defer func(old int64) { maxJSONFileBytes = old }(maxJSONFileBytes)
	maxJSONFileBytes = 1000
	big := `[` + strings.Repeat(`{"name":"Goblin"},`, 100) + `{"name":"Last"}]`
	fsys := fstest.MapFS{"monsters.json": {Data: []byte(big)}, "module.json": {Data: []byte(`{"name":"` + strings.Repeat("x", 2000) + `"}`)}}
	if _, err := readArray(fsys, "monsters.json"); err == nil || core.KindOf(err) != core.KindTooLarge {
		t.Errorf("array: %v", err)
	}
	if _, err := readObject(fsys, "module.json"); err == nil || core.KindOf(err) != core.KindTooLarge {
		t.Errorf("object: %v", err)
	}
}

// An update keeps the id of the module it updates, a manifest's install
// takes the manifest's id, and anything else keeps its own.
func TestModuleIDOfAnInstall(t *testing.T) {
	for _, c := range []struct {
		opt  InstallOptions
		want string
	}{
		{InstallOptions{}, "own"},
		{InstallOptions{PackageID: "pkg"}, "pkg"},
		{InstallOptions{Replace: "old", PackageID: "pkg"}, "old"},
	} {
		if got := c.opt.ModuleID("own"); got != c.want {
			t.Errorf("%+v: %q, want %q", c.opt, got, c.want)
		}
	}
}
