package imports

import (
	"archive/zip"
	"bytes"
	"context"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/imports/legacyxml"
	"github.com/vttapp/companion/internal/shareddata"
)

// pngText is a real PNG of the given size, as a zip entry's body.
func pngText(t *testing.T, w, h int) string { return string(pngOf(t, w, h)) }

// fenModule is the fixture module.xml with the files it names.
func fenModule(t *testing.T) []byte {
	return makeZip(t, zipEntry{name: "module.xml", body: fixture(t, "module.xml")}, zipEntry{name: "cover.png", body: pngText(t, 4, 4)},
		zipEntry{name: "heading.png", body: pngText(t, 8, 2)}, zipEntry{name: "ford.png", body: pngText(t, 700, 490)},
		zipEntry{name: "ford-canvas.svg", body: fixture(t, "canvas.svg")}, zipEntry{name: "lantern.png", body: pngText(t, 2, 2)})
}

func TestInstallLegacyModule(t *testing.T) {
	env := newCompendiumEnv(t)
	res, err := installZip(t, env, "fen.module", fenModule(t), InstallOptions{})
	if err != nil {
		t.Fatal(err)
	}
	id := "7D3A3F52-11A1-4F0C-A5B1-000000000001"
	if res.Kind != KindModule || res.ID != id || res.Name != "Fen Crossing" || res.Library == nil {
		t.Fatalf("result %+v", res)
	}
	lib := res.Library
	if lib.Pages != 3 || lib.Maps != 1 || lib.Encounters != 1 || lib.Groups != 1 || lib.Entities != 1 {
		t.Errorf("report %+v", lib)
	}
	if len(lib.Notes) != 1 || !strings.Contains(lib.Notes[0], "<playlist>") {
		t.Errorf("notes %v", lib.Notes)
	}
	m := moduleOf(t, env, id)
	if m.Acronym != "FEN" || m.Image != "cover.png" || m.Category != "adventure" || m.Slug != "fen-crossing" || m.Author != "Companion tests" {
		t.Errorf("module %+v", m)
	}
	prefix := "/modules/" + id
	env.view(t, func(tx core.Tx) error {
		intro, err := tx.Page("P-1")
		if err != nil {
			return err
		}
		if intro.Content != `<h1 id="fen-crossing">Fen Crossing</h1>`+"\n"+`<p><img src="`+prefix+`/heading.png"></p>` || intro.Owner != id {
			t.Errorf("intro %q", intro.Content)
		}
		if side, _ := tx.Page("P-3"); side == nil || side.ParentID != "P-1" || side.Slug != "sidebar" {
			t.Errorf("sub-page %+v", side)
		}
		if ferry, _ := tx.Page("P-2"); ferry == nil || ferry.ParentID != "G-1" {
			t.Errorf("ferry %+v", ferry)
		}
		mp, err := tx.Map("M-1")
		if err != nil {
			return err
		}
		if mp.Image != prefix+"/ford.png" || mp.Width != 700 || mp.Height != 490 || mp.GridSize != 70 || mp.GridOffsetX != 5 || mp.GridOffsetY != -4 ||
			mp.Scale != 1.5 || !mp.FogOfWar || mp.LosDaylight != 0.25 || mp.ParentID != "G-1" || mp.Rank != 2 || mp.Canvas != "" {
			t.Errorf("map %+v", mp)
		}
		// Two walls written in the XML, four from the canvas's wall paths.
		if len(mp.Walls) != 6 || mp.Walls[1].Type != "door" || mp.Walls[1].Door != "locked" || mp.Walls[0].Type != "normal" {
			t.Errorf("walls %+v", mp.Walls)
		}
		if len(mp.Markers) != 1 || mp.Markers[0]["reference"] != "/page/the-ferry" || mp.Markers[0]["hidden"] != true {
			t.Errorf("markers %+v", mp.Markers)
		}
		tile := mp.Tiles[0]
		asset, _ := tile["asset"].(map[string]any)
		light, _ := tile["light"].(map[string]any)
		if asset["resource"] != prefix+"/lantern.png" || tile["zIndex"] != 3.0 || light["radiusMax"] != 20.0 || light["x"] != 10.0 {
			t.Errorf("tile %+v", tile)
		}
		if len(mp.Lights) != 1 || mp.Lights[0].X != 300 || !mp.Lights[0].Enabled {
			t.Errorf("lights %+v", mp.Lights)
		}
		// One drawing in the XML (dm layer), one path of the canvas.
		if len(mp.Drawings) != 2 || mp.Drawings[0]["layer"] != "dm" {
			t.Errorf("drawings %+v", mp.Drawings)
		}
		tok := mp.Tokens[0]
		if tok.ID != "K-1" || !tok.Hidden || tok.Reference != "/monster/reed-stalker" || tok.Vision == nil || tok.Vision.DarkRadiusMax != 60 || tok.Width != 1 {
			t.Errorf("token %+v", tok)
		}
		enc, err := tx.Encounter("E-1")
		if err != nil {
			return err
		}
		if enc.MapID != "M-1" || len(enc.Combatants) != 2 || enc.Combatants[1].Name != "Big One" || *enc.Combatants[0].X != 450 ||
			enc.Combatants[0].Reference != "/monster/reed-stalker" || enc.ParentID != "G-1" {
			t.Errorf("encounter %+v", enc)
		}
		toads, _ := tx.Entities(core.EntityQuery{Owner: id})
		if len(toads) != 1 || toads[0].Name != "Ford Toad" {
			t.Errorf("entities %+v", toads)
		}
		return nil
	})
	// The folder keeps the media, not the XML nor the canvas (the game
	// master's drawings and the pages' text are in the database now).
	dir := filepath.Join(env.dataDir, "modules", id)
	mustExist(t, filepath.Join(dir, "ford.png"))
	for _, gone := range []string{"module.xml", "ford-canvas.svg"} {
		if _, err := os.Stat(filepath.Join(dir, gone)); err == nil {
			t.Errorf("%s kept", gone)
		}
	}
	// Again: the module's id is taken.
	_, err = installZip(t, env, "fen.module", fenModule(t), InstallOptions{})
	wantKind(t, err, core.KindConflict, "already installed")
}

// A legacy archive is installed whole or not at all.
func TestInstallLegacyModuleRefusesWhole(t *testing.T) {
	cases := []struct {
		name  string
		files []zipEntry
		kind  core.ErrorKind
		want  string
	}{
		{"broken", []zipEntry{{name: "module.xml", body: "<module><name>x</name><page>"}}, core.KindInvalid, "module.xml line 1"},
		{"dtd", []zipEntry{{name: "module.xml", body: `<!DOCTYPE m [<!ENTITY x "y">]><module/>`}}, core.KindInvalid, "DTD"},
		{"canvas", []zipEntry{{name: "module.xml", body: `<module><name>x</name><map><name>m</name><canvas>c.svg</canvas></map></module>`},
			{name: "c.svg", body: "<svg><path class='wall' d='M 1'/></svg>"}}, core.KindInvalid, "c.svg"},
		{"canvas wall", []zipEntry{{name: "module.xml", body: `<module><name>x</name><map><name>m</name><canvas>c.svg</canvas></map></module>`},
			{name: "c.svg", body: "<svg><path class='object' d='M 1'/><path class='wall' d='M 1 2 L 3'/></svg>"}}, core.KindInvalid, "the wall's path"},
		{"dup", []zipEntry{{name: "module.xml", body: `<module><name>x</name><page id="P"><name>a</name></page><page id="P"><name>b</name></page></module>`}}, core.KindInvalid, "page id 'P' is used by 'a' and 'b'"},
		{"json", []zipEntry{{name: "module.xml", body: `<module><name>x</name></module>`}, {name: "maps.json", body: "[]"}}, core.KindInvalid, "a legacy archive holds"},
		{"hook", []zipEntry{{name: "module.xml", body: `<module><name>x</name><page><name>p</name></page><monster><name>Boom</name></monster></module>`}}, core.KindInvalid, "attempt to index"},
		{"escape", []zipEntry{{name: "module.xml", body: `<module><name>x</name></module>`}, {name: "../evil.png", body: "x"}}, core.KindInvalid, "outside"},
	}
	for _, c := range cases {
		env := newCompendiumEnv(t)
		_, err := installZip(t, env, c.name+".module", makeZip(t, c.files...), InstallOptions{})
		if err == nil || core.KindOf(err) != c.kind || !strings.Contains(core.MessageOf(err), c.want) {
			t.Errorf("%s: %v", c.name, err)
		}
		if m, cs, e, mp := env.counts(t); m+cs+e+mp != 0 {
			t.Errorf("%s: rows left", c.name)
		}
		if files := env.dataFiles(t); len(files) != 0 {
			t.Errorf("%s: files left %v", c.name, files)
		}
	}
}

func TestInstallLegacyCampaignAndPack(t *testing.T) {
	env := newCompendiumEnv(t)
	res, err := installZip(t, env, "fen.campaign", makeZip(t, zipEntry{name: "campaign.xml", body: fixture(t, "campaign.xml")}), InstallOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Kind != KindCampaign || res.ID != "C-1" || res.Library.Pages != 1 {
		t.Fatalf("campaign %+v", res)
	}
	env.view(t, func(tx core.Tx) error {
		c, err := tx.Campaign("C-1")
		if err != nil {
			return err
		}
		if !c.Primary || strings.Join(c.References, " ") != "/module/fen-crossing /player/wren-tallow" {
			t.Errorf("campaign %+v", c)
		}
		p, err := tx.Page("CP-1")
		if err != nil || p.Owner != "C-1" {
			t.Errorf("page %+v %v", p, err)
		}
		return nil
	})

	// A pack: a module of assets, in their groups; an asset whose image
	// the archive lacks is left out and said.
	res, err = installZip(t, env, "props.pack", makeZip(t, zipEntry{name: "pack.xml", body: fixture(t, "pack.xml")},
		zipEntry{name: "punt.png", body: pngText(t, 2, 4)}, zipEntry{name: "raft.png", body: pngText(t, 2, 2)}), InstallOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Kind != KindModule || res.ID != "K-1" || res.Library.Assets != 2 || res.Library.Groups != 1 || len(res.Library.Notes) != 1 ||
		!strings.Contains(res.Library.Notes[0], "ripples.png") {
		t.Fatalf("pack %+v %+v", res, res.Library)
	}
	if m := moduleOf(t, env, "K-1"); m.Category != "pack" || m.Image != "" {
		t.Errorf("pack module %+v", m)
	}
	env.view(t, func(tx core.Tx) error {
		assets, _ := tx.Assets("K-1")
		byName := map[string]*core.Asset{}
		for _, a := range assets {
			byName[a.Name] = a
		}
		punt, raft := byName["Punt"], byName["Raft"]
		if len(assets) != 2 || punt == nil || raft == nil || punt.Parameters["size"] != "1x2" || punt.ParentID != "PG-1" ||
			punt.Resource != "/modules/K-1/punt.png" || raft.ParentID != "PG-1" || raft.Rank > punt.Rank {
			for _, a := range assets {
				t.Errorf("asset %+v", *a)
			}
		}
		return nil
	})
	// A bare pack.xml names files it does not bring: nothing to install.
	_, err = env.in.InstallFile(context.Background(), writeTemp(t, "pack.xml", []byte(fixture(t, "pack.xml"))), "pack.xml", InstallOptions{})
	wantKind(t, err, core.KindInvalid, "names no asset whose file the archive holds")
	// A bare module.xml installs without its images.
	res, err = env.in.InstallFile(context.Background(), writeTemp(t, "Fen.xml", []byte(fixture(t, "module.xml"))), "Fen.xml", InstallOptions{})
	if err != nil || res.Library.Pages != 3 || !strings.Contains(strings.Join(res.Library.Notes, " "), "file references name files the archive does not hold") {
		t.Fatalf("bare module: %+v %v", res, err)
	}
}

// The documentation's legacy examples (../shared/data/legacy) install.
func TestInstallSharedLegacySamples(t *testing.T) {
	env := newCompendiumEnv(t)
	for file, check := range map[string]func(Result){
		"legacy/docs-example.module": func(res Result) {
			if res.ID != "AA9B0CA6-E75D-4781-8CA8-CA1DE5B88AB0" || res.Library.Pages != 1 || res.Library.Maps != 1 || res.Library.Encounters != 1 || res.Library.Groups != 1 {
				t.Errorf("module %+v %+v", res, res.Library)
			}
			env.view(t, func(tx core.Tx) error {
				mp, err := tx.Map("038C45F6-5DD4-480C-B2D0-C7675746EA48")
				if err != nil {
					return err
				}
				if mp.Width != 1202 || mp.Height != 1308 || mp.GridSize != 50 || len(mp.Tiles) != 4 || len(mp.Markers) != 1 || len(mp.Walls) != 2 || !mp.LineOfSight {
					t.Errorf("map %dx%d grid %d, %d tiles, %d markers, %d walls", mp.Width, mp.Height, mp.GridSize, len(mp.Tiles), len(mp.Markers), len(mp.Walls))
				}
				enc, err := tx.Encounter("45923627-08CB-40FD-A7B2-76DDC2FF1C41")
				if err != nil || len(enc.Combatants) != 5 || enc.MapID != mp.ID {
					t.Errorf("encounter %+v %v", enc, err)
				}
				return nil
			})
		},
		"legacy/docs-example.campaign": func(res Result) {
			if res.Kind != KindCampaign || res.Library.Pages != 1 {
				t.Errorf("campaign %+v", res)
			}
		},
		"legacy/docs-example.pack": func(res Result) {
			if res.Kind != KindModule || res.Library.Assets != 3 || res.Library.Groups != 1 {
				t.Errorf("pack %+v %+v", res, res.Library)
			}
		},
	} {
		path := shareddata.Path(t, file)
		zr, err := zip.OpenReader(path)
		if err != nil {
			t.Fatal(err)
		}
		zr.Close()
		res, err := env.in.InstallFile(context.Background(), path, filepath.Base(path), InstallOptions{})
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		check(res)
	}
}

// libraryRows counts every page, encounter, group and asset stored.
func (e *testEnv) libraryRows(t *testing.T) int {
	t.Helper()
	n := 0
	e.view(t, func(tx core.Tx) error {
		pages, _ := tx.Pages(core.PageQuery{})
		encs, _ := tx.Encounters("")
		groups, _ := tx.Groups("")
		assets, _ := tx.Assets("")
		n = len(pages) + len(encs) + len(groups) + len(assets)
		return nil
	})
	return n
}

// Hostile legacy archives: a zip bomb, a name that escapes, an archive or
// a document past the limits, a document nested too deep. Each is refused
// with its reason and writes nothing, no row and no file.
func TestInstallLegacyModuleHostile(t *testing.T) {
	doc := `<module><name>x</name><page><name>p</name><content>hello</content></page></module>`
	deep := "<module><name>x</name>" + strings.Repeat("<page><name>p</name>", 80) + strings.Repeat("</page>", 80) + "</module>"
	cases := []struct {
		name   string
		data   []byte
		limits Limits
		kind   core.ErrorKind
		want   string
	}{
		{"bomb.module", makeZip(t, zipEntry{name: "module.xml", body: doc}, zipEntry{name: "zeros.png", body: strings.Repeat("\x00", 4<<20)}), Limits{}, core.KindTooLarge, "zip bomb"},
		{"escape.campaign", makeZip(t, zipEntry{name: "campaign.xml", body: `<campaign><name>c</name></campaign>`}, zipEntry{name: "a/../../x.png", body: "x"}), Limits{}, core.KindInvalid, "outside"},
		{"big.module", makeZip(t, zipEntry{name: "module.xml", body: doc + strings.Repeat(" ", 300)}), Limits{MaxTotalBytes: 200}, core.KindTooLarge, "more than 200 bytes"},
		{"huge.module", makeZip(t, zipEntry{name: "module.xml", body: strings.Replace(doc, "hello", strings.Repeat("a", 5000), 1)}), Limits{XML: legacyxml.Limits{MaxText: 1000}}, core.KindTooLarge, "module.xml"},
		{"many.pack", makeZip(t, zipEntry{name: "pack.xml", body: "<pack><name>p</name>" + strings.Repeat("<asset><name>a</name></asset>", 50) + "</pack>"}), Limits{XML: legacyxml.Limits{MaxElements: 40}}, core.KindTooLarge, "pack.xml"},
		{"deep.module", makeZip(t, zipEntry{name: "module.xml", body: deep}), Limits{}, core.KindTooLarge, "deep"},
		{"entity.module", makeZip(t, zipEntry{name: "module.xml", body: `<?xml version="1.0"?><!DOCTYPE m [<!ENTITY x SYSTEM "file:///etc/passwd">]><module><name>&x;</name></module>`}), Limits{}, core.KindInvalid, "DTD"},
	}
	for _, c := range cases {
		env := newCompendiumEnv(t)
		env.in.SetLimits(c.limits)
		_, err := installZip(t, env, c.name, c.data, InstallOptions{})
		if err == nil || core.KindOf(err) != c.kind || !strings.Contains(core.MessageOf(err), c.want) {
			t.Errorf("%s: got %v (%v), want %v containing %q", c.name, err, core.KindOf(err), c.kind, c.want)
		}
		if m, cs, e, mp := env.counts(t); m+cs+e+mp+env.libraryRows(t) != 0 {
			t.Errorf("%s: rows left", c.name)
		}
		if files := env.dataFiles(t); len(files) != 0 {
			t.Errorf("%s: files left %v", c.name, files)
		}
	}
}

// Every path an archive takes installs a legacy archive: an offer by URL,
// a vttapp:// link, a package manifest, and the file hand-off (the host
// console's upload and `companion import` are InstallFile, above; the
// tests package drives them through the server).
func TestLegacyArchivesThroughEveryOfferPath(t *testing.T) {
	env := newTestEnv(t)
	srv := newContentServer(t, true)
	srv.put("/fen.module", fenModule(t))
	srv.put("/fen.campaign", makeZip(t, zipEntry{name: "campaign.xml", body: fixture(t, "campaign.xml")}))
	props := makeZip(t, zipEntry{name: "pack.xml", body: fixture(t, "pack.xml")}, zipEntry{name: "punt.png", body: pngText(t, 2, 4)}, zipEntry{name: "raft.png", body: pngText(t, 2, 2)})
	srv.put("/props.pack", props)
	srv.put("/props.json", manifestJSON(t, map[string]any{"id": "fen-props", "name": "Fen Props", "download": srv.URL + "/props.pack"}))
	m := NewManager(Config{Service: env.svc, DataDir: env.dataDir, Collections: compendiumCollections{}, Client: srv.Client(), AppVersion: "1.4.0"})
	t.Cleanup(m.Close)
	accept := func(o Offer, err error) Offer {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		if o.Manifest != "" {
			o = checked(t, m, o.ID)
		}
		if _, err := m.Accept(o.ID, ""); err != nil {
			t.Fatal(err)
		}
		done := settle(t, m, o.ID)
		if done.Status != StatusInstalled || done.Result == nil || done.Result.Library == nil {
			t.Fatalf("offer %s: %+v", o.ID, done)
		}
		return done
	}
	// By URL.
	if o := accept(m.Offer(Source{URL: srv.URL + "/fen.module"}, "api")); o.Result.Library.Pages != 3 || o.Result.Library.Maps != 1 {
		t.Errorf("url: %+v", o.Result.Library)
	}
	// By link.
	src, err := ParseLink("vttapp://import?url=" + url.QueryEscape(srv.URL+"/fen.campaign"))
	if err != nil {
		t.Fatal(err)
	}
	if o := accept(m.Offer(src, "link")); o.Result.Kind != KindCampaign || o.Result.Library.Pages != 1 {
		t.Errorf("link: %+v", o.Result)
	}
	// By a manifest naming a pack (a module of assets, installed under the
	// package's id).
	if o := accept(m.Offer(Source{Manifest: srv.URL + "/props.json"}, "link")); o.Result.ID != "fen-props" || o.Result.Library.Assets != 2 {
		t.Errorf("manifest: %+v", o.Result)
	}
	// The file hand-off, under another name (the bytes decide): a pack
	// like the other, with ids of its own.
	other := strings.NewReplacer(`"K-1"`, `"K-2"`, "PG-1", "PG-2", "PA-", "PB-").Replace(fixture(t, "pack.xml"))
	handed := makeZip(t, zipEntry{name: "pack.xml", body: other}, zipEntry{name: "punt.png", body: pngText(t, 2, 4)}, zipEntry{name: "raft.png", body: pngText(t, 2, 2)})
	if o := accept(m.OfferFile(bytes.NewReader(handed), "Fen Props (1).zip")); o.Result.ID != "K-2" || o.Result.Library.Assets != 2 {
		t.Errorf("file: %+v", o.Result)
	}
	env.view(t, func(tx core.Tx) error {
		if _, err := tx.Page("CP-1"); err != nil {
			t.Errorf("campaign page: %v", err)
		}
		if assets, _ := tx.Assets("fen-props"); len(assets) != 2 || !strings.HasPrefix(assets[0].Resource, "/modules/fen-props/") {
			t.Errorf("pack assets %d", len(assets))
		}
		if enc, err := tx.Encounter("E-1"); err != nil || enc.MapID != "M-1" {
			t.Errorf("encounter %+v %v", enc, err)
		}
		return nil
	})
}

// A canvas drawing that cannot be read is left out and said; the rest of
// the map comes.
func TestInstallLegacyCanvasDrawingNoted(t *testing.T) {
	env := newCompendiumEnv(t)
	res, err := installZip(t, env, "c.module", makeZip(t,
		zipEntry{name: "module.xml", body: `<module id="CM"><name>x</name><map id="CM-1"><name>Marsh</name><canvas>c.svg</canvas></map></module>`},
		zipEntry{name: "c.svg", body: "<svg><path class='object' d='M 1'/><path class='dm' d='M0 0 L4 4'/><path class='wall' d='M0 0 L9 9'/></svg>"}), InstallOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if notes := strings.Join(res.Library.Notes, "\n"); !strings.Contains(notes, "map 'Marsh': 1 drawing of its canvas could not be read and was left out") {
		t.Errorf("notes %q", notes)
	}
	env.view(t, func(tx core.Tx) error {
		m, err := tx.Map("CM-1")
		if err == nil && (len(m.Walls) != 1 || len(m.Drawings) != 1 || m.Drawings[0]["layer"] != "dm") {
			t.Errorf("map walls %+v drawings %+v", m.Walls, m.Drawings)
		}
		return err
	})
}

// An update of a legacy module (a package's newer version) replaces its
// library whole under the same id: a page the new version lacks is gone,
// and the ids it keeps are not taken for another's.
func TestUpdateLegacyModule(t *testing.T) {
	env := newCompendiumEnv(t)
	first, err := installZip(t, env, "fen.module", fenModule(t), InstallOptions{})
	if err != nil {
		t.Fatal(err)
	}
	newer := strings.Replace(fixture(t, "module.xml"), `<page id="P-3">
      <name>Sidebar</name>
      <content>&lt;p&gt;Aside.&lt;/p&gt;</content>
    </page>`, "", 1)
	if newer == fixture(t, "module.xml") {
		t.Fatal("the fixture's sub-page is not where the test expects it")
	}
	res, err := installZip(t, env, "fen.module", makeZip(t, zipEntry{name: "module.xml", body: newer}), InstallOptions{Replace: first.ID, Expect: KindModule})
	if err != nil {
		t.Fatal(err)
	}
	if res.ID != first.ID || res.Library.Pages != 2 {
		t.Fatalf("update %+v %+v", res, res.Library)
	}
	env.view(t, func(tx core.Tx) error {
		if _, err := tx.Page("P-3"); !core.IsNotFound(err) {
			t.Errorf("the dropped sub-page: %v", err)
		}
		if p, err := tx.Page("P-1"); err != nil || p.Owner != first.ID {
			t.Errorf("the kept page: %+v %v", p, err)
		}
		return nil
	})
}
