package routes

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/systems"
)

// A failing system script is the server's fault, not the client's: 500
// with a plain message for the player, and the file:line in the log for
// the game master.
func TestFailingSystemScriptIs500AndLogged(t *testing.T) {
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS("testdata/minisys")); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(dir, "system.lua"), `local companion = require("companion")
companion.entity("widget", {
  collection = "widgets",
  view = function(e)
    if e.name == "Broken" then error("no gears in " .. e.name) end
    return { label = "Widget " .. e.name }
  end,
})
`)
	sys, err := systems.LoadDir(dir, systems.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer sys.Close()
	e := newEnv(t, envOptions{seed: func(tx core.Tx) error {
		w := &core.Entity{ID: "w1", Kind: "widget", System: "minisys", Name: "Broken"}
		w.Normalize(w.Created)
		return tx.PutEntity(w)
	}})
	e.holder.Swap(sys)
	for _, path := range []string{"/api/widgets/w1?schema=view", "/widget.w1"} {
		r := e.do(t, "GET", path, "", "Accept", "application/json")
		if r.status != 500 {
			t.Errorf("%s: status %d, want 500; %s", path, r.status, r.body)
		}
		if strings.Contains(string(r.body), "system.lua") || strings.Contains(string(r.body), "gears") {
			t.Errorf("%s: the player sees the script's error: %s", path, r.body)
		}
	}
	if logs := e.logs.String(); !strings.Contains(logs, "system.lua:5: no gears in Broken") {
		t.Errorf("the log does not locate the failure:\n%s", logs)
	}
}

// A script that fails with a huge message (error(s) takes any string the
// script built, up to 4 MiB) logs it cut, as a print() line is, still
// located: one failing request is not a 4 MB line in the log.
func TestScriptErrorTextIsCutInTheLog(t *testing.T) {
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS("testdata/minisys")); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(dir, "system.lua"), `local companion = require("companion")
companion.entity("widget", {
  collection = "widgets",
  view = function(e)
    error("huge " .. string.rep("x", 4194300))
  end,
})
`)
	sys, err := systems.LoadDir(dir, systems.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer sys.Close()
	e := newEnv(t, envOptions{seed: func(tx core.Tx) error {
		w := &core.Entity{ID: "w1", Kind: "widget", System: "minisys", Name: "Huge"}
		w.Normalize(w.Created)
		return tx.PutEntity(w)
	}})
	e.holder.Swap(sys)
	for range 3 {
		if r := e.do(t, "GET", "/api/widgets/w1?schema=view", "", "Accept", "application/json"); r.status != 500 {
			t.Fatalf("status %d, want 500", r.status)
		}
	}
	logs := e.logs.String()
	if !strings.Contains(logs, "system.lua:5: huge xxxx") {
		t.Errorf("the log does not locate the failure:\n%.300s", logs)
	}
	if len(logs) > 3*64<<10 {
		t.Errorf("three failing requests logged %d bytes", len(logs))
	}
}
