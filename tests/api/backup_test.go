package api

import (
	"bytes"
	"encoding/json"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vttapp/companion/tests/e2e"
)

// playSomeGame changes the demo game in ways an export and a backup must
// keep: a move, a hidden token, a message, a private roll, damage, the
// next turn, and a picture map with its grid set.
func playSomeGame(t *testing.T, s *e2e.Server) {
	t.Helper()
	var campaign struct {
		Maps []struct{ ID string } `json:"maps"`
		Game struct {
			Combatants []struct{ ID, Name string } `json:"combatants"`
		} `json:"game"`
	}
	if status := e2e.ImportGetJSON(t, s.HostURL+"/host/api/campaign", &campaign); status != 200 || len(campaign.Maps) == 0 || len(campaign.Game.Combatants) < 2 {
		t.Fatalf("campaign %d %+v", status, campaign)
	}
	var m struct {
		Tokens []struct{ ID string } `json:"tokens"`
	}
	e2e.ImportGetJSON(t, s.HostURL+"/host/api/maps/"+campaign.Maps[0].ID, &m)
	steps := []struct{ method, path, body string }{
		{"PATCH", "/host/api/tokens/" + m.Tokens[0].ID, `{"x": 385, "y": 455}`},
		{"PATCH", "/host/api/tokens/" + m.Tokens[1].ID, `{"hidden": true}`},
		{"POST", "/host/api/messages", `{"text": "The bells ring at midnight."}`},
		{"POST", "/host/api/messages", `{"text": "/roll 1d20+3", "private": true}`},
		{"POST", "/host/api/combatants/" + campaign.Game.Combatants[1].ID + "/hitpoints", `{"damage": 7}`},
		{"POST", "/host/api/game/next", ""},
	}
	for _, st := range steps {
		if status, body := e2e.HostCall(t, s, st.method, st.path, st.body); status >= 300 {
			t.Fatalf("%s %s: %d %s", st.method, st.path, status, body)
		}
	}
	// A picture becomes a map waiting for its grid; the grid is set.
	var img bytes.Buffer
	png.Encode(&img, image.NewGray(image.Rect(0, 0, 700, 490)))
	picture := filepath.Join(t.TempDir(), "Bell Tower.png")
	os.WriteFile(picture, img.Bytes(), 0o644)
	code, out, errOut := e2e.ImportRun(t, "import", "--host-addr", strings.TrimPrefix(s.HostURL, "http://"), picture)
	var res struct {
		Kind, ID    string
		GridPending bool `json:"gridPending"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &res) != nil || res.Kind != "map" || !res.GridPending {
		t.Fatalf("import of a picture: %d %s %s", code, out, errOut)
	}
	if status, body := e2e.HostCall(t, s, "POST", "/host/api/screen", `{"mapId": "`+res.ID+`"}`); status != 409 {
		t.Fatalf("a map waiting for its grid went on screen: %d %s", status, body)
	}
	if status, body := e2e.HostCall(t, s, "PUT", "/host/api/maps/"+res.ID+"/grid", `{"gridSize": 70, "gridOffsetX": 10}`); status != 200 {
		t.Fatalf("set grid: %d %s", status, body)
	}
}

// The acceptance of issue 22's export: export the demo campaign (and the
// module its monsters come from, as companion export says), import them
// into a fresh data folder, and find the same game.
func TestExportTheDemoCampaignIntoAFreshDataFolder(t *testing.T) {
	s := e2e.StartServer(t, e2e.ServerOptions{})
	playSomeGame(t, s)
	want := e2e.GameOf(t, s)

	dir := t.TempDir()
	host := strings.TrimPrefix(s.HostURL, "http://")
	code, out, errOut := e2e.ImportRun(t, "export", "--host-addr", host, "-o", filepath.Join(dir, "demo.campaign"), "campaign")
	var res struct {
		ID    string
		Needs []struct{ Kind, ID, Name string }
	}
	if code != 0 || json.Unmarshal([]byte(out), &res) != nil || len(res.Needs) != 1 || !strings.Contains(errOut, "export it too") {
		t.Fatalf("export campaign: %d %s %s", code, out, errOut)
	}
	need := res.Needs[0]
	if code, out, errOut = e2e.ImportRun(t, "export", "--host-addr", host, "-o", filepath.Join(dir, "demo.module"), need.Kind, need.ID); code != 0 {
		t.Fatalf("export module: %d %s %s", code, out, errOut)
	}

	fresh := e2e.StartServer(t, e2e.ServerOptions{Args: []string{"--empty"}})
	freshHost := strings.TrimPrefix(fresh.HostURL, "http://")
	for _, file := range []string{"demo.module", "demo.campaign"} {
		if code, out, errOut := e2e.ImportRun(t, "import", "--host-addr", freshHost, filepath.Join(dir, file)); code != 0 {
			t.Fatalf("import %s: %d %s %s", file, code, out, errOut)
		}
	}
	e2e.SameGame(t, "after export and import", want, e2e.GameOf(t, fresh))
}

// companion backup while the server plays, companion restore into a fresh
// folder (never into the running server's), and a server started on the
// restored folder has the same game.
func TestBackupWhileRunningAndRestore(t *testing.T) {
	s := e2e.StartServer(t, e2e.ServerOptions{})
	playSomeGame(t, s)
	want := e2e.GameOf(t, s)

	saved := filepath.Join(t.TempDir(), "saved")
	code, out, errOut := e2e.ImportRun(t, "backup", "--data", s.DataDir, saved)
	if code != 0 || !strings.Contains(out, `"path":"`+saved+`"`) {
		t.Fatalf("backup: %d %s %s", code, out, errOut)
	}
	// The game goes on after the backup; the backup keeps its moment.
	e2e.HostCall(t, s, "POST", "/host/api/messages", `{"text": "said after the backup"}`)

	code, _, errOut = e2e.ImportRun(t, "restore", "--replace", "--data", s.DataDir, saved)
	if code != 1 || !strings.Contains(errOut, "is running") {
		t.Fatalf("restore over the running server: %d %s", code, errOut)
	}
	fresh := filepath.Join(t.TempDir(), "restored")
	if code, out, errOut := e2e.ImportRun(t, "restore", "--data", fresh, saved); code != 0 {
		t.Fatalf("restore: %d %s %s", code, out, errOut)
	}
	restored := e2e.StartServer(t, e2e.ServerOptions{DataDir: fresh})
	e2e.SameGame(t, "after backup and restore", want, e2e.GameOf(t, restored))
	// The restored server's files are served: the picture map's background
	// (to the game master: a map off the player screen keeps its picture
	// from players).
	var campaign struct {
		Maps []struct{ Image string } `json:"maps"`
	}
	e2e.ImportGetJSON(t, restored.HostURL+"/host/api/campaign", &campaign)
	for _, m := range campaign.Maps {
		if m.Image == "" {
			continue
		}
		if status, _ := get(t, restored.HostURL+m.Image); status != 200 {
			t.Errorf("%s: %d on the restored server", m.Image, status)
		}
	}
}
