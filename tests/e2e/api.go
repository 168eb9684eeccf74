package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/vttapp/companion/internal/shareddata"
)

// apiClient talks to a running server as a plain HTTP client: no
// transparent gzip, no redirects followed, so every header is visible.
type apiClient struct {
	t    *testing.T
	base string
	http *http.Client
}

func NewAPIClient(t *testing.T, base string) *apiClient {
	return &apiClient{t: t, base: base, http: &http.Client{
		Timeout:       30 * time.Second,
		Transport:     &http.Transport{DisableCompression: true},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}}
}

// ApiReply is one answer, read whole.
type ApiReply struct {
	Status int
	Header http.Header
	Body   []byte
}

// Do sends method path with an optional body and header pairs.
func (c *apiClient) Do(method, path, body string, headers ...string) ApiReply {
	c.t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, c.base+path, rd)
	if err != nil {
		c.t.Fatal(err)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	resp, err := c.http.Do(req)
	if err != nil {
		c.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		c.t.Fatalf("%s %s: reading body: %v", method, path, err)
	}
	// Every answer is also checked against the description the server serves
	// (openapi_validate_test.go).
	if d := servedDescription(c.t, c.http, c.base); d != nil {
		if err := d.CheckResponse(req, resp.StatusCode, resp.Header, data); err != nil {
			c.t.Errorf("%s %s answered %d, which contradicts the served description: %v\n  body: %.400s", method, path, resp.StatusCode, err, data)
		}
	}
	return ApiReply{Status: resp.StatusCode, Header: resp.Header, Body: data}
}

// Get is do("GET") that requires 200 and decodes JSON into v.
func (c *apiClient) Get(path string, v any) ApiReply {
	c.t.Helper()
	r := c.Do("GET", path, "")
	if r.Status != 200 {
		c.t.Fatalf("GET %s: %d %.300s", path, r.Status, r.Body)
	}
	if v != nil {
		if err := json.Unmarshal(r.Body, v); err != nil {
			c.t.Fatalf("GET %s: not JSON: %v %.300s", path, err, r.Body)
		}
	}
	return r
}

func (r ApiReply) Object(t *testing.T) map[string]any {
	t.Helper()
	var v map[string]any
	if err := json.Unmarshal(r.Body, &v); err != nil {
		t.Fatalf("not a JSON object (%d): %.300s", r.Status, r.Body)
	}
	return v
}

// WantAPIError checks a status and a one-key {"message": ...} body whose
// text contains message and no Go internals.
func WantAPIError(t *testing.T, r ApiReply, status int, message string) {
	t.Helper()
	if r.Status != status {
		t.Fatalf("status %d, want %d: %.300s", r.Status, status, r.Body)
	}
	if ct := r.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		t.Fatalf("error Content-Type %q", ct)
	}
	var body map[string]any
	if err := json.Unmarshal(r.Body, &body); err != nil || len(body) != 1 {
		t.Fatalf("error body must be {\"message\": ...}: %s", r.Body)
	}
	got, ok := body["message"].(string)
	if !ok || !strings.Contains(got, message) {
		t.Fatalf("message %q does not contain %q", got, message)
	}
	for _, leak := range []string{"json:", "goroutine", "runtime.", "*core.", "sql:"} {
		if strings.Contains(got, leak) {
			t.Fatalf("message leaks internals (%s): %q", leak, got)
		}
	}
}

// RawRequest sends a request line exactly as written (no cleaning or
// escaping by a client library) and returns the status and whole answer.
func RawRequest(t *testing.T, base, path string) (int, string) {
	t.Helper()
	conn, err := net.Dial("tcp", strings.TrimPrefix(base, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(10 * time.Second))
	fmt.Fprintf(conn, "GET %s HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n", path)
	data, _ := io.ReadAll(conn)
	var proto string
	var status int
	if _, err := fmt.Sscan(string(data), &proto, &status); err != nil {
		t.Fatalf("%s: no status line in %q", path, data)
	}
	return status, string(data)
}

// ApiEntity is the part of an entity the black-box tests look at.
type ApiEntity struct {
	ID   string         `json:"id"`
	Kind string         `json:"kind"`
	Name string         `json:"name"`
	Slug string         `json:"slug"`
	Data map[string]any `json:"data"`
}

func HttpGet(t *testing.T, url string) (int, string) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(body)
}

func ImportGetJSON(t *testing.T, url string, v any) int {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	if v != nil && resp.StatusCode == http.StatusOK {
		if err := json.Unmarshal(data, v); err != nil {
			t.Fatalf("GET %s: %v in %s", url, err, data)
		}
	}
	return resp.StatusCode
}

func ImportRun(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	cmd := exec.Command(CompanionBinary(t), args...)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return code, out.String(), errOut.String()
}

// HostCall sends a JSON request to the host console and returns status and body.
func HostCall(t *testing.T, s *Server, method, path, body string) (int, []byte) {
	t.Helper()
	req, err := http.NewRequest(method, s.HostURL+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, data
}

// GameOf reads everything the game master and the players see of a
// server's game: the campaign (maps, screen, game, combatants, turn
// order), every map document with its tokens, the messages, the entities
// of every collection, and the players' GET /api.
func GameOf(t *testing.T, s *Server) map[string]string {
	t.Helper()
	out := map[string]string{}
	read := func(key, url string) {
		var v any
		if status := ImportGetJSON(t, url, &v); status != 200 {
			t.Fatalf("GET %s: %d", url, status)
		}
		data, _ := json.MarshalIndent(v, "", " ")
		out[key] = string(data)
	}
	read("campaign", s.HostURL+"/host/api/campaign")
	read("messages", s.HostURL+"/host/api/messages")
	read("players", s.URL+"/api")
	var maps []struct{ ID string }
	ImportGetJSON(t, s.HostURL+"/host/api/maps", &maps)
	for _, m := range maps {
		read("map "+m.ID, s.HostURL+"/host/api/maps/"+m.ID)
	}
	for _, col := range []string{"monsters", "characters", "spells", "items"} {
		read(col, s.HostURL+"/host/api/entities/"+col)
	}
	return out
}

func SameGame(t *testing.T, what string, want, got map[string]string) {
	t.Helper()
	size := 0
	for _, doc := range want {
		size += len(doc)
	}
	t.Logf("%s: comparing %d documents, %d bytes", what, len(want), size)
	if len(got) != len(want) {
		t.Errorf("%s: %d documents, want %d", what, len(got), len(want))
	}
	for key, w := range want {
		if got[key] != w {
			t.Errorf("%s: %s differs:\n%s", what, key, firstDiff(w, got[key]))
		}
	}
}

func firstDiff(a, b string) string {
	la, lb := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := 0; i < len(la) && i < len(lb); i++ {
		if la[i] != lb[i] {
			return "  was: " + la[i] + "\n  now: " + lb[i]
		}
	}
	return "  lengths differ"
}

// GmMonsters is the SRD goblin (7 hit points) and hobgoblin (11) as a
// loose monsters.json (docs/content-format.md: name, slug, data): their
// data from the shared SRD data when it is there, else as the SRD writes
// them. The browser GM test imports them too.
func GmMonsters(t *testing.T) []byte {
	t.Helper()
	want := map[string]bool{"goblin": true, "hobgoblin": true}
	if root := shareddata.Root(); root != "" {
		raw, err := os.ReadFile(filepath.Join(root, "srd5e", "2014-en-5e-SRD-Monsters.json"))
		if err == nil {
			var all []map[string]any
			if err := json.Unmarshal(raw, &all); err != nil {
				t.Fatal(err)
			}
			var picked []map[string]any
			for _, m := range all {
				if index, _ := m["index"].(string); want[index] {
					picked = append(picked, map[string]any{"name": m["name"], "slug": index, "data": m})
				}
			}
			b, _ := json.Marshal(picked)
			return b
		}
	}
	t.Log("shared SRD data absent: using the goblin and hobgoblin as the SRD writes them")
	return []byte(`[
 {"name": "Goblin", "slug": "goblin", "data": {"size": "Small", "type": "humanoid", "hit_points": 7, "dexterity": 14,
  "challenge_rating": 0.25, "senses": {"darkvision": "60 ft.", "passive_perception": 9}}},
 {"name": "Hobgoblin", "slug": "hobgoblin", "data": {"size": "Medium", "type": "humanoid", "hit_points": 11, "dexterity": 12,
  "challenge_rating": 0.5, "senses": {"darkvision": "60 ft.", "passive_perception": 10}}}]`)
}

// The demo characters' combatants (examples/dnd5e/sample/campaign).
const (
	demoIlsaCombatant    = "5e0ca000-0000-4000-8000-000000000501"
	DemoBrannocCombatant = "5e0ca000-0000-4000-8000-000000000505"
)
