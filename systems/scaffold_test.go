package systems

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vttapp/companion/core"
)

// TestScaffoldRunsAndPassesItsTests: a new system folder loads, passes its
// golden case as created, and its roll hooks answer.
func TestScaffoldRunsAndPassesItsTests(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "my-game")
	if err := Scaffold(dir, "my-game"); err != nil {
		t.Fatal(err)
	}
	if failed, err := RunGolden(dir, false, io.Discard); err != nil || failed != 0 {
		t.Fatalf("the new folder's golden case: %d failed, %v", failed, err)
	}
	data, _ := os.ReadFile(filepath.Join(dir, "tests", "hero-example.txtar"))
	for _, section := range []string{"-- view.json --", "-- page.html --", "-- actions.json --", "-- rolls.json --", "3d6kh2+2 · Push through (focused)"} {
		if !strings.Contains(string(data), section) {
			t.Errorf("the golden case lacks %q:\n%s", section, data)
		}
	}
	sys, err := LoadDir(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer sys.Close()
	e := &core.Entity{ID: "0f2c8a4e-0000-4000-8000-0000000000cc", Kind: "hero", Name: "Ayla", Slug: "ayla", Data: core.Object{"grit": 2.0}}
	actions, err := sys.ActionsFor(context.Background(), e)
	if err != nil || len(actions) != 1 {
		t.Fatalf("actions %+v %v", actions, err)
	}
	if o, err := sys.OutcomeOf(context.Background(), e, actions[0], nil, core.Rolled{Total: 11}); err != nil || o.Title != "Success" {
		t.Fatalf("outcome %+v %v", o, err)
	}
	if err := Scaffold(dir, "my-game"); err == nil || !strings.Contains(err.Error(), "not empty") {
		t.Fatalf("a second scaffold over the folder: %v", err)
	}
	if err := Scaffold(filepath.Join(t.TempDir(), "x"), "Bad Name"); err == nil {
		t.Fatal("a bad id was accepted")
	}
}
