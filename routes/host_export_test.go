package routes

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/json"
	"image"
	"image/png"
	"io"
	"mime/multipart"
	"net/http"
	"sort"
	"strings"
	"testing"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/imports"
	"github.com/vttapp/companion/internal/testkit"
)

// get fetches a host URL and returns the whole response.
func hostGet(t *testing.T, url string) (*http.Response, []byte) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp, body
}

func zipNames(t *testing.T, data []byte) []string {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatalf("not a whole zip: %v", err)
	}
	var names []string
	for _, f := range zr.File {
		names = append(names, f.Name)
	}
	sort.Strings(names)
	return names
}

// A module and the primary campaign download as archives that the same
// host API installs again; the campaign names the module its tokens point
// at.
func TestHostExportDownloadsArchives(t *testing.T) {
	env := newImportEnv(t)
	status, reply := uploadFile(t, env, "bats.module", batsArchive(t, "1.0.0", "Cave Bat"), "")
	if status != http.StatusCreated {
		t.Fatalf("%d %s", status, reply)
	}
	var mod imports.Result
	importJSON(t, reply, &mod)
	var bat *core.Entity
	env.svc.ReadContent(context.Background(), func(tx core.Tx) error {
		list, err := tx.Entities(core.EntityQuery{Owner: mod.ID})
		if len(list) == 1 {
			bat = list[0]
		}
		return err
	})
	if bat == nil {
		t.Fatal("the module's bat is missing")
	}
	// The campaign has a map with a token of the module's bat.
	err := env.svc.ChangeContent(context.Background(), func(tx core.Tx) (core.Object, error) {
		m := &core.Map{ID: "map-1", Name: "Roost", Owner: campaignID}
		m.Normalize()
		tok := &core.Token{ID: "tok-1", Name: "Cave Bat", EntityID: &bat.ID}
		tok.Normalize()
		m.Tokens = []*core.Token{tok}
		return nil, tx.PutMap(m)
	})
	if err != nil {
		t.Fatal(err)
	}

	resp, body := hostGet(t, env.host.URL+"/host/api/modules/"+mod.ID+"/export")
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "application/zip" ||
		resp.Header.Get("Content-Disposition") != `attachment; filename=marsh-bats.module` {
		t.Fatalf("module export: %d %v", resp.StatusCode, resp.Header)
	}
	moduleZip := body
	if got := strings.Join(zipNames(t, body), ","); got != "module.json,monsters.json,monsters/bat.png" {
		t.Errorf("module archive holds %s", got)
	}
	resp, camp := hostGet(t, env.host.URL+"/host/api/campaigns/"+campaignID+"/export")
	if resp.StatusCode != 200 || !strings.Contains(resp.Header.Get("Content-Disposition"), "demo.campaign") {
		t.Fatalf("campaign export: %d %v", resp.StatusCode, resp.Header)
	}
	var needs []imports.Result
	if err := json.Unmarshal([]byte(resp.Header.Get("Companion-Needs")), &needs); err != nil || len(needs) != 1 || needs[0].ID != mod.ID {
		t.Errorf("Companion-Needs %q: %v", resp.Header.Get("Companion-Needs"), err)
	}
	if got := strings.Join(zipNames(t, camp), ","); !strings.Contains(got, "campaign.json") || !strings.Contains(got, "maps.json") {
		t.Errorf("campaign archive holds %s", got)
	}

	// Unknown ids are 404 with a message, before any byte of a zip.
	for _, path := range []string{"/host/api/modules/nope/export", "/host/api/campaigns/nope/export"} {
		resp, body := hostGet(t, env.host.URL+path)
		if resp.StatusCode != 404 || !strings.Contains(string(body), "no ") {
			t.Errorf("%s: %d %s", path, resp.StatusCode, body)
		}
	}
	resp, body = hostGet(t, env.host.URL+"/host/api/campaigns")
	if resp.StatusCode != 200 || !strings.Contains(string(body), `"id":"`+campaignID+`"`) || !strings.Contains(string(body), `"primary":true`) {
		t.Errorf("campaigns: %d %s", resp.StatusCode, body)
	}

	// The module's archive installs again once the module is gone.
	if status, reply := testkit.Do(t, "DELETE", env.host.URL+"/host/api/modules/"+mod.ID, "", nil); status != 204 {
		t.Fatalf("delete: %d %s", status, reply)
	}
	status, reply = uploadFile(t, env, "marsh-bats.module", moduleZip, "")
	if status != http.StatusCreated || !strings.Contains(string(reply), `"id":"`+mod.ID+`"`) {
		t.Fatalf("re-import of the export: %d %s", status, reply)
	}
}

func pngBytes(t *testing.T, w, h int) []byte {
	var b bytes.Buffer
	png.Encode(&b, image.NewGray(image.Rect(0, 0, w, h)))
	return b.Bytes()
}

// A picture becomes a map by every path a file takes: upload, an offer by
// URL (from a player's POST /api/import, accepted on the console), and a
// file handed over to the console (the desktop's hand-off).
func TestPicturesBecomeMapsByEveryPath(t *testing.T) {
	env := newImportEnv(t)
	var res imports.Result
	status, reply := uploadFile(t, env, "Upload.png", pngBytes(t, 200, 100), "")
	importJSON(t, reply, &res)
	if status != http.StatusCreated || res.Kind != "map" || !res.GridPending || res.Name != "Upload" {
		t.Fatalf("upload: %d %s", status, reply)
	}

	env.content.put("/maps/Offered.png", pngBytes(t, 300, 150))
	body, _ := json.Marshal(map[string]string{"url": env.content.URL + "/maps/Offered.png"})
	if status, reply := testkit.Do(t, "POST", env.public.URL+"/api/import", "application/json", bytes.NewReader(body)); status != http.StatusAccepted {
		t.Fatalf("offer: %d %s", status, reply)
	}
	offers := env.manager.Offers()
	if len(offers) != 1 {
		t.Fatalf("offers %+v", offers)
	}
	if status, reply := testkit.Do(t, "POST", env.host.URL+"/host/api/offers/"+offers[0].ID+"/accept", "application/json", strings.NewReader(`{}`)); status != http.StatusAccepted {
		t.Fatalf("accept: %d %s", status, reply)
	}
	if o := importWaitOffer(t, env, offers[0].ID, false); o.Status != imports.StatusInstalled || o.Result == nil || !o.Result.GridPending {
		t.Fatalf("offered picture: %+v", o)
	}

	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	fw, _ := mw.CreateFormFile("file", "Handed.png")
	fw.Write(pngBytes(t, 64, 64))
	mw.Close()
	status, reply = testkit.Do(t, "POST", env.host.URL+"/host/api/offers", mw.FormDataContentType(), &buf)
	var o imports.Offer
	importJSON(t, reply, &o)
	if status != http.StatusCreated {
		t.Fatalf("hand-off: %d %s", status, reply)
	}
	testkit.Do(t, "POST", env.host.URL+"/host/api/offers/"+o.ID+"/accept", "application/json", strings.NewReader(`{}`))
	if o = importWaitOffer(t, env, o.ID, false); o.Status != imports.StatusInstalled || o.Result == nil || !o.Result.GridPending {
		t.Fatalf("handed-over picture: %+v", o)
	}

	_, listing := hostGet(t, env.host.URL+"/host/api/maps")
	var maps []imports.MapSummary
	importJSON(t, listing, &maps)
	sizes := map[string]int{}
	for _, m := range maps {
		if m.GridPending {
			sizes[m.Name] = m.Width
		}
	}
	if sizes["Upload"] != 200 || sizes["Offered"] != 300 || sizes["Handed"] != 64 {
		t.Errorf("maps waiting for their grid: %v", sizes)
	}
}
