package imports

import (
	"context"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/vttapp/companion/core"
)

// The example archive of docs/content-format.md installs as documented:
// its JSON blocks are read from the document itself.
func TestDocumentedExampleArchiveInstalls(t *testing.T) {
	doc, err := os.ReadFile("../docs/content-format.md")
	if err != nil {
		t.Fatal(err)
	}
	block := regexp.MustCompile("(?s)\n`([a-z]+\\.json)`[^\n]*:\n\n```json\n(.*?)```")
	files := map[string]string{}
	for _, m := range block.FindAllStringSubmatch(string(doc), -1) {
		if _, seen := files[m[1]]; !seen {
			files[m[1]] = m[2]
		}
	}
	names := []string{"module.json", "monsters.json", "spells.json", "maps.json", "pages.json", "encounters.json", "groups.json"}
	for _, name := range names {
		if files[name] == "" {
			t.Fatalf("%s not found in the document", name)
		}
	}
	var entries []zipEntry
	for _, name := range names {
		entries = append(entries, zipEntry{name: name, body: files[name]})
	}
	for _, name := range []string{"monsters/cave-bat.png", "art/cover.png", "maps/bat-cave.jpg"} {
		entries = append(entries, zipEntry{name: name, body: "image"})
	}
	env := newTestEnv(t)
	res, err := env.in.InstallFile(context.Background(), writeTemp(t, "marsh-bats.module", makeZip(t, entries...)), "marsh-bats.module", InstallOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Kind != KindModule || res.Name != "Marsh Bats" {
		t.Errorf("result %+v", res)
	}
	env.view(t, func(tx core.Tx) error {
		bat, err := tx.Entity("0F6A2C4E-1B7D-4E2A-9C3B-7D5E8F9A0B1C")
		if err != nil {
			return err
		}
		if bat.Image != "/modules/"+res.ID+"/monsters/cave-bat.png" {
			t.Errorf("image %q", bat.Image)
		}
		mp, err := tx.Map("5A1B2C3D-0000-4000-8000-000000000001")
		if err != nil {
			return err
		}
		if mp.Image != "/modules/"+res.ID+"/maps/bat-cave.jpg" || len(mp.Tokens) != 1 || len(mp.Walls) != 1 || len(mp.Lights) != 1 || mp.ParentID != "G-CH1" {
			t.Errorf("map %+v", mp)
		}
		arrival, err := tx.Page("P-ARRIVAL")
		if err != nil {
			return err
		}
		if !strings.Contains(arrival.Content, `<img src="/modules/`+res.ID+`/art/cover.png" alt="The cave mouth">`) || arrival.ParentID != "G-CH1" {
			t.Errorf("page %+v", arrival)
		}
		roost, err := tx.Page("P-ROOST")
		if err != nil || roost.Format != "markdown" || roost.Slug != "the-roost" {
			t.Errorf("markdown page %+v %v", roost, err)
		}
		enc, err := tx.Encounter("E-BATS")
		if err != nil || len(enc.Combatants) != 1 || enc.Combatants[0].Count != 6 || *enc.Combatants[0].X != 700 {
			t.Errorf("encounter %+v %v", enc, err)
		}
		groups, _ := tx.Groups(res.ID)
		if len(groups) != 1 || groups[0].Name != "Chapter 1: The Flooded Cave" {
			t.Errorf("groups %+v", groups)
		}
		return nil
	})
	// The tree a library reader sees, and the page as the host reads it.
	lib, err := env.svc.Library(context.Background(), res.ID)
	if err != nil || len(lib.Items) != 1 || len(lib.Items[0].Children) != 4 {
		t.Fatalf("library %+v %v", lib, err)
	}
	view, err := env.svc.PageView(context.Background(), "P-ARRIVAL")
	if err != nil || len(view.Sections) != 2 || view.Sections[0].ID != "read-aloud" || len(view.Maps) != 1 || !strings.Contains(view.HTML, `href="/module/marsh-bats/page/the-roost"`) {
		t.Errorf("page view %+v %v", view, err)
	}
	mustExist(t, env.dataDir+"/modules/"+res.ID+"/monsters/cave-bat.png")
}

// The documented manifest example passes the schema.
func TestDocumentedManifestIsValid(t *testing.T) {
	doc, err := os.ReadFile("../docs/content-format.md")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile("(?s)```json\n(\\{\n  \"id\": \"marsh-bats\".*?)```").FindSubmatch(doc)
	if m == nil {
		t.Fatal("manifest example not found")
	}
	p, err := ParsePackage(m[1])
	if err != nil {
		t.Fatal(err)
	}
	if p.Version != "1.1.0" || !p.Compatible("1.0.0") || p.Compatible("0.9.0") {
		t.Errorf("package %+v", p)
	}
}
