package api

import (
	"encoding/json"
	"net/url"
	"strings"
	"testing"

	"github.com/vttapp/companion/tests/e2e"
)

// TestTablesOverTheHostAPI: the game master stores tables (CSV with a
// name, the original's JSON with its rows as a string), rolls them
// privately (no player hears of it) or for everyone, from the API, the
// chat and the table's page; bad tables are refused with their reason and
// nothing is stored; the public listener serves no table.
func TestTablesOverTheHostAPI(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and starts the companion binary")
	}
	srv := e2e.StartServer(t, e2e.ServerOptions{})
	host := e2e.NewAPIClient(t, srv.HostURL)
	public := e2e.NewAPIClient(t, srv.URL)
	player := walkDial(t, srv.URL)
	player.send("clientUpdated", map[string]any{"name": "Ann"}, "")

	csv := "d100,Treasure\n01-50,TREASURECOPPER\n51-90,TREASURESILVER\n91-00,a gem: /table/gems\n"
	r := host.Do("POST", "/host/api/tables?name="+url.QueryEscape("Treasure Hoard"), csv, "Content-Type", "text/csv")
	if r.Status != 201 {
		t.Fatalf("a CSV table: %d %s", r.Status, r.Body)
	}
	var hoard struct{ ID, Slug string }
	json.Unmarshal(r.Body, &hoard)
	if hoard.Slug != "treasure-hoard" {
		t.Fatalf("the CSV table: %s", r.Body)
	}
	r = host.Do("POST", "/host/api/tables", `{"name":"Gems","columns":[{"name":"Gem"}],"rows":"[[\"GEMJADE\"],[\"GEMONYX\"]]","rollMode":"noRepeat"}`)
	if r.Status != 201 {
		t.Fatalf("the original's JSON table: %d %s", r.Status, r.Body)
	}
	for _, bad := range []struct {
		name, body, ctype string
		status            int
		words             string
	}{
		{"a ragged CSV", "d6,x\n1-3,a\n4-6,b,c\n", "text/csv", 400, "CSV line 3 has 3 cells"},
		{"a self link", `{"name":"Loop","columns":[{"name":"x"}],"rows":[["/table/loop"]]}`, "", 400, "links the table itself"},
		{"overlapping ranges", `{"name":"O","columns":[{"name":"d6"},{"name":"x"}],"rows":[["1-4","a"],["3-6","b"]]}`, "", 400, "overlaps"},
		{"a 50 MB body", strings.Repeat("a,b\n", 50<<18), "text/csv", 413, "limit"},
	} {
		path := "/host/api/tables?name=Bad"
		headers := []string{}
		if bad.ctype != "" {
			headers = append(headers, "Content-Type", bad.ctype)
		}
		r := host.Do("POST", path, bad.body, headers...)
		if r.Status != bad.status || !strings.Contains(string(r.Body), bad.words) {
			t.Errorf("%s: %d %s", bad.name, r.Status, r.Body)
		}
	}
	var list []map[string]any
	host.Get("/host/api/tables", &list)
	if len(list) != 2 {
		t.Fatalf("the tables stored: %d", len(list))
	}
	// They stand in the campaign's library tree, linking their pages.
	var campaign struct{ Campaign struct{ ID string } }
	host.Get("/host/api/campaign", &campaign)
	if tree := host.Do("GET", "/host/api/library/"+campaign.Campaign.ID, ""); !strings.Contains(string(tree.Body), `"type":"table"`) || !strings.Contains(string(tree.Body), `"url":"/table/treasure-hoard"`) {
		t.Errorf("the library tree lacks the tables: %.400s", tree.Body)
	}

	// Private by default: the host hears of it, the player does not.
	r = host.Do("POST", "/host/api/tables/"+hoard.ID+"/roll", "")
	if r.Status != 200 || !strings.Contains(string(r.Body), `"private":true`) || !strings.Contains(string(r.Body), "Treasure Hoard") {
		t.Fatalf("a private roll: %d %s", r.Status, r.Body)
	}
	r = host.Do("POST", "/host/api/tables/gems/roll", `{"private": false}`)
	if r.Status != 200 || strings.Contains(string(r.Body), `"private":true`) {
		t.Fatalf("a public roll: %d %s", r.Status, r.Body)
	}
	player.waitFor(`"messageCreated"`, `"type":"tableRoll"`, "GEM")
	if r := host.Do("POST", "/host/api/messages", `{"text":"/table public treasure hoard"}`); r.Status != 201 {
		t.Fatalf("/table in the console's chat: %d %s", r.Status, r.Body)
	}
	player.waitFor(`"messageCreated"`, `Treasure Hoard`)
	for _, f := range player.all() {
		if strings.Count(string(f), `"tableRoll"`) > 0 && strings.Contains(string(f), `"private":true`) {
			t.Fatalf("a player received a private table roll: %s", f)
		}
	}
	if got := strings.Count(strings.Join(frameTexts(player), "\n"), `"type":"tableRoll"`); got != 2 {
		t.Fatalf("the player received %d table rolls, want the 2 public ones", got)
	}

	// The table's page: its grid and a Roll button; a roll shows its result.
	page := host.Do("GET", "/table/treasure-hoard", "", "Accept", "text/html")
	if page.Status != 200 || !strings.Contains(string(page.Body), "TREASURESILVER") || !strings.Contains(string(page.Body), "Roll (private)") {
		t.Fatalf("the table's page: %d %.300s", page.Status, page.Body)
	}
	rolled := host.Do("POST", "/table/treasure-hoard", "private=true", "Content-Type", "application/x-www-form-urlencoded", "Origin", srv.HostURL)
	if rolled.Status != 200 || !strings.Contains(string(rolled.Body), "1d100: ") || !strings.Contains(string(rolled.Body), "for you alone") {
		t.Fatalf("a roll from the page: %d %.500s", rolled.Status, rolled.Body)
	}
	// Players read no table.
	for _, path := range []string{"/table/treasure-hoard", "/host/api/tables"} {
		if r := public.Do("GET", path, ""); r.Status == 200 || strings.Contains(string(r.Body), "TREASURE") {
			t.Errorf("the public listener's %s: %d %.200s", path, r.Status, r.Body)
		}
	}
}

func frameTexts(s *walkSocket) []string {
	var out []string
	for _, f := range s.all() {
		out = append(out, string(f))
	}
	return out
}
