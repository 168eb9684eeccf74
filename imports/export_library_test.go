package imports

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/imports/content"
)

// libraryOf reads a module's pages, encounters, groups and assets as JSON
// (revisions aside), one string per kind, to compare two data folders.
func libraryOf(t *testing.T, env *testEnv, owner string) map[string]string {
	t.Helper()
	out := map[string]string{}
	env.view(t, func(tx core.Tx) error {
		pages, err := tx.Pages(core.PageQuery{Owner: owner, Content: true})
		if err != nil {
			return err
		}
		for _, p := range pages {
			p.Revision = 0
		}
		encs, err := tx.Encounters(owner)
		if err != nil {
			return err
		}
		for _, e := range encs {
			e.Revision = 0
		}
		groups, err := tx.Groups(owner)
		if err != nil {
			return err
		}
		for _, g := range groups {
			g.Revision = 0
		}
		assets, err := tx.Assets(owner)
		if err != nil {
			return err
		}
		for _, a := range assets {
			a.Revision = 0
		}
		tables, err := tx.Tables(owner)
		if err != nil {
			return err
		}
		for _, tb := range tables {
			tb.Revision = 0
		}
		for what, v := range map[string]any{"pages": pages, "encounters": encs, "groups": groups, "assets": assets, "tables": tables} {
			data, _ := json.MarshalIndent(v, "", " ")
			out[what] = string(data)
		}
		return nil
	})
	return out
}

// A module that carries an adventure exports its pages, encounters,
// groups and assets, and imports back into a fresh data folder with the
// same ones: the acceptance trial found an exported legacy module coming
// back as its maps alone.
func TestExportCarriesTheLibrary(t *testing.T) {
	src := newTestEnv(t)
	res, err := installModuleZip(t, src,
		zipEntry{name: "pages.json", body: `[{"id": "P1", "name": "Intro", "parentId": "G1", "content": "<p>See <a href=\"notes/map.pdf\">the map</a> and <a href=\"/monster/bat\">a bat</a></p><img src=\"art/a.png\">"},
			{"id": "P2", "name": "Md", "format": "markdown", "content": "![a](art/a.png) [g](monster) [f](notes/map.pdf)"}]`},
		zipEntry{name: "groups.json", body: `[{"id": "G1", "name": "Ch 1"}, {"id": "G2", "name": "Ch 2", "parentId": "G1"}]`},
		zipEntry{name: "encounters.json", body: `[{"id": "E1", "name": "Bats", "parentId": "G2", "combatants": [{"reference": "/monster/bat", "count": 3}, {"name": "Boss", "role": "neutral", "x": 10, "y": 20}]}]`},
		zipEntry{name: "assets.json", body: `[{"id": "A1", "name": "Tent", "resource": "art/a.png", "tags": ["camp"]}]`},
		// The original's Table: rows as a string, fields this server keeps no use for.
		zipEntry{name: "tables.json", body: `[{"id": "T1", "name": "Loot", "slug": "loot", "type": null, "moduleId": null, "campaignId": null, "parentId": null, "sources": [], "tags": ["treasure"],
			"columns": [{"name": "d6"}, {"name": "Find"}], "rows": "[[\"1-3\",\"coins\"],[\"4-6\",\"a gem\"]]", "rollMode": "noRepeat", "rolls": "[]"}]`},
		zipEntry{name: "art/a.png", body: "png"}, zipEntry{name: "notes/map.pdf", body: "%PDF"})
	if err != nil {
		t.Fatal(err)
	}
	want := libraryOf(t, src, res.ID)
	if !strings.Contains(want["tables"], `"a gem"`) || !strings.Contains(want["tables"], `"noRepeat"`) {
		t.Fatalf("the original's table did not import: %s", want["tables"])
	}
	for what, v := range want {
		if v == "null" || v == "[]" {
			t.Fatalf("the source module has no %s", what)
		}
	}

	_, archive := exportZip(t, src, KindModule, res.ID)
	files := zipJSON(t, archive)
	for _, name := range []string{content.PagesFile, content.EncountersFile, content.GroupsFile, content.AssetsFile, content.TablesFile} {
		if _, ok := files[name]; !ok {
			t.Errorf("the module's archive has no %s: %v", name, keys(files))
		}
	}
	// The module's own files are paths inside the archive again, so that it
	// stands on its own; links elsewhere stay as they are.
	if p := files[content.PagesFile]; strings.Contains(p, "/modules/") || !strings.Contains(p, `src=\"art/a.png\"`) ||
		!strings.Contains(p, `href=\"notes/map.pdf\"`) || !strings.Contains(p, `href=\"/monster/bat\"`) || !strings.Contains(p, "![a](art/a.png)") {
		t.Errorf("pages.json: %s", p)
	}
	if a := files[content.AssetsFile]; !strings.Contains(a, `"resource":"art/a.png"`) {
		t.Errorf("assets.json: %s", a)
	}

	dst := newTestEnv(t)
	if _, err := installZip(t, dst, "lib.module", archive, InstallOptions{}); err != nil {
		t.Fatalf("importing the export: %v", err)
	}
	got := libraryOf(t, dst, res.ID)
	for what := range want {
		if want[what] != got[what] {
			t.Errorf("%s differ after the round trip:\n%s", what, firstDifference(want[what], got[what]))
		}
	}
}
