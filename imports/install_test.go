package imports

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/vttapp/companion/core"
)

func installZip(t *testing.T, env *testEnv, name string, data []byte, opt InstallOptions) (Result, error) {
	t.Helper()
	return env.in.InstallFile(context.Background(), writeTemp(t, name, data), name, opt)
}

func TestInstallModuleArchive(t *testing.T) {
	env := newTestEnv(t)
	res, err := installZip(t, env, "c.module", zipFolder(t, "testdata/sample/compendium"), InstallOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if res != (Result{Kind: KindModule, ID: "test-compendium", Name: "Test Compendium"}) {
		t.Errorf("result %+v", res)
	}
	mustExist(t, filepath.Join(env.dataDir, "modules/test-compendium/monsters/goblin.png"))
	if m, _, e, _ := env.counts(t); m != 1 || e != 3 {
		t.Errorf("%d modules, %d entities", m, e)
	}
	if len(env.events) != 1 || env.events[0].Name != core.EventReload {
		t.Errorf("events %+v", env.events)
	}
	// The same module again is a conflict, and leaves the first intact.
	_, err = installZip(t, env, "c.module", zipFolder(t, "testdata/sample/compendium"), InstallOptions{})
	wantKind(t, err, core.KindConflict, "already installed")
	if m, _, e, _ := env.counts(t); m != 1 || e != 3 {
		t.Errorf("after conflict: %d modules, %d entities", m, e)
	}
	mustExist(t, filepath.Join(env.dataDir, "modules/test-compendium/monsters/goblin.png"))
}

func TestInstallModuleDefaultsVersionAndID(t *testing.T) {
	env := newTestEnv(t)
	res, err := installZip(t, env, "m.module", makeZip(t, zipEntry{name: "module.json", body: `{"name":"Marsh Bats","package":"https://example.org/m.json"}`}), InstallOptions{})
	if err != nil {
		t.Fatal(err)
	}
	env.view(t, func(tx core.Tx) error {
		m, err := tx.Module(res.ID)
		if err != nil {
			return err
		}
		if m.Version != "1.0.0" || m.Slug != "marsh-bats" || len(m.ID) != 36 || m.Package != "" {
			t.Errorf("module %+v", m)
		}
		return nil
	})
}

// Bad module archives: each refused with a clear message, nothing left.
func TestInstallRefusesBadModules(t *testing.T) {
	for _, tc := range []struct {
		name    string
		entries []zipEntry
		kind    core.ErrorKind
		want    string
	}{
		{"extra property", []zipEntry{{name: "module.json", body: `{"name":"A","colour":"red"}`}}, core.KindInvalid, "colour"},
		{"not an object", []zipEntry{{name: "module.json", body: `["name","A"]`}}, core.KindInvalid, "JSON object"},
		{"malformed JSON", []zipEntry{{name: "module.json", body: `{"name":"A",`}}, core.KindInvalid, "module.json"},
		{"bad version", []zipEntry{{name: "module.json", body: `{"name":"A","version":"1.0"}`}}, core.KindInvalid, "/version"},
		{"bad systemVersion", []zipEntry{{name: "module.json", body: `{"name":"A","systemVersion":"v2"}`}}, core.KindInvalid, "/systemVersion"},
		{"tags not strings", []zipEntry{{name: "module.json", body: `{"name":"A","tags":[1]}`}}, core.KindInvalid, "/tags/0"},
		{"no name", []zipEntry{{name: "module.json", body: `{"id":"x"}`}}, core.KindInvalid, "name"},
		{"unsafe id", []zipEntry{{name: "module.json", body: `{"id":"../x","name":"A"}`}}, core.KindInvalid, "module id"},
		{"two root files", []zipEntry{{name: "module.json", body: `{"name":"A"}`}, {name: "campaign.json", body: `{"name":"B"}`}}, core.KindInvalid, "only one"},
		{"collection not an array", []zipEntry{{name: "module.json", body: `{"name":"A"}`}, {name: "monsters.json", body: `{"name":"Goblin"}`}}, core.KindInvalid, "array"},
		{"item not an object", []zipEntry{{name: "module.json", body: `{"name":"A"}`}, {name: "monsters.json", body: `[{"name":"Goblin"}, 7]`}}, core.KindInvalid, "item 2 is not a JSON object"},
		{"entity without name", []zipEntry{{name: "module.json", body: `{"name":"A"}`}, {name: "monsters.json", body: `[{"name":"Goblin"},{"data":{}}]`}}, core.KindInvalid, "item 2"},
		{"wrong kind", []zipEntry{{name: "module.json", body: `{"name":"A"}`}, {name: "monsters.json", body: `[{"name":"Fireball","kind":"spell"}]`}}, core.KindInvalid, "kind 'spell'"},
		{"image escapes", []zipEntry{{name: "module.json", body: `{"name":"A"}`}, {name: "monsters.json", body: `[{"name":"Goblin","image":"../../etc/passwd"}]`}}, core.KindInvalid, "outside"},
		{"other system", []zipEntry{{name: "module.json", body: `{"name":"A","system":"pf2e"}`}, {name: "monsters.json", body: `[{"name":"Goblin"}]`}}, core.KindInvalid, "pf2e"},
		{"nothing to import", []zipEntry{{name: "readme.txt", body: `hello`}}, core.KindNotFound, "primary campaign"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			env := newTestEnv(t)
			_, err := installZip(t, env, "bad.module", makeZip(t, tc.entries...), InstallOptions{})
			wantKind(t, err, tc.kind, tc.want)
			if m, c, e, mp := env.counts(t); m+c+e+mp != 0 {
				t.Errorf("rows left: %d modules %d campaigns %d entities %d maps", m, c, e, mp)
			}
			if files := env.dataFiles(t); len(files) != 0 {
				t.Errorf("files left: %v", files)
			}
		})
	}
}

// A failure inside the transaction (an entity id owned by other content)
// rolls back every row and removes the staged files.
func TestInstallFailureInTransactionLeavesNothing(t *testing.T) {
	env := newTestEnv(t)
	if _, err := installZip(t, env, "a.module", makeZip(t,
		zipEntry{name: "module.json", body: `{"id":"first","name":"First"}`},
		zipEntry{name: "monsters.json", body: `[{"id":"E-1","name":"Goblin"}]`},
	), InstallOptions{}); err != nil {
		t.Fatal(err)
	}
	before := env.dataFiles(t)
	_, err := installZip(t, env, "b.module", makeZip(t,
		zipEntry{name: "module.json", body: `{"id":"second","name":"Second"}`},
		zipEntry{name: "spells.json", body: `[{"id":"S-1","name":"Light"}]`},
		zipEntry{name: "monsters.json", body: `[{"id":"E-1","name":"Hijacked Goblin"}]`},
		zipEntry{name: "second.png", body: `png`},
	), InstallOptions{})
	wantKind(t, err, core.KindConflict, "E-1")
	env.view(t, func(tx core.Tx) error {
		if _, err := tx.Module("second"); !core.IsNotFound(err) {
			t.Errorf("module second: %v", err)
		}
		if _, err := tx.Entity("S-1"); !core.IsNotFound(err) {
			t.Errorf("spell S-1 half-installed: %v", err)
		}
		e, _ := tx.Entity("E-1")
		if e.Name != "Goblin" || e.Owner != "first" {
			t.Errorf("goblin changed: %+v", e)
		}
		return nil
	})
	if after := env.dataFiles(t); !reflect.DeepEqual(before, after) {
		t.Errorf("files before %v, after %v", before, after)
	}
}

func TestInstallCampaignArchive(t *testing.T) {
	env := newTestEnv(t)
	res, err := installZip(t, env, "c.campaign", zipFolder(t, "testdata/sample/campaign"), InstallOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Kind != KindCampaign || res.Name != "Salt Marsh Nights" {
		t.Errorf("result %+v", res)
	}
	env.view(t, func(tx core.Tx) error {
		c, err := tx.PrimaryCampaign("dnd5e")
		if err != nil || c.ID != res.ID {
			t.Errorf("the first campaign of a system becomes primary: %v %v", c, err)
		}
		return nil
	})
	// A second campaign of the same system does not take over.
	res2, err := installZip(t, env, "d.campaign", makeZip(t, zipEntry{name: "campaign.json", body: `{"name":"Second"}`}), InstallOptions{})
	if err != nil {
		t.Fatal(err)
	}
	env.view(t, func(tx core.Tx) error {
		c, _ := tx.PrimaryCampaign("dnd5e")
		if c.ID != res.ID || res2.ID == res.ID {
			t.Errorf("primary moved to %s", c.ID)
		}
		return nil
	})
	_, err = installZip(t, env, "e.campaign", makeZip(t, zipEntry{name: "campaign.json", body: `{"name":"X","colour":"red"}`}), InstallOptions{})
	wantKind(t, err, core.KindInvalid, "colour")
}

func TestInstallLooseCollection(t *testing.T) {
	env := newTestEnv(t)
	if err := Seed(context.Background(), env.svc, env.dataDir, os.DirFS("testdata/sample"), testCollections{}); err != nil {
		t.Fatal(err)
	}
	data := makeZip(t,
		zipEntry{name: "monsters.json", body: `[{"name":"Marsh Troll","image":"troll.png"},{"name":"Bog Hag","image":"art/hag.png"}]`},
		zipEntry{name: "monsters/troll.png", body: "png"},
		zipEntry{name: "art/hag.png", body: "png"},
		zipEntry{name: "unknown.json", body: `[1,2,3]`},
	)
	// Into the primary campaign by default.
	res, err := installZip(t, env, "trolls.zip", data, InstallOptions{})
	if err != nil {
		t.Fatal(err)
	}
	campaignID := "C0FFEE00-0000-4000-8000-000000000001"
	if res != (Result{Kind: KindCampaign, ID: campaignID, Name: "Salt Marsh Nights"}) {
		t.Errorf("result %+v", res)
	}
	env.view(t, func(tx core.Tx) error {
		list, _ := tx.Entities(core.EntityQuery{Owner: campaignID, Kind: "monster"})
		if len(list) != 2 {
			t.Fatalf("monsters in campaign: %d", len(list))
		}
		for _, e := range list {
			p := filepath.Join(env.dataDir, filepath.FromSlash(e.Image))
			mustExist(t, p)
		}
		return nil
	})
	// Into a chosen module.
	res, err = installZip(t, env, "trolls.zip", makeZip(t, zipEntry{name: "spells.json", body: `[{"name":"Swamp Gas"}]`}), InstallOptions{Destination: "test-compendium"})
	if err != nil || res.Kind != KindModule || res.ID != "test-compendium" {
		t.Fatalf("%+v %v", res, err)
	}
	_, err = installZip(t, env, "trolls.zip", data, InstallOptions{Destination: "nowhere"})
	wantKind(t, err, core.KindNotFound, "nowhere")
}

func TestInstallSystemArchive(t *testing.T) {
	env := newTestEnv(t)
	data := makeZip(t,
		zipEntry{name: "system.json", body: `{"id":"pf2e","name":"Pathfinder","version":"1.2.0","entry":"system.lua"}`},
		zipEntry{name: "system.lua", body: `-- entry`},
		zipEntry{name: "monsters.json", body: `[{"name":"Kobold"}]`},
	)
	res, err := installZip(t, env, "pf2e.system", data, InstallOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if res != (Result{Kind: KindSystem, ID: "pf2e", Name: "Pathfinder"}) {
		t.Errorf("result %+v", res)
	}
	mustExist(t, filepath.Join(env.dataDir, "systems/pf2e/system.lua"))
	if _, _, e, _ := env.counts(t); e != 0 {
		t.Errorf("content of a system that is not loaded must not be imported: %d entities", e)
	}
	_, err = installZip(t, env, "pf2e.system", data, InstallOptions{})
	wantKind(t, err, core.KindConflict, "never overwritten")

	// The loaded system's own content is imported, tagged with its id.
	_, err = installZip(t, env, "dnd5e.system", makeZip(t,
		zipEntry{name: "system.json", body: `{"id":"dnd5e","name":"D&D"}`},
		zipEntry{name: "monsters.json", body: `[{"name":"Kobold"}]`},
	), InstallOptions{})
	if err != nil {
		t.Fatal(err)
	}
	env.view(t, func(tx core.Tx) error {
		list, _ := tx.Entities(core.EntityQuery{System: "dnd5e", Kind: "monster"})
		if len(list) != 1 {
			t.Errorf("system content: %d", len(list))
		}
		return nil
	})
	// A package announcing a module must not install a system.
	_, err = installZip(t, env, "x.module", makeZip(t, zipEntry{name: "system.json", body: `{"id":"x","name":"X"}`}), InstallOptions{Expect: KindModule})
	wantKind(t, err, core.KindInvalid, "says it is a module")
}

func TestInstallRefusesUnknownFiles(t *testing.T) {
	env := newTestEnv(t)
	_, err := installZip(t, env, "notes.txt", []byte("hello"), InstallOptions{})
	wantKind(t, err, core.KindInvalid, "unsupported file")
	_, err = installZip(t, env, "empty.module", nil, InstallOptions{})
	wantKind(t, err, core.KindInvalid, "empty")
}
