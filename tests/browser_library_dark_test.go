package tests

import (
	"bytes"
	"mime/multipart"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/vttapp/companion/internal/testkit"
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
	srv := StartServer(t, ServerOptions{})
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	fw, _ := mw.CreateFormFile("file", "Dark Cellar.module")
	fw.Write(testkit.Zip(t, "module.xml", darkModuleXML))
	mw.Close()
	if resp := gmuiDo(t, srv, "POST", "/host/api/import", &body, mw.FormDataContentType()); resp.status != http.StatusCreated {
		t.Fatalf("import: %d %s", resp.status, resp.body)
	}
	gm := openConsole(t, srv)
	gm.waitFor("the module in the library", `[...document.querySelectorAll("#library-owner option")].some(o => o.value === "DARK-MOD")`, 10*time.Second)
	gm.eval(`(() => { const s = document.getElementById("library-owner"); s.value = "DARK-MOD"; s.dispatchEvent(new Event("change")); })()`)
	gm.waitFor("the map in the tree", `document.querySelector("#library-tree [data-map=DARK-M1]")`, 10*time.Second)
	const warning = "Players see nothing of it yet"
	gm.eval(`document.querySelector("#library-tree [data-map=DARK-M1]").click()`)
	gm.waitFor("the warning", `document.getElementById("library-msg").textContent.startsWith("“The Cellar” is on the player screen. `+warning+`")`, 10*time.Second)

	// A party member on the map: players see through their eyes, no warning.
	resp := gmuiDo(t, srv, "POST", "/host/api/maps/DARK-M1/tokens", strings.NewReader(`{"reference": "/character/brannoc-saltbeard", "x": 105, "y": 105}`), "application/json")
	if resp.status != http.StatusCreated || !strings.Contains(resp.body, `"enabled":true`) || !strings.Contains(resp.body, `"role":"friendly"`) {
		t.Fatalf("a party token: %d %s", resp.status, resp.body)
	}
	gm.eval(`document.getElementById("library-msg").textContent = ""`)
	gm.waitFor("the map button again", `document.querySelector("#library-tree [data-map=DARK-M1]") && !document.querySelector("#library-tree [data-map=DARK-M1]").disabled`, 10*time.Second)
	gm.eval(`document.querySelector("#library-tree [data-map=DARK-M1]").click()`)
	gm.waitFor("the plain message", `document.getElementById("library-msg").textContent === "“The Cellar” is on the player screen."`, 10*time.Second)
}
