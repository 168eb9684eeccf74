package routes

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"mime/multipart"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/imports"
	"github.com/vttapp/companion/internal/shareddata"
	"github.com/vttapp/companion/internal/testkit"
)

func batsArchive(t *testing.T, version, monster string) []byte {
	return testkit.Zip(t,
		"module.json", `{"name":"Marsh Bats","system":"dnd5e","version":"`+version+`"}`,
		"monsters.json", `[{"name":"`+monster+`","image":"bat.png"}]`,
		"monsters/bat.png", "png "+version,
	)
}

func batsManifest(env *importEnv, version, download string) []byte {
	data, _ := json.Marshal(map[string]any{"id": "marsh-bats", "name": "Marsh Bats", "type": "module", "version": version,
		"download": env.content.URL + download})
	return data
}

// An offer made through POST /api/import is listed, accepted and installed
// on the host console; the module round trip (update, delete) leaves
// nothing behind.
func TestHostOfferAcceptUpdateDelete(t *testing.T) {
	env := newImportEnv(t)
	env.content.put("/v1.module", batsArchive(t, "1.0.0", "Cave Bat"))
	env.content.put("/manifest.json", batsManifest(env, "1.0.0", "/v1.module"))

	body, _ := json.Marshal(map[string]string{"manifest": env.content.URL + "/manifest.json"})
	status, reply := testkit.Do(t, "POST", env.public.URL+"/api/import", "application/json", bytes.NewReader(body))
	if status != http.StatusAccepted {
		t.Fatalf("%d %s", status, reply)
	}
	status, reply = testkit.Do(t, "GET", env.host.URL+"/host/api/offers", "", nil)
	var offers []imports.Offer
	importJSON(t, reply, &offers)
	if status != http.StatusOK || len(offers) != 1 {
		t.Fatalf("%d %s", status, reply)
	}
	o := importWaitOffer(t, env, offers[0].ID, true)
	if o.Package == nil || o.Package.Name != "Marsh Bats" || o.Package.Version != "1.0.0" || o.Package.Type != "module" || o.Package.Installed != "none" {
		t.Fatalf("offer %+v", o)
	}
	status, reply = testkit.Do(t, "POST", env.host.URL+"/host/api/offers/"+o.ID+"/accept", "", nil)
	if status != http.StatusAccepted {
		t.Fatalf("accept %d %s", status, reply)
	}
	o = importWaitOffer(t, env, o.ID, false)
	if o.Status != imports.StatusInstalled || o.Result == nil || o.Result.ID != "marsh-bats" {
		t.Fatalf("offer %+v", o)
	}
	status, _ = testkit.Do(t, "POST", env.host.URL+"/host/api/offers/"+o.ID+"/accept", "", nil)
	if status != http.StatusConflict {
		t.Errorf("second accept %d", status)
	}

	status, reply = testkit.Do(t, "GET", env.host.URL+"/host/api/modules", "", nil)
	var modules []core.Module
	importJSON(t, reply, &modules)
	if status != http.StatusOK || len(modules) != 1 || modules[0].Package != env.content.URL+"/manifest.json" {
		t.Fatalf("modules %d %s", status, reply)
	}

	env.content.put("/v2.module", batsArchive(t, "1.1.0", "Giant Bat"))
	env.content.put("/manifest.json", batsManifest(env, "1.1.0", "/v2.module"))
	status, reply = testkit.Do(t, "POST", env.host.URL+"/host/api/modules/check-updates", "", nil)
	var updates []imports.Update
	importJSON(t, reply, &updates)
	if status != http.StatusOK || len(updates) != 1 || !updates[0].Update || updates[0].Available != "1.1.0" {
		t.Fatalf("updates %d %s", status, reply)
	}
	status, reply = testkit.Do(t, "POST", env.host.URL+"/host/api/modules/marsh-bats/update", "", nil)
	if status != http.StatusOK || !strings.Contains(string(reply), `"id":"marsh-bats"`) {
		t.Fatalf("update %d %s", status, reply)
	}
	status, reply = testkit.Do(t, "POST", env.host.URL+"/host/api/modules/marsh-bats/update", "", nil)
	if status != http.StatusConflict {
		t.Errorf("update when up to date: %d %s", status, reply)
	}

	status, _ = testkit.Do(t, "DELETE", env.host.URL+"/host/api/modules/marsh-bats", "", nil)
	if status != http.StatusNoContent {
		t.Fatalf("delete %d", status)
	}
	status, _ = testkit.Do(t, "DELETE", env.host.URL+"/host/api/modules/marsh-bats", "", nil)
	if status != http.StatusNotFound {
		t.Errorf("second delete %d", status)
	}
	all, err := env.svc.Entities(context.Background(), "")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range all {
		if e.Owner == "marsh-bats" {
			t.Errorf("entity left: %s", e.Name)
		}
	}
	if _, err := os.Stat(filepath.Join(env.dataDir, "modules", "marsh-bats")); !os.IsNotExist(err) {
		t.Errorf("module folder left: %v", err)
	}
}

func TestHostOfferDeclineAndErrors(t *testing.T) {
	env := newImportEnv(t)
	o, err := env.manager.Offer(imports.Source{URL: env.content.URL + "/nothing.module"}, "api 10.0.0.2")
	if err != nil {
		t.Fatal(err)
	}
	status, reply := testkit.Do(t, "POST", env.host.URL+"/host/api/offers/"+o.ID+"/decline", "", nil)
	if status != http.StatusOK || !strings.Contains(string(reply), `"status":"declined"`) {
		t.Fatalf("decline %d %s", status, reply)
	}
	status, _ = testkit.Do(t, "POST", env.host.URL+"/host/api/offers/"+o.ID+"/accept", "", nil)
	if status != http.StatusConflict {
		t.Errorf("accept after decline: %d", status)
	}
	for _, path := range []string{"/host/api/offers/nope/accept", "/host/api/offers/nope/decline"} {
		if status, _ := testkit.Do(t, "POST", env.host.URL+path, "", nil); status != http.StatusNotFound {
			t.Errorf("%s: %d", path, status)
		}
	}
	o2, _ := env.manager.Offer(imports.Source{URL: env.content.URL + "/x.module"}, "api")
	status, _ = testkit.Do(t, "POST", env.host.URL+"/host/api/offers/"+o2.ID+"/accept", "application/json", strings.NewReader(`[1]`))
	if status != http.StatusBadRequest {
		t.Errorf("accept with a bad body: %d", status)
	}
}

// `companion open` posts a link; the link rules apply with their messages.
func TestHostOfferFromLink(t *testing.T) {
	env := newImportEnv(t)
	body := `{"link":"vttapp-beta://import?url=https%3A%2F%2Fexample.org%2Fbats.module"}`
	status, reply := testkit.Do(t, "POST", env.host.URL+"/host/api/offers", "application/json", strings.NewReader(body))
	var o imports.Offer
	importJSON(t, reply, &o)
	if status != http.StatusCreated || o.URL != "https://example.org/bats.module" || o.From != "link" || o.Status != imports.StatusPending {
		t.Fatalf("%d %s", status, reply)
	}
	for link, want := range map[string]string{
		"vttapp://import?url=http%3A%2F%2Fexample.org%2Fx.module": imports.MsgHTTPSOnly,
		"vttapp://open?url=https%3A%2F%2Fexample.org%2Fx.module":  imports.MsgUnknownAction,
		"vttapp://import": imports.MsgNoSource,
	} {
		b, _ := json.Marshal(map[string]string{"link": link})
		status, reply := testkit.Do(t, "POST", env.host.URL+"/host/api/offers", "application/json", bytes.NewReader(b))
		if status != http.StatusBadRequest || !strings.Contains(string(reply), want) {
			t.Errorf("%s: %d %s", link, status, reply)
		}
	}
}

func uploadFile(t *testing.T, env *importEnv, name string, data []byte, destination string) (int, []byte) {
	t.Helper()
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	if destination != "" {
		mw.WriteField("destination", destination)
	}
	fw, _ := mw.CreateFormFile("file", name)
	fw.Write(data)
	mw.Close()
	return testkit.Do(t, "POST", env.host.URL+"/host/api/import", mw.FormDataContentType(), &buf)
}

// The person at the device imports a real Universal VTT file; the host API
// shows the map with its walls, doors and lights.
func TestHostImportRealUVTT(t *testing.T) {
	data, err := os.ReadFile(shareddata.Path(t, "uvtt/mbround18-the-litch-and-his-tomb.webp.dd2vtt"))
	if err != nil {
		t.Fatal(err)
	}
	env := newImportEnv(t)
	status, reply := uploadFile(t, env, "the-litch.dd2vtt", data, "")
	var res imports.Result
	importJSON(t, reply, &res)
	if status != http.StatusCreated || res.Kind != "map" || res.Name != "the-litch" {
		t.Fatalf("%d %s", status, reply)
	}
	status, reply = testkit.Do(t, "GET", env.host.URL+"/host/api/maps", "", nil)
	var maps []imports.MapSummary
	importJSON(t, reply, &maps)
	if status != http.StatusOK || len(maps) != 1 || maps[0].Walls != 35 || maps[0].Doors != 5 || maps[0].Lights != 2 || maps[0].Owner != campaignID {
		t.Fatalf("maps %s", reply)
	}
	status, reply = testkit.Do(t, "GET", env.host.URL+"/host/api/maps/"+res.ID, "", nil)
	var m core.Map
	importJSON(t, reply, &m)
	if status != http.StatusOK || len(m.Walls) != 40 || len(m.Lights) != 2 || m.GridSize != 128 || !strings.HasSuffix(m.Image, ".webp") {
		t.Fatalf("map %d walls %d", status, len(m.Walls))
	}
	if _, err := os.Stat(filepath.Join(env.dataDir, filepath.FromSlash(m.Image))); err != nil {
		t.Errorf("image file: %v", err)
	}
	if status, _ := testkit.Do(t, "GET", env.host.URL+"/host/api/maps/nope", "", nil); status != http.StatusNotFound {
		t.Errorf("unknown map: %d", status)
	}
}

func TestHostImportUploadsAndURLs(t *testing.T) {
	env := newImportEnv(t)
	status, reply := uploadFile(t, env, "bats.module", batsArchive(t, "1.0.0", "Cave Bat"), "")
	if status != http.StatusCreated || !strings.Contains(string(reply), `"kind":"module"`) {
		t.Fatalf("module upload %d %s", status, reply)
	}
	var mod imports.Result
	importJSON(t, reply, &mod)

	// A loose collection filed into the chosen module.
	status, reply = uploadFile(t, env, "spells.zip", testkit.Zip(t, "spells.json", `[{"name":"Swamp Gas"}]`), mod.ID)
	if status != http.StatusCreated || !strings.Contains(string(reply), `"id":"`+mod.ID+`"`) {
		t.Fatalf("collection upload %d %s", status, reply)
	}

	// A small map made here, by URL from the TLS server.
	doc, _ := json.Marshal(map[string]any{"format": 0.2, "resolution": map[string]any{"map_origin": map[string]any{"x": 0, "y": 0},
		"map_size": map[string]any{"x": 2, "y": 2}, "pixels_per_grid": 50},
		"image": base64.StdEncoding.EncodeToString([]byte("\x89PNG\r\n\x1a\nxx"))})
	env.content.put("/room.uvtt", doc)
	body, _ := json.Marshal(map[string]string{"url": env.content.URL + "/room.uvtt"})
	status, reply = testkit.Do(t, "POST", env.host.URL+"/host/api/import", "application/json", bytes.NewReader(body))
	if status != http.StatusCreated || !strings.Contains(string(reply), `"kind":"map"`) || !strings.Contains(string(reply), `"name":"room"`) {
		t.Fatalf("url import %d %s", status, reply)
	}

	for _, tc := range []struct {
		name   string
		status int
		reply  []byte
		want   string
	}{
		{"zip slip", 0, nil, "outside"},
		{"bomb-free truncated", 0, nil, "truncated"},
		{"not content", 0, nil, "unsupported file"},
		{"public http url", 0, nil, "Plain http"},
		{"no file", 0, nil, "no 'file'"},
		{"empty json", 0, nil, "multipart field 'file'"},
	} {
		switch tc.name {
		case "zip slip":
			tc.status, tc.reply = uploadFile(t, env, "evil.module", testkit.Zip(t, "module.json", `{"name":"E"}`, "../../evil.txt", "x"), "")
		case "bomb-free truncated":
			z := batsArchive(t, "1.0.0", "Bat")
			tc.status, tc.reply = uploadFile(t, env, "cut.module", z[:len(z)-30], "")
		case "not content":
			tc.status, tc.reply = uploadFile(t, env, "notes.txt", []byte("hello"), "")
		case "public http url":
			tc.status, tc.reply = testkit.Do(t, "POST", env.host.URL+"/host/api/import", "application/json", strings.NewReader(`{"url":"http://example.org/a.module"}`))
		case "no file":
			var buf bytes.Buffer
			mw := multipart.NewWriter(&buf)
			mw.WriteField("destination", "x")
			mw.Close()
			tc.status, tc.reply = testkit.Do(t, "POST", env.host.URL+"/host/api/import", mw.FormDataContentType(), &buf)
		case "empty json":
			tc.status, tc.reply = testkit.Do(t, "POST", env.host.URL+"/host/api/import", "application/json", strings.NewReader(`{}`))
		}
		if tc.status != http.StatusBadRequest || !strings.Contains(string(tc.reply), tc.want) {
			t.Errorf("%s: %d %s", tc.name, tc.status, tc.reply)
		}
	}
	if _, err := os.Stat(filepath.Join(env.dataDir, "evil.txt")); !os.IsNotExist(err) {
		t.Error("zip slip wrote outside the data folder")
	}
}

// GET /host/api/imports lists the direct imports still running: none when
// idle (an empty list, never null).
func TestHostRunningImportsIdle(t *testing.T) {
	env := newImportEnv(t)
	status, reply := testkit.Do(t, "GET", env.host.URL+"/host/api/imports", "", nil)
	if status != http.StatusOK || strings.TrimSpace(string(reply)) != "[]" {
		t.Errorf("%d %s", status, reply)
	}
}
