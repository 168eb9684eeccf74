package api

import (
	"archive/zip"
	"bytes"
	"encoding/base64"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/vttapp/companion/tests/e2e"
)

// importBatsArchive is a small module archive with one monster and its image.
func importBatsArchive(t *testing.T) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, f := range [][2]string{
		{"module.json", `{"id":"e2e-bats","name":"E2E Bats","system":"dnd5e","version":"1.0.0"}`},
		{"monsters.json", `[{"id":"e2e00000-0000-4000-8000-000000000001","name":"E2E Bat","image":"bat.png","data":{"hit_points":3}}]`},
		{"monsters/bat.png", "\x89PNG\r\n\x1a\nbat"},
	} {
		w, _ := zw.Create(f[0])
		w.Write([]byte(f[1]))
	}
	zw.Close()
	return buf.Bytes()
}

func importPost(t *testing.T, url, body string) (int, string) {
	t.Helper()
	resp, err := http.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(data)
}

type importOffer struct {
	ID     string `json:"id"`
	URL    string `json:"url"`
	From   string `json:"from"`
	Status string `json:"status"`
	Error  string `json:"error"`
	Result *struct {
		Kind, ID, Name string
	} `json:"result"`
}

// A fresh data folder is seeded with the system's sample module and campaign.
func TestImportSeedsFreshDataFolder(t *testing.T) {
	s := e2e.StartServer(t, e2e.ServerOptions{})
	var modules []map[string]any
	if status := e2e.ImportGetJSON(t, s.HostURL+"/host/api/modules", &modules); status != http.StatusOK || len(modules) != 1 {
		t.Fatalf("modules %d %v", status, modules)
	}
	var maps []map[string]any
	if status := e2e.ImportGetJSON(t, s.HostURL+"/host/api/maps", &maps); status != http.StatusOK || len(maps) == 0 {
		t.Errorf("maps %d %v", status, maps)
	}
}

// POST /api/import -> offer on the host console -> accept -> installed,
// and the module's files are served.
func TestImportOfferAcceptedOnTheHostConsole(t *testing.T) {
	s := e2e.StartServer(t, e2e.ServerOptions{Args: []string{"--empty"}})
	archive := importBatsArchive(t)
	content := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write(archive) }))
	defer content.Close()

	status, body := importPost(t, s.URL+"/api/import", `{"url":"`+content.URL+`/bats.module"}`)
	if status != http.StatusAccepted || strings.TrimSpace(body) != `{"status":"accepted"}` {
		t.Fatalf("%d %s", status, body)
	}
	var offers []importOffer
	e2e.ImportGetJSON(t, s.HostURL+"/host/api/offers", &offers)
	if len(offers) != 1 || offers[0].Status != "pending" || !strings.HasPrefix(offers[0].From, "api ") {
		t.Fatalf("offers %+v", offers)
	}
	status, body = importPost(t, s.HostURL+"/host/api/offers/"+offers[0].ID+"/accept", ``)
	if status != http.StatusAccepted {
		t.Fatalf("accept %d %s", status, body)
	}
	var o importOffer
	deadline := time.Now().Add(30 * time.Second)
	for {
		e2e.ImportGetJSON(t, s.HostURL+"/host/api/offers/"+offers[0].ID, &o)
		if o.Status == "installed" || o.Status == "failed" || time.Now().After(deadline) {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if o.Status != "installed" || o.Result == nil || o.Result.ID != "e2e-bats" {
		t.Fatalf("offer %+v", o)
	}
	resp, err := http.Get(s.URL + "/modules/e2e-bats/monsters/bat.png")
	if err != nil {
		t.Fatal(err)
	}
	img, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !bytes.HasSuffix(img, []byte("bat")) {
		t.Errorf("image %d %q", resp.StatusCode, img)
	}
	if status, body := importPost(t, s.URL+"/api/import", `{"url":"http://example.org/a.module"}`); status != http.StatusBadRequest ||
		!strings.Contains(body, `"error":"Plain http can only be used for a source on the local network, not 'example.org'."`) {
		t.Errorf("%d %s", status, body)
	}
	if status, body := importPost(t, s.URL+"/api/import?url=ftp%3A%2F%2Fexample.org%2Fa", ``); status != http.StatusBadRequest ||
		!strings.Contains(body, `"error":"Only https URLs can be imported from a link, not 'ftp'."`) {
		t.Errorf("%d %s", status, body)
	}
}

func TestImportCommands(t *testing.T) {
	code, out, _ := e2e.ImportRun(t, "link", "check", "vttapp://import?url=https%3A%2F%2Fexample.org%2Fa.module")
	if code != 0 || strings.TrimSpace(out) != `{"action":"import","url":"https://example.org/a.module"}` {
		t.Errorf("link check: %d %q", code, out)
	}
	code, _, errOut := e2e.ImportRun(t, "link", "check", "vttapp://import?url=http%3A%2F%2Fexample.org%2Fa.module")
	if code != 1 || strings.TrimSpace(errOut) != "Only https URLs can be imported from a link" {
		t.Errorf("link check http: %d %q", code, errOut)
	}

	s := e2e.StartServer(t, e2e.ServerOptions{})
	hostAddr := strings.TrimPrefix(s.HostURL, "http://")
	code, out, errOut = e2e.ImportRun(t, "open", "--host-addr", hostAddr, "vttapp://import?url=https%3A%2F%2Fexample.org%2Fa.module")
	if code != 0 || !strings.Contains(out, `"from":"link"`) {
		t.Errorf("open: %d %q %q", code, out, errOut)
	}

	doc, _ := json.Marshal(map[string]any{"format": 0.3, "resolution": map[string]any{"map_origin": map[string]any{"x": 0, "y": 0},
		"map_size": map[string]any{"x": 2, "y": 2}, "pixels_per_grid": 50},
		"line_of_sight": [][]map[string]float64{{{"x": 0, "y": 0}, {"x": 2, "y": 0}}},
		"image":         base64.StdEncoding.EncodeToString([]byte("\x89PNG\r\n\x1a\nroom"))})
	path := filepath.Join(t.TempDir(), "Small Room.uvtt")
	os.WriteFile(path, doc, 0o644)
	code, out, errOut = e2e.ImportRun(t, "import", "--host-addr", hostAddr, path)
	var res struct{ Kind, ID, Name string }
	if code != 0 || json.Unmarshal([]byte(out), &res) != nil || res.Kind != "map" || res.Name != "Small Room" {
		t.Fatalf("import: %d %q %q", code, out, errOut)
	}
	var m struct {
		Walls []any `json:"walls"`
	}
	if status := e2e.ImportGetJSON(t, s.HostURL+"/host/api/maps/"+res.ID, &m); status != http.StatusOK || len(m.Walls) != 1 {
		t.Errorf("map %d %+v", status, m)
	}
}

// An offered manifest is fetched before anyone accepts it: the server
// must never fetch from its own listeners, the players' or the host
// console's, by any name. Each such offer fails with the reason, and
// neither listener logs a request from the importer.
func TestImportNeverFetchesFromTheServerItself(t *testing.T) {
	s := e2e.StartServer(t, e2e.ServerOptions{Args: []string{"--empty", "--log-level", "debug"}})
	public := strings.TrimPrefix(s.URL, "http://")
	host := strings.TrimPrefix(s.HostURL, "http://")
	_, publicPort, _ := net.SplitHostPort(public)
	_, hostPort, _ := net.SplitHostPort(host)
	// Paths no one else asks for, to look for in the request log.
	sources := []string{
		"http://" + public + "/self-fetch.json",
		"http://localhost:" + publicPort + "/self-fetch.json",
		"http://localhost:" + hostPort + "/self-fetch.json",
		"http://127.0.0.1:" + hostPort + "/self-fetch.json",
		"http://[::1]:" + hostPort + "/self-fetch.json",
	}
	for _, src := range sources {
		if status, body := importPost(t, s.URL+"/api/import", `{"manifest":"`+src+`"}`); status != http.StatusAccepted {
			t.Fatalf("%s: %d %s", src, status, body)
		}
	}
	deadline := time.Now().Add(60 * time.Second)
	var offers []importOffer
	for {
		e2e.ImportGetJSON(t, s.HostURL+"/host/api/offers", &offers)
		settled := 0
		for _, o := range offers {
			if o.Status != "pending" || o.Error != "" {
				settled++
			}
		}
		if settled == len(sources) || time.Now().After(deadline) {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if len(offers) != len(sources) {
		t.Fatalf("%d offers, want %d", len(offers), len(sources))
	}
	for _, o := range offers {
		if o.Status != "failed" || !strings.Contains(o.Error, "this server's own address") {
			t.Errorf("offer %+v: want it failed as this server's own address", o)
		}
	}
	for _, line := range s.Lines("self-fetch") {
		if strings.Contains(line, "http request") {
			t.Errorf("the server served its own importer: %s", line)
		}
	}
}
