package perf

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"mime/multipart"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gorilla/websocket"
	"github.com/vttapp/companion/tests/e2e"
)

// The server on a small board: a three-hour session compressed into a
// few minutes, run against the built binary, with its memory and CPU
// sampled from /proc as it goes. Eight seated players and a display are
// connected throughout; each player drags their token now and then,
// chats and rolls; the game master runs combat rounds, changes the map on
// the player screen every twenty session minutes and shows a page every
// hour. What a person at such a table does in three hours is scaled into
// the run (at 3 minutes, 60 session seconds go by each second).
//
// BenchmarkSmallBoardSession reports, for each session hour, the peak
// resident memory, and the CPU time per player event beside the bare
// WebSocket fan-out loop's (ws_bench_test.go) CPU for delivering one
// event to the same nine clients. The targets (issue "frames"): the whole
// session within 64 MB RSS, the last hour's peak within 10% of the
// first's. Run it alone on a quiet machine:
//
//	go test -run '^$' -bench SmallBoardSession -benchtime 1x ./tests/perf/
//
// COMPANION_SESSION=10m stretches the run (3m by default, the least: a
// shorter run would have players post faster than a device may).
// TestSmallBoardSessionRuns plays the same script for a few seconds in
// every run of the suite, so that the script cannot rot.

const (
	sessionPlayers = 8
	// Per player and session minute: a drag of dragMoves moves at 60 a
	// second (real time: a hand moving a token), half a chat line, a
	// third of a roll.
	sessionDragsPerMinute = 1.0
	sessionChatsPerMinute = 0.5
	sessionRollsPerMinute = 1.0 / 3
	sessionDragMoves      = 20
	sessionMaps           = 3
)

// sessionScript is how long the session lasts and how often the game
// master acts, in session time.
type sessionScript struct {
	length, turnEvery, mapEvery, pageEvery time.Duration
}

// threeHours is the session the benchmark stands for.
var threeHours = sessionScript{length: 3 * time.Hour, turnEvery: 30 * time.Second, mapEvery: 20 * time.Minute, pageEvery: time.Hour}

// sessionSample is one reading of the server process.
type sessionSample struct {
	at  time.Duration // session time
	rss int64
	cpu time.Duration
}

// sessionResult is one run.
type sessionResult struct {
	real    time.Duration
	script  sessionScript
	samples []sessionSample
	// Player events sent: moves (each a tokenMoved frame), chats, rolls;
	// the game master's actions apart.
	moves, chats, rolls int64
	turns, maps, pages  int64
	frames              int64 // frames the nine clients received
	errors              []string
	seatsTaken          bool
}

func (r sessionResult) playerEvents() int64 { return r.moves + r.chats + r.rolls }

// hourPeaks is the peak RSS of each session hour.
func (r sessionResult) hourPeaks() []int64 {
	hours := max(1, int(r.script.length/time.Hour))
	peaks := make([]int64, hours)
	for _, s := range r.samples {
		h := min(int(s.at/time.Hour), hours-1)
		peaks[h] = max(peaks[h], s.rss)
	}
	return peaks
}

func (r sessionResult) cpu() time.Duration {
	if len(r.samples) < 2 {
		return 0
	}
	return r.samples[len(r.samples)-1].cpu - r.samples[0].cpu
}

// procReading is the resident set size and CPU time (user + system) of a
// process, from /proc.
func procReading(pid int) (rss int64, cpu time.Duration, err error) {
	status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, 0, err
	}
	for _, line := range strings.Split(string(status), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			rss = kb << 10
		}
	}
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, 0, err
	}
	// The command name may hold spaces: fields count from after its ')'.
	fields := strings.Fields(string(stat[bytes.LastIndexByte(stat, ')')+1:]))
	if len(fields) < 13 {
		return 0, 0, fmt.Errorf("short /proc stat: %q", stat)
	}
	utime, _ := strconv.ParseInt(fields[11], 10, 64)
	stime, _ := strconv.ParseInt(fields[12], 10, 64)
	const ticks = 100 // USER_HZ on Linux
	return rss, time.Duration(utime+stime) * time.Second / ticks, nil
}

// sessionIDs are the archive's fixed ids.
func sessionCharacterID(i int) string {
	return fmt.Sprintf("5e55e000-0000-4000-8000-0000000001%02d", i)
}
func sessionMapID(m int) string { return fmt.Sprintf("5e55e000-0000-4000-8000-0000000002%02d", m) }
func sessionTokenID(m, i int) string {
	return fmt.Sprintf("5e55e000-0000-4000-8000-00000003%02d%02d", m, i)
}

const sessionPageID = "5e55e000-0000-4000-8000-000000000400"

// sessionArchive is a campaign of our own for the run: eight characters,
// four monsters, three maps each holding every one of them, a page.
func sessionArchive(t testing.TB) []byte {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	put := func(name string, v any) {
		w, err := zw.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.NewEncoder(w).Encode(v); err != nil {
			t.Fatal(err)
		}
	}
	type obj = map[string]any
	put("campaign.json", obj{"name": "Lanternfall Benchmark Table", "slug": "lanternfall-bench", "system": "dnd5e", "attributes": obj{}})
	var characters, monsters []obj
	for i := range sessionPlayers {
		characters = append(characters, obj{"id": sessionCharacterID(i), "name": fmt.Sprintf("Wayfarer %d", i+1),
			"data": obj{"hit_points": 24, "armor_class": []obj{{"value": 14}}}})
	}
	for i := range 4 {
		monsters = append(monsters, obj{"id": sessionCharacterID(50 + i), "name": fmt.Sprintf("Bog Lurker %d", i+1),
			"data": obj{"hit_points": 11, "armor_class": []obj{{"value": 12}}, "challenge_rating": 0.5}})
	}
	put("characters.json", characters)
	put("monsters.json", monsters)
	var maps []obj
	for m := range sessionMaps {
		var tokens []obj
		for i := range sessionPlayers {
			tokens = append(tokens, obj{"id": sessionTokenID(m, i), "name": fmt.Sprintf("Wayfarer %d", i+1),
				"x": 105 + 70*i, "y": 105, "entityId": sessionCharacterID(i), "role": "friendly"})
		}
		for i := range 4 {
			tokens = append(tokens, obj{"id": sessionTokenID(m, 50+i), "name": fmt.Sprintf("Bog Lurker %d", i+1),
				"x": 105 + 140*i, "y": 805, "entityId": sessionCharacterID(50 + i)})
		}
		maps = append(maps, obj{"id": sessionMapID(m), "name": fmt.Sprintf("Fen Crossing %d", m+1),
			"width": 1400, "height": 980, "gridSize": 70, "tokens": tokens,
			"walls": []obj{{"id": fmt.Sprintf("W-%d", m), "data": []int{0, 420, 700, 420}, "type": "door", "door": "closed"}}})
	}
	put("maps.json", maps)
	put("pages.json", []obj{{"id": sessionPageID, "name": "The Lantern Ferry",
		"content": "<h2>Read aloud</h2><p>A ferry lantern swings over black water.</p>"}})
	put("screen.json", obj{"mapId": sessionMapID(0), "interaction": "all"})
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// sessionHost calls the host API; a failure is recorded, not fatal (the
// run goes on and reports it).
type sessionHost struct {
	base   string
	client *http.Client
	mu     *sync.Mutex
	errs   *[]string
}

func (h sessionHost) call(method, path string, body any) []byte {
	var r io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		r = bytes.NewReader(b)
	}
	req, _ := http.NewRequest(method, h.base+path, r)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := h.client.Do(req)
	if err != nil {
		h.fail("%s %s: %v", method, path, err)
		return nil
	}
	defer resp.Body.Close()
	out, _ := io.ReadAll(resp.Body)
	if resp.StatusCode >= 300 {
		h.fail("%s %s: %d %.200s", method, path, resp.StatusCode, out)
	}
	return out
}

func (h sessionHost) fail(format string, args ...any) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if len(*h.errs) < 40 {
		*h.errs = append(*h.errs, fmt.Sprintf(format, args...))
	}
}

// runSession starts the built binary, imports the session's campaign,
// seats the players and plays the script for real (wall) time.
func runSession(tb testing.TB, script sessionScript, real time.Duration) sessionResult {
	srv := e2e.StartServer(tb, e2e.ServerOptions{Args: []string{"--empty"}})
	var mu sync.Mutex
	res := sessionResult{real: real, script: script}
	host := sessionHost{base: srv.HostURL, client: &http.Client{Timeout: 30 * time.Second}, mu: &mu, errs: &res.errors}

	// The campaign, imported as a game master would.
	var form bytes.Buffer
	mw := multipart.NewWriter(&form)
	fw, _ := mw.CreateFormFile("file", "lanternfall.campaign")
	fw.Write(sessionArchive(tb))
	mw.Close()
	resp, err := http.Post(srv.HostURL+"/host/api/import", mw.FormDataContentType(), &form)
	if err != nil {
		tb.Fatal(err)
	}
	out, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusCreated {
		tb.Fatalf("importing the session's campaign: %d %s", resp.StatusCode, out)
	}
	host.call("POST", "/host/api/screen", map[string]string{"mapId": sessionMapID(0)})
	// The installer gives tokens ids of its own: find each by its entity.
	tokenIDs := make([]map[string]string, sessionMaps)
	for m := range sessionMaps {
		var got struct {
			Tokens []struct{ ID, EntityID string } `json:"tokens"`
		}
		if err := json.Unmarshal(host.call("GET", "/host/api/maps/"+sessionMapID(m), nil), &got); err != nil {
			tb.Fatalf("reading map %d: %v", m, err)
		}
		tokenIDs[m] = map[string]string{}
		for _, t := range got.Tokens {
			tokenIDs[m][t.EntityID] = t.ID
		}
	}
	tokenOf := func(m, i int) string { return tokenIDs[m][sessionCharacterID(i)] }

	// Nine clients: eight players, each in their seat, and a display.
	wsURL := "ws" + strings.TrimPrefix(srv.URL, "http") + "/ws"
	type client struct {
		conn *websocket.Conn
		wmu  sync.Mutex
	}
	var requestIDs atomic.Int64
	var answered sync.Map // responseId -> struct{}
	sendID := func(c *client, name string, data any) int64 {
		id := requestIDs.Add(1)
		frame, _ := json.Marshal(map[string]any{"name": name, "data": data, "requestId": id})
		c.wmu.Lock()
		defer c.wmu.Unlock()
		c.conn.WriteMessage(websocket.TextMessage, frame)
		return id
	}
	send := func(c *client, name string, data any) { sendID(c, name, data) }
	// awaitAnswer waits until the server answered request id: what the
	// client sent before it has been handled (a connection's requests are
	// handled in order).
	awaitAnswer := func(id int64) {
		for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(2 * time.Millisecond) {
			if _, ok := answered.Load(id); ok {
				return
			}
		}
		host.fail("request %d never answered", id)
	}
	var frames atomic.Int64
	var seated atomic.Int64
	var readers sync.WaitGroup
	clients := make([]*client, sessionPlayers+1)
	for i := range clients {
		conn, _, err := websocket.DefaultDialer.Dial(wsURL, nil)
		if err != nil {
			tb.Fatalf("client %d: %v", i, err)
		}
		c := &client{conn: conn}
		clients[i] = c
		readers.Add(1)
		go func(i int) {
			defer readers.Done()
			for {
				_, msg, err := conn.ReadMessage()
				if err != nil {
					return
				}
				frames.Add(1)
				var env struct {
					Name       string          `json:"name"`
					Data       json.RawMessage `json:"data"`
					ResponseID int64           `json:"responseId"`
				}
				if json.Unmarshal(msg, &env) != nil {
					continue
				}
				if env.ResponseID != 0 {
					answered.Store(env.ResponseID, struct{}{})
				}
				switch {
				case env.Name == "error":
					host.fail("client %d got an error: %.200s", i, env.Data)
				case env.Name == "takeSeat" && bytes.Contains(env.Data, []byte(`"seatToken"`)):
					seated.Add(1)
				}
			}
		}(i)
		name, runMode := fmt.Sprintf("Player %d", i+1), "normal"
		if i == sessionPlayers {
			name, runMode = "Table display", "tv"
		}
		send(c, "clientUpdated", map[string]any{"name": name, "runMode": runMode, "device": fmt.Sprintf("bench-device-%d", i),
			"screenWidth": 1280, "screenHeight": 800})
		if i < sessionPlayers {
			send(c, "takeSeat", map[string]any{"seatId": sessionCharacterID(i), "player": name})
		}
	}
	defer func() {
		for _, c := range clients {
			c.conn.Close()
		}
		readers.Wait()
	}()
	for deadline := time.Now().Add(15 * time.Second); seated.Load() < sessionPlayers && time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
	}
	res.seatsTaken = seated.Load() == sessionPlayers

	// Combat with everyone on the first map.
	startCombat := func(m int) {
		var list []map[string]any
		for i := range sessionPlayers {
			list = append(list, map[string]any{"tokenId": tokenOf(m, i)})
		}
		for i := range 4 {
			list = append(list, map[string]any{"tokenId": tokenOf(m, 50+i)})
		}
		host.call("POST", "/host/api/combatants", map[string]any{"combatants": list})
		host.call("POST", "/host/api/combatants/initiative", nil)
		host.call("POST", "/host/api/game/start", nil)
	}
	startCombat(0)

	pid := srv.Cmd.Process.Pid
	scale := float64(script.length) / float64(real)
	t0 := time.Now()
	sessionNow := func() time.Duration { return time.Duration(float64(time.Since(t0)) * scale) }
	stop := make(chan struct{})
	var wg sync.WaitGroup

	// The sampler: a reading every 100 ms of real time.
	wg.Add(1)
	go func() {
		defer wg.Done()
		tick := time.NewTicker(100 * time.Millisecond)
		defer tick.Stop()
		for {
			rss, cpu, err := procReading(pid)
			if err == nil {
				mu.Lock()
				res.samples = append(res.samples, sessionSample{at: sessionNow(), rss: rss, cpu: cpu})
				mu.Unlock()
			}
			select {
			case <-stop:
				return
			case <-tick.C:
			}
		}
	}()

	// The players: each waits a random share of a session minute between
	// its actions, chosen by the rates above.
	every := func(perMinute float64) time.Duration {
		return time.Duration(float64(time.Minute) / perMinute / scale)
	}
	// A map change waits for the drags in flight, and a drag for a map
	// change under way: a drag of a token on a map just taken off the
	// screen is refused, rightly, and the run counts refusals as errors.
	screenMap := atomic.Int64{}
	var mapChange sync.RWMutex
	for i := range sessionPlayers {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(i), 7))
			c := clients[i]
			next := func(d time.Duration) time.Time {
				return time.Now().Add(time.Duration(float64(d) * (0.5 + rng.Float64())))
			}
			drag, chat, roll := next(every(sessionDragsPerMinute)), next(every(sessionChatsPerMinute)), next(every(sessionRollsPerMinute))
			x, y := 105+70*i, 105
			for {
				select {
				case <-stop:
					return
				case <-time.After(20 * time.Millisecond):
				}
				now := time.Now()
				switch {
				case now.After(drag):
					mapChange.RLock()
					token := tokenOf(int(screenMap.Load()), i)
					send(c, "tokenMoved", map[string]any{"id": token, "x": x, "y": y, "state": "start"})
					for step := range sessionDragMoves {
						x, y = 105+(x-105+7)%1190, 105+(y-105+(step%3))%770
						send(c, "tokenMoved", map[string]any{"id": token, "x": x, "y": y, "state": "control"})
						atomic.AddInt64(&res.moves, 1)
						time.Sleep(time.Second / 60)
					}
					// The map may change once the server has handled the
					// drag, not when it was sent: under load the socket's
					// frames wait behind the game master's HTTP request.
					awaitAnswer(sendID(c, "tokenMoved", map[string]any{"id": token, "x": x, "y": y, "state": "end"}))
					mapChange.RUnlock()
					drag = next(every(sessionDragsPerMinute))
				case now.After(chat):
					send(c, "createMessage", map[string]any{"text": fmt.Sprintf("I keep watch on the %d-th lantern.", rng.IntN(9)+1)})
					atomic.AddInt64(&res.chats, 1)
					chat = next(every(sessionChatsPerMinute))
				case now.After(roll):
					send(c, "createMessage", map[string]any{"text": "/roll 1d20+" + strconv.Itoa(rng.IntN(6))})
					atomic.AddInt64(&res.rolls, 1)
					roll = next(every(sessionRollsPerMinute))
				}
			}
		}(i)
	}

	// The game master: turns, maps, pages, on the session clock.
	wg.Add(1)
	go func() {
		defer wg.Done()
		lastTurn, lastMap, lastPage := time.Duration(0), time.Duration(0), -script.pageEvery
		for {
			select {
			case <-stop:
				return
			case <-time.After(10 * time.Millisecond):
			}
			now := sessionNow()
			switch {
			case now-lastPage >= script.pageEvery:
				host.call("POST", "/host/api/pages/"+sessionPageID+"/show", map[string]any{})
				res.pages++
				lastPage = now
			case now-lastMap >= script.mapEvery:
				m := int(res.maps+1) % sessionMaps
				// Combat on the old map ends and its combatants leave.
				var ended struct {
					Game struct {
						Combatants []struct{ ID string } `json:"combatants"`
					} `json:"game"`
				}
				json.Unmarshal(host.call("POST", "/host/api/game/end", nil), &ended)
				for _, c := range ended.Game.Combatants {
					host.call("DELETE", "/host/api/combatants/"+c.ID, nil)
				}
				mapChange.Lock()
				host.call("POST", "/host/api/screen", map[string]string{"mapId": sessionMapID(m)})
				screenMap.Store(int64(m))
				mapChange.Unlock()
				startCombat(m)
				res.maps++
				lastMap = now
			case now-lastTurn >= script.turnEvery:
				host.call("POST", "/host/api/game/next", nil)
				res.turns++
				lastTurn = now
			}
		}
	}()

	time.Sleep(real)
	close(stop)
	wg.Wait()
	res.frames = frames.Load()
	return res
}

// TestSmallBoardSessionRuns plays a few seconds of the session script:
// every player takes a seat, events flow to the nine clients, nothing is
// refused, and /proc is read. The measurement is the benchmark's.
func TestSmallBoardSessionRuns(t *testing.T) {
	if testing.Short() {
		t.Skip("plays a session against the built binary")
	}
	// Ten session minutes in six seconds: two map changes, three pages.
	r := runSession(t, sessionScript{length: 10 * time.Minute, turnEvery: 30 * time.Second, mapEvery: 3 * time.Minute, pageEvery: 4 * time.Minute}, 6*time.Second)
	if !r.seatsTaken {
		t.Fatalf("not every player took a seat; errors: %v", r.errors)
	}
	if len(r.errors) > 0 {
		t.Fatalf("the session met errors: %v", r.errors)
	}
	if r.moves == 0 || r.chats+r.rolls == 0 || r.turns == 0 || r.maps == 0 || r.pages == 0 {
		t.Fatalf("the script did not play: moves %d, chats %d, rolls %d, turns %d, maps %d, pages %d", r.moves, r.chats, r.rolls, r.turns, r.maps, r.pages)
	}
	if r.frames < r.playerEvents() {
		t.Fatalf("the clients received %d frames for %d player events", r.frames, r.playerEvents())
	}
	if len(r.samples) < 10 || r.samples[len(r.samples)-1].rss <= 0 || r.cpu() <= 0 {
		t.Fatalf("the server process was not sampled: %d samples", len(r.samples))
	}
}

func BenchmarkSmallBoardSession(b *testing.B) {
	real := 3 * time.Minute
	if spec := os.Getenv("COMPANION_SESSION"); spec != "" {
		d, err := time.ParseDuration(spec)
		// Shorter, a player's chat and rolls would pass the message
		// budget of a device (one a second after a burst of ten).
		if err != nil || d < 3*time.Minute {
			b.Fatalf("COMPANION_SESSION=%q: want a duration of 3m or more", spec)
		}
		real = d
	}
	for range b.N {
		// The floor first: the bare loop delivering a tokenMoved to nine
		// clients, the CPU the fan-out of one event costs at least.
		bare := runFanout(b, "bare", sessionPlayers+1, 3000, 60)
		b.StartTimer() // runFanout stopped it: the session is what ns/op times
		r := runSession(b, threeHours, real)
		if !r.seatsTaken || len(r.errors) > 0 {
			b.Fatalf("the session did not run cleanly: seats %v, errors %v", r.seatsTaken, r.errors)
		}
		peaks := r.hourPeaks()
		mb := func(v int64) float64 { return float64(v) / (1 << 20) }
		var peak int64
		for h, p := range peaks {
			peak = max(peak, p)
			b.ReportMetric(mb(p), fmt.Sprintf("hour%d-peak-MB", h+1))
		}
		growth := float64(peaks[len(peaks)-1]) / float64(max(1, peaks[0]))
		perEvent := r.cpu() / time.Duration(max(1, r.playerEvents()))
		floor := bare.cpuPerMsg * (sessionPlayers + 1)
		b.ReportMetric(mb(peak), "peak-RSS-MB")
		b.ReportMetric(growth, "last/first-hour-peak")
		b.ReportMetric(float64(perEvent.Microseconds()), "cpu-µs/player-event")
		b.ReportMetric(float64(floor.Microseconds()), "floor-cpu-µs/event")
		if floor > 0 {
			b.ReportMetric(float64(perEvent)/float64(floor), "cpu-ratio")
		}
		b.ReportMetric(float64(r.cpu().Milliseconds()), "cpu-ms")
		b.Logf("%v of real time for %v of session: %d player events (%d moves, %d chats, %d rolls), %d turns, %d map changes, %d pages; %d frames received",
			real, threeHours.length, r.playerEvents(), r.moves, r.chats, r.rolls, r.turns, r.maps, r.pages, r.frames)
		b.Logf("RSS peak per hour %.1f MB (target: all within 64 MB; last within 10%% of first: %.2fx); CPU %v in all, %v per player event against the bare fan-out's %v for one event to nine clients (%.1fx)",
			mb(peak), growth, r.cpu().Round(time.Millisecond), perEvent.Round(time.Microsecond), floor.Round(time.Microsecond), float64(perEvent)/float64(max(1, floor)))
		if n := len(r.samples); n > 0 {
			b.Logf("first sample %.1f MB, last %.1f MB", mb(r.samples[0].rss), mb(r.samples[n-1].rss))
		}
	}
}
