package imports

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vttapp/companion/core"
)

func installModuleZip(t *testing.T, env *testEnv, entries ...zipEntry) (Result, error) {
	t.Helper()
	all := append([]zipEntry{{name: "module.json", body: `{"name": "Lib"}`}}, entries...)
	return env.in.InstallFile(context.Background(), writeTemp(t, "lib.module", makeZip(t, all...)), "lib.module", InstallOptions{})
}

func TestLibraryFilesInstallSanitisedAndResolved(t *testing.T) {
	env := newTestEnv(t)
	res, err := installModuleZip(t, env,
		zipEntry{name: "pages.json", body: `[{"id": "P1", "name": "Intro", "content": "<p onclick=\"x()\">Hi <a href=\"javascript:alert(1)\">x</a> <a href=\"notes/map.pdf\">map</a></p><img src=\"art/a.png\"><script>alert(1)</script>"},
			{"id": "P2", "name": "Md", "format": "markdown", "content": "![a](art/a.png) [g](monster) [p](/page/intro) [f](notes/map.pdf)"}]`},
		zipEntry{name: "groups.json", body: `[{"id": "G1", "name": "Ch 1"}, {"id": "G2", "name": "Ch 2", "parentId": "G1"}]`},
		zipEntry{name: "encounters.json", body: `[{"name": "Bats", "combatants": [{"reference": "/monster/bat", "count": 3}, {"name": "Boss", "role": "neutral", "x": -1, "y": -1}]}]`},
		zipEntry{name: "assets.json", body: `[{"name": "Tent", "resource": "art/a.png", "tags": ["camp"]}]`},
		zipEntry{name: "art/a.png", body: "png"}, zipEntry{name: "notes/map.pdf", body: "%PDF"})
	if err != nil {
		t.Fatal(err)
	}
	prefix := "/modules/" + res.ID
	env.view(t, func(tx core.Tx) error {
		p1, err := tx.Page("P1")
		if err != nil {
			return err
		}
		want := `<p>Hi <a>x</a> <a href="` + prefix + `/notes/map.pdf">map</a></p><img src="` + prefix + `/art/a.png">`
		if p1.Content != want {
			t.Errorf("page 1\n got %s\nwant %s", p1.Content, want)
		}
		p2, _ := tx.Page("P2")
		if p2.Content != "![a]("+prefix+"/art/a.png) [g](monster) [p](/page/intro) [f]("+prefix+"/notes/map.pdf)" {
			t.Errorf("page 2: %s", p2.Content)
		}
		encs, _ := tx.Encounters(res.ID)
		if len(encs) != 1 || encs[0].Combatants[0].Count != 3 || encs[0].Combatants[1].X != nil {
			t.Errorf("encounters %+v", encs)
		}
		assets, _ := tx.Assets(res.ID)
		if len(assets) != 1 || assets[0].Resource != prefix+"/art/a.png" || assets[0].Type != "image" {
			t.Errorf("assets %+v", assets)
		}
		groups, _ := tx.Groups(res.ID)
		if len(groups) != 2 {
			t.Errorf("groups %+v", groups)
		}
		return nil
	})
	// The data files are gone from the module's folder; the media stay.
	for _, name := range []string{"pages.json", "groups.json", "encounters.json", "assets.json"} {
		if _, err := os.Stat(filepath.Join(env.dataDir, "modules", res.ID, name)); err == nil {
			t.Errorf("%s kept in the module folder", name)
		}
	}
	mustExist(t, filepath.Join(env.dataDir, "modules", res.ID, "art", "a.png"))
}

// Bad library files are refused with the element and the reason, and
// nothing is installed.
func TestLibraryFilesRefusedWhole(t *testing.T) {
	cases := []struct{ file, body, want string }{
		{"pages.json", `[{"name": "A", "colour": "red"}]`, "pages.json item 1"},
		{"pages.json", `[{"content": "x"}]`, "pages.json item 1"},
		{"pages.json", `[{"name": "A", "format": "pdf"}]`, "pages.json item 1"},
		{"pages.json", `{"name": "A"}`, "must hold a JSON array"},
		{"pages.json", `[{"id": "X", "name": "A"}, {"id": "X", "name": "B"}]`, "id 'X' appears twice"},
		{"pages.json", `[{"name": "A", "content": "<img src=\"../../etc/passwd.png\">"}]`, "points outside the content folder"},
		{"encounters.json", `[{"name": "E", "combatants": [{"label": "x"}]}]`, "encounters.json item 1"},
		{"encounters.json", `[{"name": "E", "combatants": [{"reference": "goblin"}]}]`, "encounters.json item 1"},
		{"encounters.json", `[{"name": "E", "combatants": [{"name": "a", "count": 150}, {"name": "b", "count": 150}]}]`, "at most 200"},
		{"groups.json", `[{"id": "G", "name": "Self", "parentId": "G"}]`, "cannot contain itself"},
		{"assets.json", `[{"name": "T"}]`, "assets.json item 1"},
		{"assets.json", `[{"name": "T", "resource": "javascript:alert(1)"}]`, "is not allowed"},
	}
	for _, c := range cases {
		env := newTestEnv(t)
		_, err := installModuleZip(t, env, zipEntry{name: c.file, body: c.body})
		if err == nil || !strings.Contains(core.MessageOf(err), c.want) {
			t.Errorf("%s %s: %v, want %q", c.file, c.body, err, c.want)
			continue
		}
		if m, _, _, _ := env.counts(t); m != 0 {
			t.Errorf("%s: a module was installed", c.body)
		}
	}
}

// A page id of another module is a conflict, never a takeover.
func TestLibraryIDsOfOtherContentConflict(t *testing.T) {
	env := newTestEnv(t)
	pages := zipEntry{name: "pages.json", body: `[{"id": "SHARED", "name": "Mine"}]`}
	if _, err := installModuleZip(t, env, pages); err != nil {
		t.Fatal(err)
	}
	_, err := installModuleZip(t, env, pages)
	if core.KindOf(err) != core.KindConflict || !strings.Contains(core.MessageOf(err), "page id 'SHARED'") {
		t.Fatalf("second install: %v", err)
	}
	if m, _, _, _ := env.counts(t); m != 1 {
		t.Errorf("%d modules", m)
	}
}
