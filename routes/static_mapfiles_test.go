package routes

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/internal/testkit"
)

// A module's map pictures are the game master's until the map is on the
// player screen, as a campaign's are: a player who guesses or kept the
// URL gets 404, like for a missing file. The module's other files (token
// art, handouts) are served as ever, and the index of map files follows
// later writes.
func TestModuleMapPicturesHiddenUntilShown(t *testing.T) {
	const module, crypt = "mod-crypt", "mod-crypt-map"
	e := newEnv(t, envOptions{seed: func(tx core.Tx) error {
		if err := testkit.SeedFixture(tx); err != nil {
			return err
		}
		if err := tx.PutModule(&core.Module{ID: module, Name: "Crypt", System: "dnd5e"}); err != nil {
			return err
		}
		m := &core.Map{ID: crypt, Name: "Crypt", Owner: module, Image: "/modules/" + module + "/maps/crypt%20floor.jpg",
			Video: "/modules/" + module + "/maps/crypt.webm", Fog: "/modules/" + module + "/maps/crypt-fog.png"}
		m.Normalize()
		return tx.PutMap(m)
	}})
	dir := filepath.Join(e.dataDir, "modules", module)
	for _, name := range []string{"maps/crypt floor.jpg", "maps/crypt.webm", "maps/crypt-fog.png", "bat.png", "handout.pdf"} {
		writeFile(t, filepath.Join(dir, filepath.FromSlash(name)), "media")
	}
	status := func(path string) int {
		t.Helper()
		return e.do(t, "GET", path, "").status
	}
	mapFiles := []string{"/modules/" + module + "/maps/crypt%20floor.jpg", "/modules/" + module + "/maps/crypt.webm",
		"/modules/" + module + "/maps/crypt-fog.png"}
	for _, path := range mapFiles {
		if got := status(path); got != 404 {
			t.Errorf("GET %s of a module map off the player screen: %d, want 404", path, got)
		}
	}
	if got := status("/modules/" + module + "/bat.png"); got != 200 {
		t.Fatalf("a module's token art: %d, want 200", got)
	}

	ctx := context.Background()
	if _, err := e.svc.ShowMap(ctx, crypt); err != nil {
		t.Fatal(err)
	}
	for _, path := range mapFiles {
		if got := status(path); got != 200 {
			t.Errorf("GET %s of the module map on the player screen: %d, want 200", path, got)
		}
	}
	if _, err := e.svc.ShowMap(ctx, testkit.MapID); err != nil {
		t.Fatal(err)
	}
	if got := status(mapFiles[0]); got != 404 {
		t.Errorf("the picture once its map left the screen: %d, want 404", got)
	}

	// A map made later over a file served until then (the index was
	// filled by the requests above): that file is a hidden map's now.
	if _, err := e.svc.CreateMap(ctx, core.NewMap{Name: "Bat cave", Width: 70, Height: 70, Image: "/modules/" + module + "/bat.png"}); err != nil {
		t.Fatal(err)
	}
	if got := status("/modules/" + module + "/bat.png"); got != 404 {
		t.Errorf("the picture of a map created off screen: %d, want 404", got)
	}
	if got := status("/modules/" + module + "/handout.pdf"); got != 200 {
		t.Errorf("a module's handout: %d, want 200", got)
	}
}
