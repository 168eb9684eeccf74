package routes

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/vttapp/companion/guard"
	"github.com/vttapp/companion/hub"
	"github.com/vttapp/companion/imports"
	"github.com/vttapp/companion/internal/testkit"
	"github.com/vttapp/companion/routes/datafolder"
	"github.com/vttapp/companion/sound"
	"github.com/vttapp/companion/systems"
)

// soundEnv is both listeners over the fixture campaign, with the sound
// library in its data folder (limit: the library's upload limit).
type soundEnv struct {
	consoleEnv
	deck *sound.Deck
}

func newSoundEnv(t *testing.T, limit int64, times guard.BodyTimes) *soundEnv {
	t.Helper()
	g := testkit.NewGame(t, testkit.GameOptions{})
	live := hub.New(g.Service, g.Bus, nil, hub.Options{})
	deck := &sound.Deck{Library: &sound.Library{Locate: datafolder.SoundLocator(g.Service, g.DataDir), MaxBytes: limit}, Events: g.Bus}
	mgr := imports.NewManager(imports.Config{Service: g.Service, DataDir: g.DataDir, Collections: holderCollections{g.Holder}, AppVersion: "1.0.0"})
	t.Cleanup(mgr.Close)
	cfg := Config{Service: g.Service, Hub: live, Systems: g.Holder, DataDir: g.DataDir, Sound: deck, BodyTimes: times, Imports: mgr}
	e := &soundEnv{consoleEnv: consoleEnv{svc: g.Service, store: g.Store, events: g.Events, dataDir: g.DataDir, liveHub: live,
		public: httptest.NewServer(NewPublicHandler(cfg)), host: httptest.NewServer(NewHostHandler(cfg))}, deck: deck}
	t.Cleanup(func() { deck.Close(); live.Close(); e.public.Close(); e.host.Close() })
	return e
}

// holderCollections are the loaded system's collections, for the export.
type holderCollections struct{ h *systems.Holder }

func (c holderCollections) SystemID() string { return c.h.Current().ID() }
func (c holderCollections) KindForCollection(label string) (string, bool) {
	k, ok := c.h.Current().KindByCollection(label)
	return k.Name, ok
}
func (c holderCollections) CollectionForKind(kind string) (string, bool) {
	k, ok := c.h.Current().Kind(kind)
	return k.Collection, ok
}

// upload posts data as multipart field "file" named name.
func (e *soundEnv) upload(t *testing.T, field, name string, data []byte) reply {
	t.Helper()
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	fw, _ := mw.CreateFormFile(field, name)
	fw.Write(data)
	mw.Close()
	req, _ := http.NewRequest("POST", e.host.URL+"/host/api/audio", &body)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	return send(t, req)
}

func send(t *testing.T, req *http.Request) reply {
	t.Helper()
	resp, err := noGzipClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	return reply{status: resp.StatusCode, header: resp.Header, body: data}
}

// libraryFiles lists the campaign's audio folder, temporary files too.
func (e *soundEnv) libraryFiles(t *testing.T) []string {
	entries, _ := os.ReadDir(filepath.Join(e.dataDir, "campaigns", campaignID, datafolder.SoundFolder))
	var out []string
	for _, d := range entries {
		out = append(out, d.Name())
	}
	return out
}

func TestSoundUploadAnswersTheTrackAndListsIt(t *testing.T) {
	e := newSoundEnv(t, 0, guard.BodyTimes{})
	var tr sound.Track
	e.decode(t, e.upload(t, "file", `..\..\evil\<Tavern> & "Rain".wav`, testkit.WAV(2, 8000)), 201, &tr)
	if tr.ID == "" || tr.URL != "/campaigns/"+campaignID+"/audio/"+tr.ID+".wav" || tr.Name != `<Tavern> & "Rain"` || tr.Duration != 2 || len(tr.Tags) != 0 {
		t.Fatalf("track %+v", tr)
	}
	var list []sound.Track
	e.decode(t, e.call(t, "GET", "/host/api/audio", ""), 200, &list)
	if len(list) != 1 || list[0].ID != tr.ID {
		t.Fatalf("list %+v", list)
	}
	e.decode(t, e.call(t, "PATCH", "/host/api/audio/"+tr.ID, `{"name":"Tavern","tags":["Inn"]}`), 200, &tr)
	if tr.Name != "Tavern" || tr.Tags[0] != "inn" {
		t.Fatalf("changed %+v", tr)
	}
	// The campaign's export carries the file and its record.
	resp, archive := hostGet(t, e.host.URL+"/host/api/campaigns/"+campaignID+"/export")
	if resp.StatusCode != 200 {
		t.Fatalf("export: %d %s", resp.StatusCode, archive)
	}
	names := strings.Join(zipNames(t, archive), " ")
	if !strings.Contains(names, "audio/"+tr.ID+".wav") || !strings.Contains(names, "audio/"+tr.ID+".json") {
		t.Fatalf("the export lacks the sound file or its record: %s", names)
	}
	if r := e.call(t, "DELETE", "/host/api/audio/"+tr.ID, ""); r.status != 204 {
		t.Fatalf("delete: %d %s", r.status, r.body)
	}
	if got := e.libraryFiles(t); len(got) != 0 {
		t.Fatalf("deleted, the folder holds %v", got)
	}
}

func TestSoundUploadRefusalsStoreNothing(t *testing.T) {
	e := newSoundEnv(t, 256<<10, guard.BodyTimes{Idle: 300 * time.Millisecond, Grace: 300 * time.Millisecond})
	wav := testkit.WAV(3, 8000)
	cases := []struct {
		name, field, file string
		data              []byte
		status            int
		says              string
	}{
		{"a text file named .mp3", "file", "song.mp3", []byte("ID3? no: a text file\n"), 400, "not a sound file"},
		{"a truncated file", "file", "cut.wav", wav[:len(wav)/3], 400, "truncated"},
		{"a file over the limit", "file", "huge.wav", testkit.WAV(20, 8000), 413, "at most"},
		{"no file field", "other", "x.wav", wav, 400, "no 'file' field"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := e.upload(t, c.field, c.file, c.data)
			if r.status != c.status || !strings.Contains(string(r.body), c.says) {
				t.Fatalf("got %d %s, want %d saying %q", r.status, r.body, c.status, c.says)
			}
			if got := e.libraryFiles(t); len(got) != 0 {
				t.Fatalf("left %v behind", got)
			}
		})
	}
	t.Run("not multipart", func(t *testing.T) {
		if r := e.call(t, "POST", "/host/api/audio", `{"file":"x"}`); r.status != 400 || !strings.Contains(string(r.body), "multipart") {
			t.Fatalf("got %d %s", r.status, r.body)
		}
	})
	t.Run("a stalled upload", func(t *testing.T) {
		conn, err := net.Dial("tcp", strings.TrimPrefix(e.host.URL, "http://"))
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		head := "--b\r\nContent-Disposition: form-data; name=\"file\"; filename=\"slow.wav\"\r\n\r\n"
		fmt.Fprintf(conn, "POST /host/api/audio HTTP/1.1\r\nHost: %s\r\nContent-Type: multipart/form-data; boundary=b\r\nContent-Length: 1000000\r\n\r\n%s",
			strings.TrimPrefix(e.host.URL, "http://"), head)
		conn.Write(wav[:4000]) // then nothing more
		conn.SetReadDeadline(time.Now().Add(10 * time.Second))
		resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
		if err != nil {
			t.Fatalf("no answer to a stalled upload: %v", err)
		}
		if resp.StatusCode != http.StatusRequestTimeout {
			t.Fatalf("status %d, want 408", resp.StatusCode)
		}
		if got := e.libraryFiles(t); len(got) != 0 {
			t.Fatalf("left %v behind", got)
		}
	})
}

func TestSoundFilesServeRangesToPlayersOnlyWhilePlaying(t *testing.T) {
	e := newSoundEnv(t, 0, guard.BodyTimes{})
	wav := testkit.WAV(2, 8000)
	var tr sound.Track
	e.decode(t, e.upload(t, "file", "rain.wav", wav), 201, &tr)
	get := func(base, rng string) reply {
		req, _ := http.NewRequest("GET", base+tr.URL, nil)
		if rng != "" {
			req.Header.Set("Range", rng)
		}
		return send(t, req)
	}
	if r := get(e.public.URL, ""); r.status != 404 {
		t.Fatalf("a track that does not play reached a player: %d", r.status)
	}
	if r := get(e.host.URL, "bytes=0-99"); r.status != 206 || len(r.body) != 100 {
		t.Fatalf("the game master's range: %d, %d bytes", r.status, len(r.body))
	}
	var list sound.Playlist
	e.decode(t, e.call(t, "POST", "/host/api/playlists", `{"name":"Storm","tracks":["`+tr.ID+`"],"loop":true,"channel":"ambience"}`), 201, &list)
	player := e.playerSocket(t)
	player.waitFor("app")
	var st sound.State
	e.decode(t, e.call(t, "POST", "/host/api/sound/"+list.ID, `{"action":"play","position":1}`), 200, &st)
	if len(st.Playing) != 1 || st.Playing[0].Track.URL != tr.URL || st.ServerTime-st.Playing[0].StartedAt < 1000 {
		t.Fatalf("state %+v", st)
	}
	player.waitFor("soundUpdated", tr.URL, `"startedAt"`)
	r := get(e.public.URL, "bytes=1000-1999")
	if r.status != 206 || !bytes.Equal(r.body, wav[1000:2000]) || r.header.Get("Content-Range") != fmt.Sprintf("bytes 1000-1999/%d", len(wav)) {
		t.Fatalf("a player's range: %d %q, %d bytes", r.status, r.header.Get("Content-Range"), len(r.body))
	}
	if r := get(e.public.URL, "bytes=999999-"); r.status != http.StatusRequestedRangeNotSatisfiable {
		t.Fatalf("a range past the end: %d", r.status)
	}
	if r := e.call(t, "POST", "/host/api/sound/"+list.ID, `{"action":"seek","position":999}`); r.status != 400 || !strings.Contains(string(r.body), "2.0 s long") {
		t.Fatalf("a seek past the end: %d %s", r.status, r.body)
	}
	many := strings.TrimSuffix(strings.Repeat(`"`+tr.ID+`",`, 10000), ",")
	if r := e.call(t, "POST", "/host/api/playlists", `{"name":"Long","tracks":[`+many+`]}`); r.status != 400 || !strings.Contains(string(r.body), "at most 1000") {
		t.Fatalf("a playlist of 10,000 entries: %d %.200s", r.status, r.body)
	}
	var pub sound.State
	e.decodePublic(t, "/api/sound", &pub)
	if len(pub.Playing) != 1 || pub.Playing[0].StartedAt != st.Playing[0].StartedAt {
		t.Fatalf("GET /api/sound: %+v", pub)
	}
	e.decode(t, e.call(t, "POST", "/host/api/sound/"+list.ID, `{"action":"stop"}`), 200, &st)
	if r := get(e.public.URL, ""); r.status != 404 {
		t.Fatalf("a stopped track still reaches players: %d", r.status)
	}
}

func TestSoundPlayersControlNothing(t *testing.T) {
	e := newSoundEnv(t, 0, guard.BodyTimes{})
	var tr sound.Track
	e.decode(t, e.upload(t, "file", "a.wav", testkit.WAV(1, 8000)), 201, &tr)
	var list sound.Playlist
	e.decode(t, e.call(t, "POST", "/host/api/playlists", `{"name":"A","tracks":["`+tr.ID+`"]}`), 201, &list)
	for _, path := range []string{"/api/sound/" + list.ID, "/host/api/sound/" + list.ID, "/api/sound"} {
		r := e.publicCall(t, "POST", path, `{"action":"play"}`)
		if r.status < 400 {
			t.Fatalf("a player's POST %s: %d %s", path, r.status, r.body)
		}
	}
	player := e.playerSocket(t)
	player.waitFor("app")
	player.send("soundUpdated", `{"playing":[{"playlist":"`+list.ID+`"}]}`)
	player.SendJSON(map[string]any{"name": "ping", "requestId": "p"})
	pong := player.AwaitReply(2*time.Second, "p", nil)
	var p struct {
		OK         bool  `json:"ok"`
		ServerTime int64 `json:"serverTime"`
	}
	if err := json.Unmarshal(pong.Data, &p); err != nil || !p.OK || abs(time.Now().UnixMilli()-p.ServerTime) > 5000 {
		t.Fatalf("the ping's answer %s: %v", pong.Data, err)
	}
	if st, _ := e.deck.State(t.Context()); len(st.Playing) != 0 {
		t.Fatalf("a player's frame started playback: %+v", st)
	}
}

func abs(n int64) int64 {
	if n < 0 {
		return -n
	}
	return n
}

// TestAmbientSoundsOnTheMap: a sound placed on the map on the player
// screen reaches players with its file; a hidden one, neither; bad ones
// are refused whole.
func TestAmbientSoundsOnTheMap(t *testing.T) {
	e := newSoundEnv(t, 0, guard.BodyTimes{})
	var heard, secret sound.Track
	e.decode(t, e.upload(t, "file", "brook.wav", testkit.WAV(1, 8000)), 201, &heard)
	e.decode(t, e.upload(t, "file", "whisper.wav", testkit.WAV(1, 8000)), 201, &secret)
	for _, bad := range []string{
		`{"x": 10, "y": 10, "url": "` + heard.URL + `"}`,
		`{"x": 10, "y": 10, "radius": 0, "url": "` + heard.URL + `"}`,
		`{"x": 10, "y": 10, "radius": 6, "url": "/campaigns/x/maps/a.png"}`,
		`{"x": 10, "y": 10, "radius": 6, "url": "/campaigns/x/audio/../../companion.db"}`,
		`{"x": 10, "y": 10, "radius": 6, "volume": 2, "url": "` + heard.URL + `"}`,
	} {
		if r := e.call(t, "POST", "/host/api/maps/"+mapID+"/sounds", bad); r.status != 400 {
			t.Errorf("%s: %d %s", bad, r.status, r.body)
		}
	}
	player := e.playerSocket(t)
	player.waitFor("app")
	if r := e.call(t, "POST", "/host/api/maps/"+mapID+"/sounds", `{"x": 100, "y": 100, "radius": 6, "volume": 0.5, "url": "`+heard.URL+`"}`); r.status != 201 {
		t.Fatalf("a sound: %d %s", r.status, r.body)
	}
	player.waitFor("soundsUpdated", heard.URL)
	if r := e.call(t, "POST", "/host/api/maps/"+mapID+"/sounds", `{"x": 300, "y": 100, "radius": 6, "hidden": true, "url": "`+secret.URL+`"}`); r.status != 201 {
		t.Fatalf("a hidden sound: %d %s", r.status, r.body)
	}
	player.SendJSON(map[string]any{"name": "ping", "requestId": "after"})
	player.never("soundsUpdated", secret.ID, "ping")
	var snap struct {
		Map struct{ Sounds []map[string]any }
	}
	e.decodePublic(t, "/api", &snap)
	if len(snap.Map.Sounds) != 1 || snap.Map.Sounds[0]["url"] != heard.URL {
		t.Fatalf("players' map sounds: %+v", snap.Map.Sounds)
	}
	if r := e.publicCall(t, "GET", heard.URL, ""); r.status != 200 {
		t.Fatalf("the ambient sound's file: %d", r.status)
	}
	if r := e.publicCall(t, "GET", secret.URL, ""); r.status != 404 {
		t.Fatalf("a hidden sound's file reached a player: %d", r.status)
	}
}

// An installed module's sound files join the library from the host API;
// a module that is not there, or a path out of the modules' folder, is a
// 404 and adds nothing.
func TestAModulesSoundFilesJoinTheLibrary(t *testing.T) {
	e := newSoundEnv(t, 0, guard.BodyTimes{})
	dir := filepath.Join(e.dataDir, "modules", "mod-harbour")
	writeFile(t, filepath.Join(dir, "audio", "Gulls.wav"), string(testkit.WAV(1, 8000)))
	writeFile(t, filepath.Join(dir, "audio", "fake.mp3"), "not sound")
	var got sound.Added
	e.decode(t, e.call(t, "POST", "/host/api/audio/modules/mod-harbour", ""), 200, &got)
	if len(got.Added) != 1 || got.Added[0].Name != "Gulls" || got.Added[0].Tags[0] != "mod-harbour" || len(got.Skipped) != 1 {
		t.Fatalf("added from the module: %+v", got)
	}
	for _, bad := range []string{"no-such-module", "..", "%2e%2e"} {
		if r := e.call(t, "POST", "/host/api/audio/modules/"+bad, ""); r.status != 404 {
			t.Errorf("POST …/modules/%s: %d %s, want 404", bad, r.status, r.body)
		}
	}
	var list []sound.Track
	e.decode(t, e.call(t, "GET", "/host/api/audio", ""), 200, &list)
	if len(list) != 1 {
		t.Errorf("the library holds %d tracks, want 1", len(list))
	}
}
