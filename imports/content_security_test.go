package imports

import (
	"strings"
	"testing"
	"testing/fstest"

	"github.com/vttapp/companion/core"
)

func TestModuleImageRefusesScriptURLs(t *testing.T) {
	env := newTestEnv(t)
	fsys := fstest.MapFS{"module.json": {Data: []byte(`{"name":"Evil","image":"javascript://%0aalert(1)"}`)}}
	_, err := env.in.InstallFS(t.Context(), fsys, InstallOptions{})
	if err == nil || core.KindOf(err) != core.KindInvalid || !strings.Contains(err.Error(), "javascript") {
		t.Fatalf("got %v", err)
	}
}

// Entity data nested deeper than the system's Lua views can take would be
// stored and then fail every view and reference page of the entity.
func TestContentRefusesEntityDataNestedTooDeep(t *testing.T) {
	env := newTestEnv(t)
	deep := strings.Repeat("[", 150) + strings.Repeat("]", 150)
	fsys := fstest.MapFS{
		"module.json":   {Data: []byte(`{"name":"Deep"}`)},
		"monsters.json": {Data: []byte(`[{"name":"Deep One","data":{"x":` + deep + `}}]`)},
	}
	_, err := env.in.InstallFS(t.Context(), fsys, InstallOptions{})
	wantKind(t, err, core.KindInvalid, "nested deeper")
	if mods, _, ents, _ := env.counts(t); mods+ents != 0 {
		t.Errorf("installed %d modules %d entities", mods, ents)
	}
	ok := strings.Repeat(`{"a":`, 40) + "1" + strings.Repeat("}", 40)
	fsys["monsters.json"] = &fstest.MapFile{Data: []byte(`[{"name":"Fine One","data":{"x":` + ok + `}}]`)}
	if _, err := env.in.InstallFS(t.Context(), fsys, InstallOptions{}); err != nil {
		t.Fatal(err)
	}
}
