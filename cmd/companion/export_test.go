package main

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vttapp/companion/imports"
)

func TestExportCommand(t *testing.T) {
	addr, _, _ := hostConsole(t)
	src := filepath.Join(t.TempDir(), "bats.module")
	os.WriteFile(src, linkTestModule(t, "Marsh Bats"), 0o644)
	var out, errOut bytes.Buffer
	if code := runImport([]string{"--host-addr", addr, src}, &out, &errOut); code != 0 {
		t.Fatalf("import: %d %s", code, errOut.String())
	}
	var mod imports.Result
	json.Unmarshal(out.Bytes(), &mod)

	// Flags may come after the kind and id; the file is whole once renamed.
	dir := t.TempDir()
	target := filepath.Join(dir, "saved.module")
	out.Reset()
	errOut.Reset()
	if code := runExport([]string{"--host-addr", addr, "module", mod.ID, "-o", target}, &out, &errOut); code != 0 {
		t.Fatalf("export: %d %s", code, errOut.String())
	}
	var res exportResult
	if err := json.Unmarshal(out.Bytes(), &res); err != nil || res.File != target || res.Kind != "module" || res.ID != mod.ID {
		t.Fatalf("%s %v", out.String(), err)
	}
	data, _ := os.ReadFile(target)
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil || int64(len(data)) != res.Bytes {
		t.Fatalf("not a whole zip of %d bytes: %v", res.Bytes, err)
	}
	var names []string
	for _, f := range zr.File {
		names = append(names, f.Name)
	}
	if got := strings.Join(names, ","); !strings.Contains(got, "module.json") || !strings.Contains(got, "monsters.json") || !strings.Contains(got, "padding.bin") {
		t.Errorf("archive holds %s", got)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("the folder holds %d files: a temporary one was left", len(entries))
	}

	// Under the server's own name, in the working folder. (Without an id,
	// the primary campaign: tests/api/backup_test.go, on a real server.)
	t.Chdir(dir)
	out.Reset()
	if code := runExport([]string{"--host-addr", addr, "campaign", "camp"}, &out, &errOut); code != 0 {
		t.Fatalf("campaign: %d %s", code, errOut.String())
	}
	if err := json.Unmarshal(out.Bytes(), &res); err != nil || res.File != "demo.campaign" || res.ID != "camp" {
		t.Fatalf("%s %v", out.String(), err)
	}
	if _, err := os.Stat(filepath.Join(dir, "demo.campaign")); err != nil {
		t.Fatal(err)
	}

	for _, tc := range []struct {
		args []string
		code int
		says string
	}{
		{[]string{"--host-addr", addr, "module", "nope"}, 1, "no module with id 'nope'"},
		{[]string{"--host-addr", addr, "module"}, 2, "usage"},
		{[]string{"--host-addr", addr, "system", "dnd5e"}, 2, "usage"},
		{[]string{"--host-addr", "127.0.0.1:1", "module", "x"}, 1, "not running"},
	} {
		errOut.Reset()
		if code := runExport(tc.args, &out, &errOut); code != tc.code || !strings.Contains(errOut.String(), tc.says) {
			t.Errorf("%v: %d %q", tc.args, code, errOut.String())
		}
	}
}
