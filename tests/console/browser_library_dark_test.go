package console

import (
	"bytes"
	"mime/multipart"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/vttapp/companion/internal/testkit"
	"github.com/vttapp/companion/tests/e2e"
)

// A legacy map with line of sight on, as the original application's
// modules often bring them, and no party token on it.
const darkModuleXML = `<?xml version="1.0" encoding="UTF-8"?>
<module id="DARK-MOD" version="2">
  <name>Dark Cellar</name>
  <slug>dark-cellar</slug>
  <map id="DARK-M1"><name>The Cellar</name><slug>the-cellar</slug><gridSize>70</gridSize><lineOfSight>YES</lineOfSight><daylight>0.0</daylight></map>
</module>`

// TestLibraryWarnsOfADarkMap: the acceptance trial put a legacy module's
// map on the player screen from the library and the players' screens
// stayed black (line of sight on, no party token there), with only "is on
// the player screen" said. The library now says why players see nothing,
// and stops saying it once a party token stands on the map.
func TestLibraryWarnsOfADarkMap(t *testing.T) {
	srv := e2e.StartServer(t, e2e.ServerOptions{})
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	fw, _ := mw.CreateFormFile("file", "Dark Cellar.module")
	fw.Write(testkit.Zip(t, "module.xml", darkModuleXML))
	mw.Close()
	if resp := e2e.GmuiDo(t, srv, "POST", "/host/api/import", &body, mw.FormDataContentType()); resp.Status != http.StatusCreated {
		t.Fatalf("import: %d %s", resp.Status, resp.Body)
	}
	gm := openConsole(t, srv)
	gm.WaitFor("the module in the library", `[...document.querySelectorAll("#library-owner option")].some(o => o.value === "DARK-MOD")`, 10*time.Second)
	gm.Eval(`(() => { const s = document.getElementById("library-owner"); s.value = "DARK-MOD"; s.dispatchEvent(new Event("change")); })()`)
	gm.WaitFor("the map in the tree", `document.querySelector("#library-tree [data-map=DARK-M1]")`, 10*time.Second)
	const warning = "Players see nothing of it yet"
	gm.Eval(`document.querySelector("#library-tree [data-map=DARK-M1]").click()`)
	gm.WaitFor("the warning", `document.getElementById("library-msg").textContent.startsWith("“The Cellar” is on the player screen. `+warning+`")`, 10*time.Second)

	// A party member on the map: players see through their eyes, no warning.
	resp := e2e.GmuiDo(t, srv, "POST", "/host/api/maps/DARK-M1/tokens", strings.NewReader(`{"reference": "/character/brannoc-saltbeard", "x": 105, "y": 105}`), "application/json")
	if resp.Status != http.StatusCreated || !strings.Contains(resp.Body, `"enabled":true`) || !strings.Contains(resp.Body, `"role":"friendly"`) {
		t.Fatalf("a party token: %d %s", resp.Status, resp.Body)
	}
	gm.Eval(`document.getElementById("library-msg").textContent = ""`)
	gm.WaitFor("the map button again", `document.querySelector("#library-tree [data-map=DARK-M1]") && !document.querySelector("#library-tree [data-map=DARK-M1]").disabled`, 10*time.Second)
	gm.Eval(`document.querySelector("#library-tree [data-map=DARK-M1]").click()`)
	gm.WaitFor("the plain message", `document.getElementById("library-msg").textContent === "“The Cellar” is on the player screen."`, 10*time.Second)
}
