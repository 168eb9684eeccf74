package imports

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/imports/export"
)

const (
	rtModule   = "test-compendium"
	rtCampaign = sampleCampaign
	rtGoblin   = "0F6A2C4E-1B7D-4E2A-9C3B-7D5E8F9A0B1C"
	rtCaveMap  = "AAAA0000-0000-4000-8000-000000000001"
)

// richEnv is the sample module and campaign, then played: every kind of
// thing a map, a game and a log can hold, and files written by the
// console (a map background, a fog mask, a handout) and by a loose import.
func richEnv(t *testing.T) *testEnv {
	t.Helper()
	env := seededEnv(t)
	ctx := context.Background()
	// A loose collection filed into the module: its files land in imports/<id>/.
	loose := makeZip(t, zipEntry{name: "monsters.json", body: `[{"id": "EEEE0000-0000-4000-8000-000000000001", "name": "Marsh Hag", "image": "art/hag.png", "token": "art/hag-token.png"}]`},
		zipEntry{name: "art/hag.png", body: "hag art"}, zipEntry{name: "art/hag-token.png", body: "hag token"})
	if _, err := installZip(t, env, "more.zip", loose, InstallOptions{Destination: rtModule}); err != nil {
		t.Fatal(err)
	}
	// A picture map waiting for its grid, in the campaign.
	if _, err := env.in.InstallFile(ctx, writeTemp(t, "p", pngOf(t, 90, 60)), "Reed Maze.png", InstallOptions{}); err != nil {
		t.Fatal(err)
	}
	campaignDir := filepath.Join(env.dataDir, "campaigns", rtCampaign)
	for name, body := range map[string]string{"fog/" + rtCaveMap + "-3.png": "fog mask", "handouts/letter.png": "a letter",
		"maps/background.jpg": "a background"} {
		os.MkdirAll(filepath.Dir(filepath.Join(campaignDir, name)), 0o755)
		if err := os.WriteFile(filepath.Join(campaignDir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	prefix := "/campaigns/" + rtCampaign
	err := env.store.Update(ctx, func(tx core.Tx) error {
		m, err := tx.Map(rtCaveMap)
		if err != nil {
			return err
		}
		m.Fog, m.FogOfWar, m.LineOfSight = prefix+"/fog/"+rtCaveMap+"-3.png", true, true
		m.Floor = "/systems/dnd5e/floor.png" // another owner's file stays as it is
		m.Lights = []core.Light{{ID: "L-1", Enabled: true, RadiusMin: 10, RadiusMax: 20, Color: "#ffaa00", Opacity: 0.5, X: 140, Y: 140}}
		m.Markers = []core.Object{{"id": "M-1", "name": "Altar", "x": 300.0, "y": 200.0, "hidden": true}}
		m.Tiles = []core.Object{{"id": "T-1", "x": 10.0, "y": 20.0, "layer": "dm"}}
		m.Drawings = []core.Object{{"id": "D-1", "data": []any{1.0, 2.0, 3.0, 4.0}}}
		m.AreaEffects = []core.Object{{"id": "A-1", "shape": "circle"}}
		m.Measurements = []core.Object{{"id": "R-1", "points": []any{0.0, 0.0, 70.0, 0.0}}}
		m.Walls = append(m.Walls, core.Wall{ID: "W-2", Data: []float64{0, 0, 0, 700}, Type: core.WallSecretDoor, Door: core.DoorLocked})
		m.Rank = 0
		goblin := rtGoblin
		art := prefix + "/maps/background.jpg"
		tok := &core.Token{ID: "BBBB0000-0000-4000-8000-000000000009", Name: "Goblin", X: 700, Y: 350, Hidden: true,
			EntityID: &goblin, Reference: "/monster/goblin", Image: &art, Role: core.RoleHostile, Scale: 1.5,
			Vision: &core.Vision{ID: "V-1", Enabled: true, Dark: true, DarkRadiusMax: 60}}
		tok.Normalize() // as every write of the server does
		m.Tokens = append(m.Tokens, tok)
		if err := tx.PutMap(m); err != nil {
			return err
		}
		second := &core.Map{ID: "AAAA0000-0000-4000-8000-000000000002", Name: "Bell Tower", Owner: rtCampaign,
			Image: prefix + "/maps/background.jpg", Width: 500, Height: 400}
		second.Normalize() // rank 0 too: an export keeps it
		if err := tx.PutMap(second); err != nil {
			return err
		}
		token := "BBBB0000-0000-4000-8000-000000000009"
		for i, c := range []*core.Combatant{
			{ID: "DDDD0000-0000-4000-8000-000000000007", Name: "Goblin", EntityID: rtGoblin, TokenID: &token, Hidden: true,
				Notes: "flees at 2 hp", Initiative: []core.Initiative{{ID: "I-7", Value: 12.0}},
				Effects: []core.StatusEffect{{ID: "E-1", Name: "Poisoned", Duration: 3}}},
		} {
			c.Campaign, c.Rank = rtCampaign, 10+i
			c.Normalize()
			if err := tx.PutCombatant(c); err != nil {
				return err
			}
		}
		// The campaign's library: a chapter, a page with the campaign's own
		// picture and a link elsewhere, an encounter, an asset.
		group := &core.Group{ID: "GGGG0000-0000-4000-8000-000000000001", Name: "Night One", Owner: rtCampaign}
		page := &core.Page{ID: "PPPP0000-0000-4000-8000-000000000001", Name: "The Letter", Owner: rtCampaign, ParentID: group.ID,
			Content: `<p>Read <a href="/monster/goblin">the goblin</a>'s letter.</p><img src="` + prefix + `/handouts/letter.png">`}
		enc := &core.Encounter{ID: "EEEE0000-0000-4000-8000-000000000009", Name: "Ambush", Owner: rtCampaign, ParentID: group.ID, MapID: rtCaveMap,
			Combatants: []core.EncounterCreature{{Reference: "/monster/goblin", EntityID: rtGoblin, Count: 2}}}
		asset := &core.Asset{ID: "SSSS0000-0000-4000-8000-000000000001", Name: "Sign", Owner: rtCampaign, Resource: prefix + "/maps/background.jpg"}
		for _, put := range []func() error{
			func() error { group.Normalize(); return tx.PutGroup(group) },
			func() error { page.Normalize(); return tx.PutPage(page) },
			func() error { enc.Normalize(); return tx.PutEncounter(enc) },
			func() error { asset.Normalize(); return tx.PutAsset(asset) },
		} {
			if err := put(); err != nil {
				return err
			}
		}
		screen, err := tx.Screen(rtCampaign)
		if err != nil {
			return err
		}
		screen.OverlayType, screen.OverlayImage = "image", prefix+"/handouts/letter.png"
		if err := tx.PutScreen(rtCampaign, screen); err != nil {
			return err
		}
		for _, m := range []*core.Message{
			{ID: "MSG-2", Type: core.MessageRoll, Text: "/roll 1d20", Source: "Wren", Campaign: rtCampaign,
				Created: time.Date(2024, 5, 1, 20, 0, 0, 0, time.UTC), Rolls: []core.RollResult{core.NewRollResult(json.RawMessage(`{"expression":"1d20","total":17}`))}},
			{ID: "MSG-3", Type: core.MessageChat, Text: "the GM's secret", Private: true, Campaign: rtCampaign,
				Created: time.Date(2024, 5, 1, 20, 0, 0, 0, time.UTC)},
		} {
			if err := tx.AddMessage(m); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return env
}

// exportZip exports and returns the archive's bytes.
func exportZip(t *testing.T, env *testEnv, kind, id string) (*export.Archive, []byte) {
	t.Helper()
	x, err := env.in.Export(context.Background(), kind, id)
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	var buf bytes.Buffer
	if err := x.WriteZip(context.Background(), &buf); err != nil {
		t.Fatal(err)
	}
	return x, buf.Bytes()
}

// roundTripReads read what a module or campaign owns, one row per kind of
// content, to compare an export's source with its import. A new kind of
// content gets a row here as it gets one in exportParts.
var roundTripReads = []struct {
	what string
	read func(tx core.Tx, owner string) (any, error)
}{
	{"entities", func(tx core.Tx, owner string) (any, error) {
		list, err := tx.Entities(core.EntityQuery{Owner: owner})
		for _, e := range list {
			e.Revision = 0
		}
		return withOwners(list, err, func(e *core.Entity) string { return e.Owner })
	}},
	{"maps", func(tx core.Tx, owner string) (any, error) {
		list, err := tx.Maps(owner)
		for _, m := range list {
			m.Revision = 0
			for _, tok := range m.Tokens {
				tok.Revision = 0
			}
		}
		return withOwners(list, err, func(m *core.Map) string { return m.Owner })
	}},
	{"combatants", func(tx core.Tx, owner string) (any, error) {
		list, err := tx.Combatants(owner)
		if core.IsNotFound(err) {
			return nil, nil
		}
		return withOwners(list, err, func(c *core.Combatant) string { return c.Campaign })
	}},
	{"game", func(tx core.Tx, owner string) (any, error) {
		if _, err := tx.Campaign(owner); err != nil {
			return nil, nil
		}
		return tx.Game(owner)
	}},
	{"screen", func(tx core.Tx, owner string) (any, error) {
		if _, err := tx.Campaign(owner); err != nil {
			return nil, nil
		}
		return tx.Screen(owner)
	}},
	{"messages", func(tx core.Tx, owner string) (any, error) {
		var out []*core.Message
		err := tx.EachMessage(owner, func(m *core.Message) error { out = append(out, m); return nil })
		if core.IsNotFound(err) {
			return nil, nil
		}
		return out, err
	}},
	{"pages", func(tx core.Tx, owner string) (any, error) {
		list, err := tx.Pages(core.PageQuery{Owner: owner, Content: true})
		for _, p := range list {
			p.Revision = 0
		}
		return withOwners(list, err, func(p *core.Page) string { return p.Owner })
	}},
	{"encounters", func(tx core.Tx, owner string) (any, error) {
		list, err := tx.Encounters(owner)
		for _, e := range list {
			e.Revision = 0
		}
		return withOwners(list, err, func(e *core.Encounter) string { return e.Owner })
	}},
	{"groups", func(tx core.Tx, owner string) (any, error) {
		list, err := tx.Groups(owner)
		for _, g := range list {
			g.Revision = 0
		}
		return withOwners(list, err, func(g *core.Group) string { return g.Owner })
	}},
	{"assets", func(tx core.Tx, owner string) (any, error) {
		list, err := tx.Assets(owner)
		for _, a := range list {
			a.Revision = 0
		}
		return withOwners(list, err, func(a *core.Asset) string { return a.Owner })
	}},
	{"owner", func(tx core.Tx, owner string) (any, error) {
		if m, err := tx.Module(owner); err == nil {
			m.Package = ""
			return m, nil
		}
		return tx.Campaign(owner)
	}},
}

// withOwners pairs a list's JSON with the owner column each row keeps
// outside it.
func withOwners[T any](list []T, err error, owner func(T) string) (any, error) {
	if err != nil {
		return nil, err
	}
	type row struct {
		Doc   T
		Owner string
	}
	out := make([]row, len(list))
	for i, v := range list {
		out[i] = row{v, owner(v)}
	}
	return out, nil
}

func readAllOf(t *testing.T, env *testEnv, owner string) map[string]string {
	t.Helper()
	out := map[string]string{}
	env.view(t, func(tx core.Tx) error {
		for _, r := range roundTripReads {
			v, err := r.read(tx, owner)
			if err != nil {
				return err
			}
			data, _ := json.MarshalIndent(v, "", " ")
			out[r.what] = string(data)
		}
		return nil
	})
	return out
}

// folderFiles maps every file under an owner's folder to its bytes.
func folderFiles(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		rel, _ := filepath.Rel(dir, p)
		data, _ := os.ReadFile(p)
		out[filepath.ToSlash(rel)] = string(data)
		return nil
	})
	return out
}

// An exported module and campaign import into a fresh data folder as the
// same content: entity by entity, map by map (tokens, walls, doors,
// lights, markers, tiles, drawings, fog...), combatant by combatant, the
// game, the screen, the messages, and the files of their folders.
func TestExportImportsBackToTheSameContent(t *testing.T) {
	src := richEnv(t)
	modX, module := exportZip(t, src, KindModule, rtModule)
	campX, campaign := exportZip(t, src, KindCampaign, rtCampaign)
	if modX.FileName != "test-compendium.module" || campX.FileName != "salt-marsh-nights.campaign" || campX.Name != "Salt Marsh Nights" {
		t.Errorf("names %+v %+v", modX, campX)
	}
	// The campaign's goblin token and combatant point at the module's entity.
	if len(campX.Needs) != 1 || campX.Needs[0] != (Result{Kind: KindModule, ID: rtModule, Name: "Test Compendium"}) {
		t.Errorf("needs %+v", campX.Needs)
	}
	if len(modX.Needs) != 0 {
		t.Errorf("the module needs %+v", modX.Needs)
	}

	dst := newTestEnv(t)
	for name, data := range map[string][]byte{"a.module": module, "b.campaign": campaign} {
		if _, err := installZip(t, dst, name, data, InstallOptions{}); err != nil {
			t.Fatalf("importing the export %s: %v", name, err)
		}
	}
	for _, owner := range []string{rtModule, rtCampaign} {
		want, got := readAllOf(t, src, owner), readAllOf(t, dst, owner)
		for _, r := range roundTripReads {
			if want[r.what] != got[r.what] {
				t.Errorf("%s %s differ after the round trip:\n%s", owner, r.what, firstDifference(want[r.what], got[r.what]))
			}
		}
	}
	for _, folder := range []string{"modules/" + rtModule, "campaigns/" + rtCampaign} {
		want, got := folderFiles(t, filepath.Join(src.dataDir, folder)), folderFiles(t, filepath.Join(dst.dataDir, folder))
		if !reflect.DeepEqual(want, got) {
			t.Errorf("%s: files %v, want %v", folder, keys(got), keys(want))
		}
	}
	// The primary campaign is primary again.
	dst.view(t, func(tx core.Tx) error {
		c, err := tx.PrimaryCampaign("dnd5e")
		if err != nil || c.ID != rtCampaign {
			t.Errorf("primary campaign %+v %v", c, err)
		}
		return nil
	})
	// Exporting the imported content gives the same archive's data.
	_, again := exportZip(t, dst, KindCampaign, rtCampaign)
	if a, b := zipJSON(t, campaign), zipJSON(t, again); !reflect.DeepEqual(a, b) {
		t.Errorf("a second export differs from the first")
	}
}

// The round trip is made of the parts: every part's file is in the
// archive, and an archive without one of them loses that content, so the
// comparison above cannot pass by accident.
func TestEveryExportPartCarriesContent(t *testing.T) {
	src := richEnv(t)
	_, campaign := exportZip(t, src, KindCampaign, rtCampaign)
	files := zipJSON(t, campaign)
	for _, name := range []string{"campaign.json", "characters.json", "maps.json", "groups.json", "pages.json", "encounters.json", "assets.json",
		"combatants.json", "game.json", "screen.json", "messages.json"} {
		if _, ok := files[name]; !ok {
			t.Errorf("the campaign's archive has no %s: %v", name, keys(files))
		}
	}
	if !strings.Contains(files["messages.json"], `"private":true`) || !strings.Contains(files["maps.json"], `"hidden":true`) {
		t.Errorf("the game master's secrets are part of the game and must be exported")
	}
	if !strings.Contains(files["maps.json"], `"fog":"fog/`+rtCaveMap+`-3.png"`) || !strings.Contains(files["maps.json"], `"floor":"/systems/dnd5e/floor.png"`) {
		t.Errorf("map files: the owner's become archive paths, others' stay: %s", files["maps.json"])
	}
	if p := files["pages.json"]; !strings.Contains(p, `src=\"handouts/letter.png\"`) || !strings.Contains(p, `href=\"/monster/goblin\"`) {
		t.Errorf("page files: the owner's become archive paths, links elsewhere stay: %s", p)
	}
	_, module := exportZip(t, src, KindModule, rtModule)
	files = zipJSON(t, module)
	if !strings.Contains(files["monsters.json"], `"image":"monsters/goblin.png"`) || !strings.Contains(files["monsters.json"], `"image":"imports/`) {
		t.Errorf("entity images: %s", files["monsters.json"])
	}
	if strings.Contains(files["module.json"], "package") {
		t.Errorf("module.json carries the package: %s", files["module.json"])
	}
}

func TestExportRefusals(t *testing.T) {
	env := richEnv(t)
	ctx := context.Background()
	_, err := env.in.Export(ctx, KindModule, "nope")
	wantKind(t, err, core.KindNotFound, "no module with id 'nope'")
	_, err = env.in.Export(ctx, KindCampaign, rtModule)
	wantKind(t, err, core.KindNotFound, "no campaign")
	_, err = env.in.Export(ctx, KindSystem, "dnd5e")
	wantKind(t, err, core.KindInvalid, "only a module or a campaign")
	// An entity of a kind the loaded system has no collection for cannot
	// be written as a collection file: refused, not lost.
	err = env.store.Update(ctx, func(tx core.Tx) error {
		e := &core.Entity{ID: "odd", Kind: "vehicle", Name: "Barge", Owner: rtModule}
		e.Normalize(time.Now())
		return tx.PutEntity(e)
	})
	if err != nil {
		t.Fatal(err)
	}
	_, err = env.in.Export(ctx, KindModule, rtModule)
	wantKind(t, err, core.KindConflict, "'Barge' is a 'vehicle'")
	if entries, _ := os.ReadDir(filepath.Join(env.dataDir, ".staging")); len(entries) != 0 {
		t.Errorf("a refused export left %d staging folders", len(entries))
	}
}

// A download that breaks off leaves an unfinished zip (never one that
// reads as whole), and Close removes what Export staged.
func TestExportBrokenDownload(t *testing.T) {
	env := richEnv(t)
	x, err := env.in.Export(context.Background(), KindCampaign, rtCampaign)
	if err != nil {
		t.Fatal(err)
	}
	err = x.WriteZip(context.Background(), &failingWriter{after: 300})
	if err == nil || !strings.Contains(err.Error(), "broke") {
		t.Errorf("write to a broken download: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := x.WriteZip(ctx, &bytes.Buffer{}); !errors.Is(err, context.Canceled) {
		t.Errorf("a cancelled download: %v", err)
	}
	x.Close()
	if entries, err := os.ReadDir(filepath.Join(env.dataDir, ".staging")); err != nil || len(entries) != 0 {
		t.Errorf("Close left %d staged folders (%v)", len(entries), err)
	}
}

type failingWriter struct{ after int }

func (w *failingWriter) Write(p []byte) (int, error) {
	if w.after -= len(p); w.after < 0 {
		return 0, errors.New("the download broke off")
	}
	return len(p), nil
}

// zipJSON reads the JSON files at an archive's root.
func zipJSON(t *testing.T, data []byte) map[string]string {
	t.Helper()
	dir := t.TempDir()
	if err := extractZip(bytes.NewReader(data), int64(len(data)), dir, DefaultLimits); err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	names, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	for _, p := range names {
		raw, _ := os.ReadFile(p)
		var v any
		if err := json.Unmarshal(raw, &v); err != nil {
			t.Fatalf("%s: %v", filepath.Base(p), err)
		}
		compact, _ := json.Marshal(v)
		out[filepath.Base(p)] = string(compact)
	}
	return out
}

func keys[V any](m map[string]V) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

// firstDifference shows where two texts part.
func firstDifference(a, b string) string {
	la, lb := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := 0; i < len(la) && i < len(lb); i++ {
		if la[i] != lb[i] {
			return "line " + itoa(i+1) + ":\n  was: " + la[i] + "\n  now: " + lb[i]
		}
	}
	return "lengths " + itoa(len(la)) + " and " + itoa(len(lb))
}

// An export that an import would refuse (too many files, too many bytes
// unpacked, more media than an upload may bring) is refused before the
// download starts, with nothing left staged; one at the limits is made,
// and an import with the same limits takes it.
func TestExportRefusesWhatCouldNotBeImportedBack(t *testing.T) {
	src := richEnv(t)
	_, archive := exportZip(t, src, KindCampaign, rtCampaign)
	zr, err := zip.NewReader(bytes.NewReader(archive), int64(len(archive)))
	if err != nil {
		t.Fatal(err)
	}
	files, total, stored := len(zr.File), int64(0), int64(0)
	for _, f := range zr.File {
		total += int64(f.UncompressedSize64)
		if f.Method == zip.Store {
			stored += int64(f.UncompressedSize64)
		}
	}
	if stored == 0 {
		t.Fatal("the campaign carries no media stored as they are")
	}
	ctx := context.Background()
	for _, c := range []struct {
		over, at Limits
		says     string
	}{
		{Limits{MaxEntries: files - 1}, Limits{MaxEntries: files}, "archive of " + itoa(files) + " files"},
		{Limits{MaxTotalBytes: total - 1}, Limits{MaxTotalBytes: total}, "would unpack to"},
		{Limits{MaxDownloadBytes: stored - 1}, Limits{MaxDownloadBytes: stored}, "of media"},
	} {
		src.in.SetLimits(c.over)
		_, err := src.in.Export(ctx, KindCampaign, rtCampaign)
		wantKind(t, err, core.KindTooLarge, c.says)
		if !strings.Contains(err.Error(), "could not be imported back") {
			t.Errorf("the refusal does not say why: %v", err)
		}
		if entries, _ := os.ReadDir(filepath.Join(src.dataDir, ".staging")); len(entries) != 0 {
			t.Errorf("a refused export left %d staging folders", len(entries))
		}
		src.in.SetLimits(c.at)
		x, err := src.in.Export(ctx, KindCampaign, rtCampaign)
		if err != nil {
			t.Fatalf("at the limit %+v: %v", c.at, err)
		}
		x.Close()
	}
	// The import counts as the export did: at the entry and size limits
	// it takes the archive.
	dst := newTestEnv(t)
	dst.in.SetLimits(Limits{MaxEntries: files, MaxTotalBytes: total})
	_, module := exportZip(t, src, KindModule, rtModule)
	for name, data := range map[string][]byte{"a.module": module, "b.campaign": archive} {
		if _, err := installZip(t, dst, name, data, InstallOptions{}); err != nil {
			t.Fatalf("importing %s at the export's limits: %v", name, err)
		}
	}
}
