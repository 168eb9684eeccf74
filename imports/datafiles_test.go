package imports

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// jsonFilesUnder lists the JSON files under dir.
func jsonFilesUnder(t *testing.T, dir string) []string {
	t.Helper()
	var found []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.EqualFold(filepath.Ext(path), ".json") {
			found = append(found, path)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return found
}

// An installed module, campaign or loose collection keeps its media and
// none of its data files: the database holds what maps.json,
// combatants.json, messages.json and the rest held, and a copy on disk
// would only be a second, stale place for the game master's secrets. A
// system keeps its folder whole.
func TestInstallKeepsMediaNotDataFiles(t *testing.T) {
	env := newTestEnv(t)
	if err := Seed(context.Background(), env.svc, env.dataDir, os.DirFS("testdata/sample"), testCollections{}); err != nil {
		t.Fatal(err)
	}
	loose := makeZip(t,
		zipEntry{name: "monsters.json", body: `[{"name":"Marsh Troll","image":"troll.png"}]`},
		zipEntry{name: "monsters/troll.png", body: "png"},
		zipEntry{name: "gm-notes.json", body: `{"secret":"the troll is the mayor"}`},
	)
	if _, err := installZip(t, env, "trolls.zip", loose, InstallOptions{}); err != nil {
		t.Fatal(err)
	}
	for _, folder := range []string{"modules", "campaigns"} {
		dir := filepath.Join(env.dataDir, folder)
		if left := jsonFilesUnder(t, dir); len(left) > 0 {
			t.Errorf("data files kept in %s: %v", folder, left)
		}
	}
	mustExist(t, filepath.Join(env.dataDir, "modules/test-compendium/monsters/goblin.png"))
	if troll, _ := filepath.Glob(filepath.Join(env.dataDir, "campaigns", "*", "imports", "*", "monsters", "troll.png")); len(troll) != 1 {
		t.Errorf("the collection's image was not kept: %v", troll)
	}

	system := makeZip(t,
		zipEntry{name: "system.json", body: `{"id":"other","name":"Other","version":"1.0.0"}`},
		zipEntry{name: "monsters.json", body: `[]`},
	)
	if _, err := installZip(t, env, "o.system", system, InstallOptions{}); err != nil {
		t.Fatal(err)
	}
	mustExist(t, filepath.Join(env.dataDir, "systems/other/system.json"))
	mustExist(t, filepath.Join(env.dataDir, "systems/other/monsters.json"))
}
