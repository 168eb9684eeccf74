package api

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/vttapp/companion/internal/shareddata"
	"github.com/vttapp/companion/tests/e2e"
)

// The fixture of the legacy XML readers: one entry of every compendium kind.
const legacyFixture = "../../imports/legacyxml/testdata/compendium.xml"

type compendiumResult struct {
	Kind, ID, Name string
	Compendium     *struct {
		Entities int
		Skipped  map[string]int
		Notes    []string
	}
}

// uploadFile posts a file to the host console's import, as its form does.
func uploadFile(t *testing.T, hostURL, name string, data []byte) (int, []byte) {
	t.Helper()
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	w, _ := mw.CreateFormFile("file", name)
	w.Write(data)
	mw.Close()
	resp, err := http.Post(hostURL+"/host/api/import", mw.FormDataContentType(), &body)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	out, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, out
}

// settleOffer accepts an offer and waits for it to settle.
func settleOffer(t *testing.T, hostURL, id string) (status string, result compendiumResult, errText string) {
	t.Helper()
	if status, body := importPost(t, hostURL+"/host/api/offers/"+id+"/accept", ``); status != http.StatusAccepted {
		t.Fatalf("accept %d %s", status, body)
	}
	deadline := time.Now().Add(60 * time.Second)
	for {
		var o struct {
			Status string
			Error  string
			Result *compendiumResult
		}
		e2e.ImportGetJSON(t, hostURL+"/host/api/offers/"+id, &o)
		if o.Status == "installed" || o.Status == "failed" || time.Now().After(deadline) {
			if o.Result != nil {
				result = *o.Result
			}
			return o.Status, result, o.Error
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func zipOf(t *testing.T, files map[string][]byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for name, data := range files {
		w, _ := zw.Create(name)
		w.Write(data)
	}
	zw.Close()
	return buf.Bytes()
}

// A game master arriving with compendium XML imports it through every path
// an archive takes; the monsters open as full stat blocks, for the game
// master and through a player's link.
func TestImportCompendiumThroughEveryPath(t *testing.T) {
	s := e2e.StartServer(t, e2e.ServerOptions{})
	fixture, err := os.ReadFile(legacyFixture)
	if err != nil {
		t.Fatal(err)
	}

	// The host console's upload: a bare XML file.
	status, body := uploadFile(t, s.HostURL, "Fen Bestiary.xml", fixture)
	var res compendiumResult
	if status != http.StatusCreated || json.Unmarshal(body, &res) != nil || res.Kind != "module" || res.Name != "Fen Bestiary" ||
		res.Compendium == nil || res.Compendium.Entities != 8 {
		t.Fatalf("upload: %d %s", status, body)
	}
	var modules []struct{ ID, Name, Category string }
	e2e.ImportGetJSON(t, s.HostURL+"/host/api/modules", &modules)
	found := false
	for _, m := range modules {
		found = found || (m.ID == res.ID && m.Category == "compendium")
	}
	if !found {
		t.Errorf("modules %+v", modules)
	}
	// The player's link to the monster: its full stat block.
	status, page := e2e.HttpGet(t, s.URL+"/monster/reed-stalker")
	for _, want := range []string{"Reed Stalker", "Medium monstrosity (amphibian), unaligned", "14 (natural armor)", "33 (6d8 + 6)",
		"30 ft., swim 40 ft.", "Dex +4, Wis +3", "2 (450 XP)", "Slip Away", "Lurk", "<strong>Bite:</strong> +4 to hit, 1d10 + 2"} {
		if !strings.Contains(page, want) {
			t.Errorf("the monster page (%d) lacks %q", status, want)
		}
	}
	for path, want := range map[string]string{"/class/warden": "Level 2", "/race/marsh-folk": "Dex +2, Wis +1", "/spell/mire-bolt": "1st-level evocation",
		"/item/heron-spear": "Weapon (heron spear), uncommon", "/feat/reedwalker": "Dexterity 13 or higher", "/background/ferryman": "Safe Passage"} {
		if status, page := e2e.HttpGet(t, s.URL+path); status != http.StatusOK || !strings.Contains(page, want) {
			t.Errorf("%s: %d, lacks %q", path, status, want)
		}
	}
	// The API's view, as the client reads it.
	var monsters []map[string]any
	e2e.ImportGetJSON(t, s.URL+"/api/monsters?schema=view", &monsters)
	seen := false
	for _, m := range monsters {
		if m["name"] == "Reed Stalker" {
			seen = m["armor_class"] == "14 (natural armor)" && m["challenge"] == "2 (450 XP)"
		}
	}
	if !seen {
		t.Errorf("GET /api/monsters?schema=view lacks the imported monster's view")
	}

	// `companion import FILE`: a .compendium archive with an image.
	img := []byte("\x89PNG\r\n\x1a\nimp")
	archive := zipOf(t, map[string][]byte{
		"compendium.xml":       []byte(`<compendium><monster><name>Bog Imp</name><size>T</size><ac>13</ac><hp>5 (2d4)</hp><image>bog-imp.png</image></monster></compendium>`),
		"monsters/bog-imp.png": img,
	})
	path := filepath.Join(t.TempDir(), "Imps.compendium")
	os.WriteFile(path, archive, 0o644)
	code, out, errOut := e2e.ImportRun(t, "import", "--host-addr", strings.TrimPrefix(s.HostURL, "http://"), path)
	var cli compendiumResult
	if code != 0 || json.Unmarshal([]byte(out), &cli) != nil || cli.Name != "Imps" || cli.Compendium.Entities != 1 {
		t.Fatalf("companion import: %d %q %q", code, out, errOut)
	}
	if status, got := e2e.HttpGet(t, s.URL+"/modules/"+cli.ID+"/monsters/bog-imp.png"); status != http.StatusOK || got != string(img) {
		t.Errorf("the imported image: %d %q", status, got)
	}
	if _, page := e2e.HttpGet(t, s.URL+"/monster/bog-imp"); !strings.Contains(page, `src="/modules/`+cli.ID+`/monsters/bog-imp.png"`) {
		t.Errorf("the monster page does not show its image")
	}

	// An offer by URL (POST /api/import), accepted on the host console.
	offered := zipOf(t, map[string][]byte{"compendium.xml": []byte(`<compendium><spell><name>Offered Spark</name><level>0</level><school>EV</school></spell></compendium>`)})
	content := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write(offered) }))
	defer content.Close()
	if status, body := importPost(t, s.URL+"/api/import", `{"url":"`+content.URL+`/sparks.compendium"}`); status != http.StatusAccepted {
		t.Fatalf("offer: %d %s", status, body)
	}
	var offers []importOffer
	e2e.ImportGetJSON(t, s.HostURL+"/host/api/offers", &offers)
	st, result, errText := settleOffer(t, s.HostURL, offers[len(offers)-1].ID)
	if st != "installed" || result.Name != "sparks" || result.Compendium == nil || result.Compendium.Entities != 1 {
		t.Fatalf("URL offer: %s %+v %s", st, result, errText)
	}

	// The file hand-off (what `companion launch FILE` sends): offered, then accepted.
	var form bytes.Buffer
	mw := multipart.NewWriter(&form)
	w, _ := mw.CreateFormFile("file", "Handed.xml")
	w.Write([]byte(`<?xml version="1.0"?><compendium><feat><name>Handed Feat</name><prerequisite>None</prerequisite></feat></compendium>`))
	mw.Close()
	resp, err := http.Post(s.HostURL+"/host/api/offers", mw.FormDataContentType(), &form)
	if err != nil {
		t.Fatal(err)
	}
	var fileOffer importOffer
	json.NewDecoder(resp.Body).Decode(&fileOffer)
	resp.Body.Close()
	st, result, errText = settleOffer(t, s.HostURL, fileOffer.ID)
	if st != "installed" || result.Name != "Handed" {
		t.Fatalf("file offer: %s %+v %s", st, result, errText)
	}
	if status, page := e2e.HttpGet(t, s.URL+"/feat/handed-feat"); status != http.StatusOK || !strings.Contains(page, "Handed Feat") {
		t.Errorf("the handed-off feat: %d", status)
	}

	// Hostile or unsupported XML: a clear error, nothing installed.
	e2e.ImportGetJSON(t, s.HostURL+"/host/api/modules", &modules)
	before := len(modules)
	for name, c := range map[string]struct {
		doc    string
		status int
		want   string
	}{
		"dtd.xml":     {`<?xml version="1.0"?><!DOCTYPE c [<!ENTITY x SYSTEM "file:///etc/passwd">]><compendium><monster><name>&x;</name></monster></compendium>`, 400, "DTD"},
		"broken.xml":  {"<compendium>\n<monster><name>Half</name>", 400, "broken.xml line 2, compendium/monster: the document ends inside <monster>"},
		"module.xml":  {`<module><name>Old</name><page id="P"><name>A</name></page><page id="P"><name>B</name></page></module>`, 400, "module.xml: page id 'P' is used by 'A' and 'B'"},
		"nothing.xml": {`<compendium><optionalfeature><name>x</name></optionalfeature></compendium>`, 400, "1 optionalfeature not imported: the system has no import hook for them"},
	} {
		status, body := uploadFile(t, s.HostURL, name, []byte(c.doc))
		var refusal struct{ Message string }
		json.Unmarshal(body, &refusal)
		if status != c.status || !strings.Contains(refusal.Message, c.want) {
			t.Errorf("%s: %d %s, want %d with %q", name, status, body, c.status, c.want)
		}
	}
	e2e.ImportGetJSON(t, s.HostURL+"/host/api/modules", &modules)
	if len(modules) != before {
		t.Errorf("a refused import left a module: %d, then %d", before, len(modules))
	}
}

// The real samples: the SRD spells and items in Fight Club's format, the
// documentation's compendium archive, and its legacy module.
func TestImportSharedLegacySamples(t *testing.T) {
	srd, err := os.ReadFile(shareddata.Path(t, "legacy/srd-spells-items.compendium.xml"))
	if err != nil {
		t.Fatal(err)
	}
	s := e2e.StartServer(t, e2e.ServerOptions{})
	status, body := uploadFile(t, s.HostURL, "srd-spells-items.compendium.xml", srd)
	var res compendiumResult
	if status != http.StatusCreated || json.Unmarshal(body, &res) != nil || res.Compendium.Entities != 46 || len(res.Compendium.Notes) != 0 {
		t.Fatalf("SRD compendium: %d %s", status, body)
	}
	for path, want := range map[string]string{
		"/spell/fireball":         "3rd-level evocation",
		"/spell/alarm":            "1st-level abjuration (ritual)",
		"/item/staff-of-healing":  "Staff, rare (requires attunement by a bard, cleric, or druid)",
		"/item/longsword":         "Martial melee weapon",
		"/spell/cure-wounds":      "1d8 + mod at 1st level",
		"/spell/prestidigitation": "<li>You instantaneously light or snuff out a candle",
	} {
		if status, page := e2e.HttpGet(t, s.URL+path); status != http.StatusOK || !strings.Contains(page, want) {
			t.Errorf("%s: %d, lacks %q", path, status, want)
		}
	}
	docs, err := os.ReadFile(shareddata.Path(t, "legacy/docs-example.compendium"))
	if err != nil {
		t.Fatal(err)
	}
	status, body = uploadFile(t, s.HostURL, "docs-example.compendium", docs)
	if status != http.StatusCreated || json.Unmarshal(body, &res) != nil || res.Compendium.Entities != 4 {
		t.Fatalf("docs compendium: %d %s", status, body)
	}
	if _, page := e2e.HttpGet(t, s.URL+"/monster/aboleth"); !strings.Contains(page, "Con +6, Int +8, Wis +6") || !strings.Contains(page, "Psychic Drain (Costs 2 Actions)") {
		t.Errorf("the Aboleth's page lacks its saves or legendary actions")
	}
	module, err := os.ReadFile(shareddata.Path(t, "legacy/docs-example.module"))
	if err != nil {
		t.Fatal(err)
	}
	status, body = uploadFile(t, s.HostURL, "docs-example.module", module)
	var lib struct {
		Library struct{ Pages, Maps, Encounters, Groups int }
	}
	if status != http.StatusCreated || json.Unmarshal(body, &lib) != nil || lib.Library.Pages != 1 || lib.Library.Maps != 1 || lib.Library.Encounters != 1 {
		t.Errorf("legacy module: %d %s", status, body)
	}
	// `companion import` of the legacy campaign, the host console's upload
	// of the pack.
	code, out, errOut := e2e.ImportRun(t, "import", "--host-addr", strings.TrimPrefix(s.HostURL, "http://"), shareddata.Path(t, "legacy/docs-example.campaign"))
	var camp struct {
		Kind    string
		Library struct{ Pages int }
	}
	if code != 0 || json.Unmarshal([]byte(out), &camp) != nil || camp.Kind != "campaign" || camp.Library.Pages != 1 {
		t.Errorf("companion import of the campaign: %d %q %q", code, out, errOut)
	}
	pack, err := os.ReadFile(shareddata.Path(t, "legacy/docs-example.pack"))
	if err != nil {
		t.Fatal(err)
	}
	status, body = uploadFile(t, s.HostURL, "docs-example.pack", pack)
	var assets struct{ Library struct{ Assets int } }
	if status != http.StatusCreated || json.Unmarshal(body, &assets) != nil || assets.Library.Assets != 3 {
		t.Errorf("legacy pack: %d %s", status, body)
	}
}

// An import of many entries shows its progress on the host console while
// it runs, then what it made. (The system's spell hook is slowed down so
// that the import lasts long enough to watch on any machine.)
func TestHostConsoleShowsCompendiumImportProgress(t *testing.T) {
	sys := e2e.DemoSystem(t, nil)
	lua := filepath.Join(sys, "system.lua")
	src, err := os.ReadFile(lua)
	if err != nil {
		t.Fatal(err)
	}
	// Under -race the server's Lua runs several times slower and each
	// call's thread is charged the detector's work too: a tenth of the
	// loop still lasts long enough to watch.
	spin := 300000
	if e2e.RaceEnabled {
		spin = 30000
	}
	slowed := strings.Replace(string(src), `companion.import.compendium("spell", import_spell.import)`,
		fmt.Sprintf(`companion.import.compendium("spell", function(el) for i = 1, %d do end return import_spell.import(el) end)`, spin), 1)
	if slowed == string(src) {
		t.Fatal("the system's spell import hook is not where the test expects it")
	}
	os.WriteFile(lua, []byte(slowed), 0o644)
	srv := e2e.StartServer(t, e2e.ServerOptions{Args: []string{"--system", sys}})

	var doc strings.Builder
	doc.WriteString("<compendium>")
	for i := 0; i < 400; i++ {
		fmt.Fprintf(&doc, "<spell><name>Spark %d</name><level>0</level><school>EV</school><text>A spark.</text></spell>", i)
	}
	doc.WriteString("</compendium>")
	file := filepath.Join(t.TempDir(), "Sparks.xml")
	os.WriteFile(file, []byte(doc.String()), 0o644)

	p := e2e.NewPage(t, "host console", e2e.DesktopSize)
	p.Navigate(srv.HostURL + "/host/")
	p.WaitFor("the import form", `!!document.getElementById("import-file")`, 20*time.Second)
	p.Do(chromedp.SetUploadFiles(chromedp.CSS("#import-file"), []string{file}))
	p.Eval(`(() => {
		window.progressSeen = [];
		new MutationObserver(() => {
			const t = document.getElementById("import-progress").textContent;
			if (t) window.progressSeen.push(t);
		}).observe(document.getElementById("import-progress"), { childList: true, subtree: true, characterData: true });
		document.getElementById("import-button").click();
		return true;
	})()`)
	// The wait ends on the import's outcome, either way, so that a
	// failure says what it was.
	p.WaitFor("the import's outcome", `(() => { const m = document.getElementById("import-msg"); return m.textContent.startsWith("Imported module") || m.classList.contains("bad"); })()`, 120*time.Second)
	if msg := p.Eval(`document.getElementById("import-msg").textContent`).(string); !strings.HasPrefix(msg, "Imported module") {
		t.Fatalf("the import failed: %s", msg)
	}
	var seen []string
	p.EvalInto(`window.progressSeen`, &seen)
	reading := false
	for _, text := range seen {
		reading = reading || strings.HasPrefix(text, "Reading entries: ")
	}
	if !reading {
		t.Errorf("no progress was shown while the import ran: %q", seen)
	}
	var msg string
	p.EvalInto(`document.getElementById("import-msg").textContent`, &msg)
	if msg != "Imported module “Sparks”: 400 entries" {
		t.Errorf("message %q", msg)
	}
	var left string
	p.EvalInto(`document.getElementById("import-progress").textContent`, &left)
	if left != "" {
		t.Errorf("the progress stays after the import: %q", left)
	}
}
