package api

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/vttapp/companion/tests/e2e"
)

// TestPlayersNeverReceiveTablesOrWhatWasTakenBack walks what the game
// master keeps to the table's side: random tables and their private
// rolls (by the API and by the /table command), and handouts and pages
// taken back from the journal. A player reads every path there is while
// it happens, a player who joins afterwards reads the game as it stands,
// and neither ever holds a table's name or row, nor, once it is taken
// back, a handout's words or a page's text.
func TestPlayersNeverReceiveTablesOrWhatWasTakenBack(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and starts the companion binary")
	}
	srv := e2e.StartServer(t, e2e.ServerOptions{})
	host := e2e.NewAPIClient(t, srv.HostURL)
	public := e2e.NewAPIClient(t, srv.URL)
	hostDo := func(method, path, body string, want int) []byte {
		t.Helper()
		r := host.Do(method, path, body)
		if r.Status != want {
			t.Fatalf("%s %s: %d %s", method, path, r.Status, r.Body)
		}
		return r.Body
	}

	p1 := walkDial(t, srv.URL)
	p1.send("clientUpdated", map[string]any{"name": "Tom"}, "")
	p1.send("takeSeat", map[string]any{"seatId": e2e.DemoIlsaChar, "player": "Tom"}, "seat")
	p1.waitFor(`"responseId":"seat"`, "seatToken")
	seat := walkSeatToken(t, p1, `"responseId":"seat"`)
	var bodies []walkBody
	read := func(path string) e2e.ApiReply {
		t.Helper()
		r := public.Do("GET", path, "", "X-Companion-Seat", seat)
		bodies = append(bodies, walkBody{path, r})
		return r
	}

	// A table, rolled privately by the API, by the game master's /table
	// command and its public form is not used; a player tries the command.
	var table struct{ ID, Slug string }
	json.Unmarshal(hostDo("POST", "/host/api/tables", `{"name": "SECRET-TABLE-NAME", "columns": [{"name": "d4"}, {"name": "Find"}], "rows": [["1-4", "SECRET-TABLE-ROW"]]}`, 201), &table)
	if table.Slug == "" {
		t.Fatal("the table has no slug")
	}
	hostDo("POST", "/host/api/tables/"+table.ID+"/roll", `{}`, 200)
	hostDo("POST", "/host/api/messages", `{"text": "/table `+table.Slug+`"}`, 201)
	p1.send("createMessage", map[string]any{"text": "/table " + table.Slug}, "player-table")
	p1.waitFor(`"responseId":"player-table"`)
	for _, path := range []string{"/table/" + table.Slug, "/campaign/" + e2eDemoCampaign(t, host) + "/table/" + table.Slug} {
		if r := read(path); r.Status != 404 {
			t.Errorf("GET %s on the player listener: %d, want 404 (tables are the game master's)", path, r.Status)
		}
	}

	// A text handout shown, then cleared and taken back; the demo's page
	// shown, then taken back.
	hostDo("PATCH", "/host/api/screen/overlay", `{"overlayHandoutText": "SECRET-REVOKED-HANDOUT"}`, 200)
	p1.waitFor(`"journalUpdated"`, "SECRET-REVOKED-HANDOUT") // it was shown: the walk is not empty
	hostDo("DELETE", "/host/api/screen/overlay", "", 200)
	var library []struct {
		ID, Kind string
		Primary  bool
	}
	host.Get("/host/api/library", &library)
	var pageID string
	for _, l := range library {
		if l.Kind == "campaign" && l.Primary {
			var lib struct{ Items []*walkLibraryItem }
			host.Get("/host/api/library/"+l.ID, &lib)
			pageID = firstPage(lib.Items)
		}
	}
	if pageID == "" {
		t.Fatal("the demo campaign has no page to show")
	}
	var shown struct{ URL string }
	json.Unmarshal(hostDo("POST", "/host/api/pages/"+pageID+"/show", `{"overlay": false}`, 200), &shown)
	if r := read(shown.URL); r.Status != 200 {
		t.Fatalf("the shown page %s: %d, want it readable while shown", shown.URL, r.Status)
	}
	pageText := string(bodies[len(bodies)-1].reply.Body)
	if !walkHasParagraph(pageText) {
		t.Fatalf("the demo's page has no paragraph to look for once it is taken back:\n%.500s", pageText)
	}
	var journal struct {
		Entries []struct{ ID, Kind, Text, PageID string }
	}
	host.Get("/host/api/journal", &journal)
	revoked := 0
	for _, e := range journal.Entries {
		if e.Text == "SECRET-REVOKED-HANDOUT" || e.PageID == pageID {
			hostDo("POST", "/host/api/journal/"+e.ID+"/revoke", "", 200)
			revoked++
		}
	}
	if revoked != 2 {
		t.Fatalf("taken back %d journal entries, want the handout and the page: %+v", revoked, journal.Entries)
	}
	before := len(p1.all()) // frames before the revokes' broadcasts may hold the handout

	// After: a late player, and every read.
	p2 := walkDial(t, srv.URL)
	p2.send("clientUpdated", map[string]any{"name": "Late"}, "")
	p1.send("createMessage", map[string]any{"text": "walk done"}, "")
	for _, p := range []*walkSocket{p1, p2} {
		p.waitFor(`"messageCreated"`, "walk done")
	}
	if r := read(shown.URL); r.Status != 404 {
		t.Errorf("the page taken back %s: %d, want 404", shown.URL, r.Status)
	}
	for _, path := range []string{"/api", "/api/me", "/api/me/journal", "/api/me/character", "/api/clients", "/api/openapi.json"} {
		read(path)
	}

	for _, b := range bodies {
		if b.path == shown.URL && b.reply.Status == 200 {
			continue // read while shown
		}
		walkNoSecret(t, "GET "+b.path, string(b.reply.Body), []string{table.ID})
		if b.reply.Status == 200 && b.path != "/api/openapi.json" {
			walkNoPageText(t, "GET "+b.path, string(b.reply.Body), pageText)
		}
	}
	for i, f := range p1.all() {
		text := string(f)
		if i < before && strings.Contains(text, "SECRET-REVOKED-HANDOUT") {
			continue // shown then, taken back since
		}
		walkNoSecret(t, "Tom's frame", text, []string{table.ID})
	}
	for _, f := range p2.all() {
		walkNoSecret(t, "the late player's frame", string(f), []string{table.ID})
	}
}

// walkParagraphs are a page's plain paragraphs long enough to be its own.
func walkParagraphs(page string) []string {
	var out []string
	for _, para := range strings.Split(page, "<p>")[1:] {
		para, _, _ = strings.Cut(para, "</p>")
		if len(para) > 24 && !strings.ContainsAny(para, "<&") {
			out = append(out, para)
		}
	}
	return out
}

func walkHasParagraph(page string) bool { return len(walkParagraphs(page)) > 0 }

// walkNoPageText fails when text carries a paragraph of the page taken
// back.
func walkNoPageText(t *testing.T, what, text, page string) {
	t.Helper()
	for _, para := range walkParagraphs(page) {
		if strings.Contains(text, para) {
			t.Errorf("%s carries the page taken back: %.80s", what, para)
			return
		}
	}
}

// e2eDemoCampaign is the id of the primary campaign.
func e2eDemoCampaign(t *testing.T, host interface {
	Get(string, any) e2e.ApiReply
}) string {
	var c struct{ Campaign struct{ ID string } }
	host.Get("/host/api/campaign", &c)
	return c.Campaign.ID
}

// walkLibraryItem is a node of GET /host/api/library/{owner}.
type walkLibraryItem struct {
	Type, ID string
	Children []*walkLibraryItem
}

// firstPage is the id of the first page of a library tree.
func firstPage(items []*walkLibraryItem) string {
	for _, it := range items {
		if it.Type == "page" {
			return it.ID
		}
		if id := firstPage(it.Children); id != "" {
			return id
		}
	}
	return ""
}
