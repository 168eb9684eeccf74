package imports

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/imports/legacyxml"
)

// fakeMapper maps monsters and spells the way a system's hook would (in
// Go: the Lua hook has tests of its own); "bomb" entries, and a monster
// named "Boom", fail.
type fakeMapper struct{}

func (fakeMapper) ImportKinds() []string { return []string{"bomb", "monster", "spell"} }

func (fakeMapper) MapCompendium(_ context.Context, kind string, el map[string]any) ([]*core.Entity, error) {
	name, _ := el["name"].(string)
	switch kind {
	case "bomb":
		return nil, errors.New("lib/import.lua:7: attempt to index a nil value")
	case "monster":
		if name == "Boom" {
			return nil, errors.New("lib/import.lua:9: attempt to index a nil value")
		}
		image, _ := el["image"].(string)
		e := &core.Entity{Kind: "monster", Name: name, Image: image, Data: core.Object{"hp": el["hp"]}}
		if attrs, ok := el["_attr"].(map[string]any); ok {
			e.ID, _ = attrs["id"].(string)
		}
		return []*core.Entity{e}, nil
	case "spell":
		if name == "Skip Me" {
			return nil, nil
		}
		return []*core.Entity{{Kind: "spell", Name: name}}, nil
	}
	return nil, nil
}

// compendiumCollections is testCollections whose system maps compendiums.
type compendiumCollections struct{ testCollections }

func (compendiumCollections) Compendium() CompendiumMapper { return fakeMapper{} }

func newCompendiumEnv(t *testing.T) *testEnv {
	env := newTestEnv(t)
	env.in = NewInstaller(env.svc, env.dataDir, compendiumCollections{})
	return env
}

func fixture(t *testing.T, name string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("legacyxml", "testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func moduleOf(t *testing.T, env *testEnv, id string) *core.Module {
	t.Helper()
	var m *core.Module
	env.view(t, func(tx core.Tx) (err error) {
		m, err = tx.Module(id)
		return err
	})
	return m
}

func entitiesOf(t *testing.T, env *testEnv) map[string]*core.Entity {
	t.Helper()
	out := map[string]*core.Entity{}
	env.view(t, func(tx core.Tx) error {
		list, err := tx.Entities(core.EntityQuery{})
		for _, e := range list {
			out[e.Name] = e
		}
		return err
	})
	return out
}

// A bare compendium XML file becomes a module of entities; what the system
// does not map is reported, never silently dropped.
func TestInstallBareCompendiumXML(t *testing.T) {
	env := newCompendiumEnv(t)
	var mu sync.Mutex
	var stages []InstallProgress
	opt := InstallOptions{Name: "Fen_Bestiary.compendium.xml", Progress: func(p InstallProgress) {
		mu.Lock()
		stages = append(stages, p)
		mu.Unlock()
	}}
	res, err := env.in.InstallFile(context.Background(), writeTemp(t, "upload", []byte(fixture(t, "compendium.xml"))), opt.Name, opt)
	if err != nil {
		t.Fatal(err)
	}
	if res.Kind != KindModule || res.Name != "Fen Bestiary" || res.Compendium == nil || res.Compendium.Entities != 2 {
		t.Fatalf("result %+v %+v", res, res.Compendium)
	}
	wantSkipped := map[string]int{"background": 1, "class": 1, "feat": 1, "item": 1, "player": 1, "race": 1}
	if !reflect.DeepEqual(res.Compendium.Skipped, wantSkipped) {
		t.Errorf("skipped %v", res.Compendium.Skipped)
	}
	notes := strings.Join(res.Compendium.Notes, "\n")
	for _, want := range []string{"1 background, 1 class, 1 feat, 1 item, 1 player, 1 race not imported: the system has no import hook for them",
		"1 image reference names a file the archive does not hold and was left out (first: reed-stalker.png)"} {
		if !strings.Contains(notes, want) {
			t.Errorf("notes lack %q:\n%s", want, notes)
		}
	}
	m := moduleOf(t, env, res.ID)
	if m.Category != "compendium" || m.System != "dnd5e" || m.Slug != "fen-bestiary" || m.Descr != "Imported from Fen_Bestiary.compendium.xml: 1 monster, 1 spell." {
		t.Errorf("module %+v", m)
	}
	ents := entitiesOf(t, env)
	stalker := ents["Reed Stalker"]
	if stalker == nil || stalker.Owner != res.ID || stalker.System != "dnd5e" || stalker.ID != "0E1B9E1C-5A77-4F0B-9D5B-2D5F6A7C8B01" ||
		stalker.Data["hp"] != "33 (6d8+6)" || stalker.Image != "" {
		t.Errorf("monster %+v", stalker)
	}
	if ents["Mire Bolt"] == nil || ents["Mire Bolt"].Kind != "spell" {
		t.Errorf("spell %+v", ents["Mire Bolt"])
	}
	// Progress: reading up to the whole file, then writing every row.
	last := stages[len(stages)-1]
	if last.Stage != StageWriting || last.Done != 2 || last.Total != 2 {
		t.Errorf("last progress %+v", last)
	}
	sawReading := false
	for _, p := range stages {
		if p.Stage == StageReading && p.Done == p.Total && p.Total > 0 {
			sawReading = true
		}
	}
	if !sawReading {
		t.Errorf("no complete reading stage in %+v", stages)
	}
	// Nothing is left in staging; the module's folder exists, empty.
	if files := env.dataFiles(t); len(files) != 0 {
		t.Errorf("files %v", files)
	}
	if len(env.events) != 1 || env.events[0].Name != core.EventReload {
		t.Errorf("events %+v", env.events)
	}
}

// A .compendium archive: its images land in the module's folder and the
// entities point at them; compendium.xml itself is not kept.
func TestInstallCompendiumArchiveWithImages(t *testing.T) {
	env := newCompendiumEnv(t)
	doc := `<?xml version="1.0"?><compendium>
<monster><name>Bog Imp</name><image>bog-imp.png</image></monster>
<monster><name>Ford Toad</name><image>art/toad.webp</image></monster>
<monster><name>Web Art</name><image>https://example.org/a.png</image></monster>
<monster><name>Sneaky</name><image>../../../etc/passwd</image></monster>
</compendium>`
	data := makeZip(t,
		zipEntry{name: "compendium.xml", body: doc},
		zipEntry{name: "monsters/bog-imp.png", body: "png"},
		zipEntry{name: "art/toad.webp", body: "webp"},
	)
	res, err := installZip(t, env, "Fen.compendium", data, InstallOptions{Name: "Fen.compendium"})
	if err != nil {
		t.Fatal(err)
	}
	ents := entitiesOf(t, env)
	prefix := "/modules/" + res.ID + "/"
	if ents["Bog Imp"].Image != prefix+"monsters/bog-imp.png" || ents["Ford Toad"].Image != prefix+"art/toad.webp" ||
		ents["Web Art"].Image != "https://example.org/a.png" || ents["Sneaky"].Image != "" {
		t.Errorf("images %q %q %q %q", ents["Bog Imp"].Image, ents["Ford Toad"].Image, ents["Web Art"].Image, ents["Sneaky"].Image)
	}
	files := env.dataFiles(t)
	want := []string{"modules/" + res.ID + "/art/toad.webp", "modules/" + res.ID + "/monsters/bog-imp.png"}
	if !reflect.DeepEqual(files, want) {
		t.Errorf("files %v, want %v", files, want)
	}
	if !strings.Contains(strings.Join(res.Compendium.Notes, " "), "first: ../../../etc/passwd") {
		t.Errorf("notes %v", res.Compendium.Notes)
	}
}

// One failing entry: a clear error naming the entry, and nothing written.
func TestInstallCompendiumHookFailureWritesNothing(t *testing.T) {
	env := newCompendiumEnv(t)
	doc := "<compendium>\n<monster><name>A</name></monster>\n<monster><name>B</name></monster>\n<bomb><name>C</name></bomb>\n</compendium>"
	_, err := env.in.InstallFile(context.Background(), writeTemp(t, "x.xml", []byte(doc)), "x.xml", InstallOptions{})
	wantKind(t, err, core.KindInvalid, "x.xml line 4, compendium/bomb: the system's import hook failed on bomb \"C\": lib/import.lua:7: attempt to index a nil value")
	if m, _, e, _ := env.counts(t); m != 0 || e != 0 {
		t.Errorf("%d modules, %d entities written", m, e)
	}
	if files := env.dataFiles(t); len(files) != 0 {
		t.Errorf("files left: %v", files)
	}
	// Entries are mapped several at once, yet the error is always the
	// first entry's in the document.
	var many strings.Builder
	many.WriteString("<compendium>\n")
	for i := 0; i < 40; i++ {
		if i == 7 || i == 30 {
			many.WriteString("<bomb><name>B</name></bomb>\n")
			continue
		}
		many.WriteString("<spell><name>S</name></spell>\n")
	}
	many.WriteString("</compendium>")
	for i := 0; i < 5; i++ {
		_, err = env.in.InstallFile(context.Background(), writeTemp(t, "m.xml", []byte(many.String())), "m.xml", InstallOptions{})
		wantKind(t, err, core.KindInvalid, "m.xml line 9, compendium/bomb:")
	}
	// Two entries making the same id.
	doc = `<compendium><monster id="X"><name>A</name></monster><monster id="X"><name>B</name></monster></compendium>`
	_, err = env.in.InstallFile(context.Background(), writeTemp(t, "x.xml", []byte(doc)), "x.xml", InstallOptions{})
	wantKind(t, err, core.KindInvalid, "compendium/monster[2]: entity id 'X' was already made from the entry at line 1")
	// Nothing the system maps.
	doc = `<compendium><race><name>Elf</name></race><spell><name>Skip Me</name></spell></compendium>`
	_, err = env.in.InstallFile(context.Background(), writeTemp(t, "x.xml", []byte(doc)), "x.xml", InstallOptions{})
	wantKind(t, err, core.KindInvalid, "nothing to import: 1 race not imported: the system has no import hook for them; 1 spell not imported: the system's import hook made nothing of them")
	if m, _, e, _ := env.counts(t); m != 0 || e != 0 {
		t.Errorf("%d modules, %d entities written", m, e)
	}
}

// Hostile and broken XML: refused with the reader's located error, as
// invalid or too large, nothing written.
func TestInstallCompendiumRefusesHostileXML(t *testing.T) {
	env := newCompendiumEnv(t)
	env.in.SetLimits(Limits{XML: legacyxml.Limits{MaxElements: 50}})
	cases := []struct {
		doc  string
		kind core.ErrorKind
		want string
	}{
		{`<?xml version="1.0"?><!DOCTYPE c [<!ENTITY x SYSTEM "file:///etc/passwd">]><compendium><monster><name>&x;</name></monster></compendium>`, core.KindInvalid, "DTD"},
		{"<compendium><monster><name>A</name></monster>", core.KindInvalid, "ends inside <compendium>"},
		{"<compendium>" + strings.Repeat("<monster><name>A</name></monster>", 30) + "</compendium>", core.KindTooLarge, "more than 50 elements"},
		{"<compendium><monster><name>A</nam></monster></compendium>", core.KindInvalid, "compendium/monster/name"},
	}
	for _, c := range cases {
		_, err := env.in.InstallFile(context.Background(), writeTemp(t, "c.xml", []byte(c.doc)), "c.xml", InstallOptions{})
		wantKind(t, err, c.kind, c.want)
	}
	if m, _, e, _ := env.counts(t); m != 0 || e != 0 {
		t.Errorf("%d modules, %d entities written", m, e)
	}
	if files := env.dataFiles(t); len(files) != 0 {
		t.Errorf("files left: %v", files)
	}
}

// A .compendium archive gets every archive limit: a zip bomb, names that
// escape, lying sizes.
func TestInstallCompendiumArchiveLimits(t *testing.T) {
	env := newCompendiumEnv(t)
	doc := "<compendium><monster><name>A</name></monster></compendium>"
	bomb := makeZip(t, zipEntry{name: "compendium.xml", body: doc}, zipEntry{name: "monsters/zeros.png", body: strings.Repeat("\x00", 4<<20)})
	_, err := installZip(t, env, "b.compendium", bomb, InstallOptions{})
	wantKind(t, err, core.KindTooLarge, "zip bomb")
	escape := makeZip(t, zipEntry{name: "compendium.xml", body: doc}, zipEntry{name: "../monsters/a.png", body: "x"})
	_, err = installZip(t, env, "e.compendium", escape, InstallOptions{})
	wantKind(t, err, core.KindInvalid, "outside")
	env.in.SetLimits(Limits{MaxTotalBytes: 100})
	big := makeZip(t, zipEntry{name: "compendium.xml", body: doc + strings.Repeat(" ", 200)})
	_, err = installZip(t, env, "l.compendium", big, InstallOptions{})
	wantKind(t, err, core.KindTooLarge, "more than 100 bytes")
	if m, _, e, _ := env.counts(t); m != 0 || e != 0 {
		t.Errorf("%d modules, %d entities written", m, e)
	}
}

// What is neither a compendium nor a legacy module, campaign or pack is
// refused plainly, for an archive and for a bare file.
func TestInstallLegacyRefusesUnknownRoots(t *testing.T) {
	env := newCompendiumEnv(t)
	_, err := env.in.InstallFile(context.Background(), writeTemp(t, "a.svg", []byte(fixture(t, "canvas.svg"))), "a.svg", InstallOptions{})
	wantKind(t, err, core.KindInvalid, "its root element is <svg>")
	_, err = installZip(t, env, "two.zip", makeZip(t, zipEntry{name: "module.xml", body: "<module/>"}, zipEntry{name: "compendium.xml", body: "<compendium/>"}), InstallOptions{})
	wantKind(t, err, core.KindInvalid, "only one of them")
	_, err = installZip(t, env, "mixed.zip", makeZip(t, zipEntry{name: "module.json", body: `{"name":"x"}`}, zipEntry{name: "compendium.xml", body: "<compendium/>"}), InstallOptions{})
	wantKind(t, err, core.KindInvalid, "only one root file")
	if files := env.dataFiles(t); len(files) != 0 {
		t.Errorf("files left: %v", files)
	}
}

// A system without an import hook says so.
func TestInstallCompendiumWithoutHook(t *testing.T) {
	env := newTestEnv(t) // testCollections: no Compendium()
	_, err := env.in.InstallFile(context.Background(), writeTemp(t, "c.xml", []byte(fixture(t, "compendium.xml"))), "c.xml", InstallOptions{})
	wantKind(t, err, core.KindInvalid, "cannot import compendiums")
}

// Filed into an existing module (a chosen destination), and as a package
// update that keeps the module's id.
func TestInstallCompendiumDestinationAndUpdate(t *testing.T) {
	env := newCompendiumEnv(t)
	first, err := env.in.InstallFile(context.Background(), writeTemp(t, "a.xml", []byte(`<compendium><spell><name>First</name></spell></compendium>`)), "a.xml", InstallOptions{})
	if err != nil {
		t.Fatal(err)
	}
	data := makeZip(t, zipEntry{name: "compendium.xml", body: `<compendium><monster><name>Second</name><image>m.png</image></monster></compendium>`}, zipEntry{name: "m.png", body: "png"})
	res, err := installZip(t, env, "b.compendium", data, InstallOptions{Destination: first.ID})
	if err != nil {
		t.Fatal(err)
	}
	if res.ID != first.ID || res.Kind != KindModule {
		t.Errorf("result %+v", res)
	}
	ents := entitiesOf(t, env)
	if ents["Second"].Owner != first.ID || !strings.HasPrefix(ents["Second"].Image, "/modules/"+first.ID+"/imports/") {
		t.Errorf("second %+v", ents["Second"])
	}
	mustExist(t, filepath.Join(env.dataDir, filepath.FromSlash(strings.TrimPrefix(ents["Second"].Image, "/"))))
	if m, _, e, _ := env.counts(t); m != 1 || e != 2 {
		t.Errorf("%d modules, %d entities", m, e)
	}
	// An update of the module replaces its content, keeping its id.
	res, err = env.in.InstallFile(context.Background(), writeTemp(t, "c.xml", []byte(`<compendium><spell><name>Third</name></spell></compendium>`)), "c.xml", InstallOptions{Replace: first.ID, Expect: KindModule})
	if err != nil {
		t.Fatal(err)
	}
	ents = entitiesOf(t, env)
	if res.ID != first.ID || len(ents) != 1 || ents["Third"] == nil {
		t.Errorf("after update %+v: %v", res, ents)
	}
	_, err = env.in.InstallFile(context.Background(), writeTemp(t, "c.xml", []byte(`<compendium><spell><name>X</name></spell></compendium>`)), "c.xml", InstallOptions{Expect: KindSystem})
	wantKind(t, err, core.KindInvalid, "the package says it is a system")
}

// Importing the same compendium XML (without ids, as most are) twice makes
// a second module, and the result says so: the first import has no such
// note, the second names the first module.
func TestCompendiumImportedTwiceSaysSo(t *testing.T) {
	env := newCompendiumEnv(t)
	doc := `<compendium><monster><name>Marsh Bat</name><size>T</size><type>beast</type><ac>12</ac><hp>1 (1d4-1)</hp><cr>0</cr></monster></compendium>`
	install := func() Result {
		t.Helper()
		res, err := env.in.InstallFile(context.Background(), writeTemp(t, "upload", []byte(doc)), "Fen_Bestiary.compendium.xml", InstallOptions{})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	first := install()
	if notes := strings.Join(first.Compendium.Notes, "\n"); strings.Contains(notes, "already installed") {
		t.Errorf("the first import says it is a second copy: %s", notes)
	}
	second := install()
	notes := strings.Join(second.Compendium.Notes, "\n")
	if second.ID == first.ID || !strings.Contains(notes, "a module named 'Fen Bestiary' was already installed (id "+first.ID+")") {
		t.Errorf("the second import's notes: %s", notes)
	}
}
