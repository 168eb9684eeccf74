package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vttapp/companion/imports"
)

// The commands that talk to the running server find it by its data folder
// with --data, as backup, restore and serve take it: the acceptance trial
// ran `companion import --data DIR FILE` and got "flag provided but not
// defined: -data".
func TestCommandsFindTheServerByDataFolder(t *testing.T) {
	t.Setenv("COMPANION_HOST_ADDR", "")
	t.Setenv("COMPANION_DATA", t.TempDir()) // another folder: --data must win
	data := t.TempDir()
	startServe(t, data, "--empty")

	xml := filepath.Join(t.TempDir(), "bats.xml")
	os.WriteFile(xml, []byte(`<compendium><monster><name>Trial Bat</name><size>T</size><type>beast</type><ac>12</ac><hp>1 (1d4-1)</hp><cr>0</cr></monster></compendium>`), 0o644)
	var out, errOut bytes.Buffer
	if code := runImport([]string{"--data", data, xml}, &out, &errOut); code != 0 {
		t.Fatalf("import --data: %d %s", code, errOut.String())
	}
	var res imports.Result
	if err := json.Unmarshal(out.Bytes(), &res); err != nil || res.Kind != "module" || res.Compendium == nil || res.Compendium.Entities != 1 {
		t.Fatalf("import --data: %s %v", out.String(), err)
	}

	out.Reset()
	errOut.Reset()
	file := filepath.Join(t.TempDir(), "bats.module")
	if code := runExport([]string{"--data", data, "-o", file, "module", res.ID}, &out, &errOut); code != 0 {
		t.Fatalf("export --data: %d %s", code, errOut.String())
	}
	if info, err := os.Stat(file); err != nil || info.Size() == 0 {
		t.Errorf("the export: %v", err)
	}

	errOut.Reset()
	if code := runHealth([]string{"--data", data}, &out, &errOut); code != 0 {
		t.Errorf("health --data: %d %s", code, errOut.String())
	}
	// A folder no server runs with says so, naming where it looked.
	errOut.Reset()
	if code := runImport([]string{"--data", t.TempDir(), xml}, &out, &errOut); code != 1 || !strings.Contains(errOut.String(), "not running") {
		t.Errorf("import into a folder no server runs with: %d %q", code, errOut.String())
	}
}
