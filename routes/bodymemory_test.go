package routes

import (
	"bytes"
	"maps"
	"net/http"
	"runtime"
	"runtime/metrics"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gorilla/websocket"
	"github.com/vttapp/companion/core"
)

// What a hostile JSON body costs the server: the attack of issue 32 sent
// one 8 MiB JSON array in a PATCH and the server's memory rose by 330 MB
// before it refused it. Each body below is 8 MiB, shaped to cost the most
// per byte once decoded (a long array of numbers, an object of many short
// keys, an array of empty objects, nesting as deep as it goes), sent to
// every public endpoint that reads JSON; the test samples the heap while
// the server reads, decodes and refuses it, and reports the peak over the
// heap before, as a multiple of the body.

// heapPeak samples the bytes of live and not yet collected heap objects
// every 100 µs until stopped, and keeps the highest.
type heapPeak struct {
	stop chan struct{}
	done sync.WaitGroup
	peak atomic.Uint64
}

const heapObjects = "/memory/classes/heap/objects:bytes"

func heapNow() uint64 {
	s := []metrics.Sample{{Name: heapObjects}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

func startHeapPeak() *heapPeak {
	h := &heapPeak{stop: make(chan struct{})}
	h.peak.Store(heapNow())
	h.done.Add(1)
	go func() {
		defer h.done.Done()
		t := time.NewTicker(100 * time.Microsecond)
		defer t.Stop()
		for {
			select {
			case <-h.stop:
				return
			case <-t.C:
				if v := heapNow(); v > h.peak.Load() {
					h.peak.Store(v)
				}
			}
		}
	}()
	return h
}

func (h *heapPeak) end() uint64 {
	close(h.stop)
	h.done.Wait()
	if v := heapNow(); v > h.peak.Load() {
		h.peak.Store(v)
	}
	return h.peak.Load()
}

// hostileBodies are 8 MiB JSON bodies (less a little, to pass the body
// limit), each the most costly per byte of its kind.
func hostileBodies(size int) map[string][]byte {
	fill := func(open, item, sep, close string) []byte {
		var b bytes.Buffer
		b.WriteString(open)
		for b.Len()+len(item)+len(sep)+len(close) < size {
			if b.Len() > len(open) {
				b.WriteString(sep)
			}
			b.WriteString(item)
		}
		b.WriteString(close)
		return b.Bytes()
	}
	keys := func() []byte {
		var b bytes.Buffer
		b.WriteString(`{"data":{`)
		for i := 0; b.Len() < size-32; i++ {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(`"`)
			b.WriteString(strings.ToLower(strings.TrimLeft(itoa36(i), "0")))
			b.WriteString(`":0`)
		}
		b.WriteString(`}}`)
		return b.Bytes()
	}
	// Within the bounds: as many empty objects as a body may hold, the
	// rest one string, or the rest many strings of 1000 bytes.
	bounded := func(values int, rest func(n int) string) []byte {
		objects := strings.Repeat("{},", values)
		head := `{"data":{"x":[` + objects + `{}],"pad":`
		return []byte(head + rest(size-len(head)-4) + `}}`)
	}
	atBound := min(core.MaxJSONValues-100, core.JSONContainersBase+size/core.JSONContainerBytes-100)
	depth := size / 2
	return map[string][]byte{
		"numbers":             fill(`{"data":{"x":[`, "0", ",", `]}}`),
		"objects":             fill(`{"data":{"x":[`, "{}", ",", `]}}`),
		"keys":                keys(),
		"nesting":             []byte(`{"data":{"x":` + strings.Repeat("[", depth/2) + strings.Repeat("]", depth/2) + `}}`),
		"bounded, one string": bounded(atBound, func(n int) string { return `"` + strings.Repeat("x", n-2) + `"` }),
		"bounded, strings": bounded(atBound-10_000*size/(8<<20), func(n int) string {
			item := `"` + strings.Repeat("y", 998) + `"`
			k := (n - 2) / (len(item) + 1)
			return "[" + strings.Repeat(item+",", k-1) + item + "]"
		}),
	}
}

func itoa36(i int) string {
	const digits = "0123456789abcdefghijklmnopqrstuvwxyz"
	if i == 0 {
		return "a"
	}
	var b []byte
	for ; i > 0; i /= 36 {
		b = append([]byte{digits[i%36]}, b...)
	}
	return "k" + string(b)
}

// TestHostileBodiesCostAFewTimesTheirSize reports, per endpoint and body,
// the heap's peak rise while the server handles it; it fails when one
// passes five times the body (plus 4 MiB for what any request costs). On
// today's code an 8 MiB array of empty objects in a PATCH cost 358 MB.
func TestHostileBodiesCostAFewTimesTheirSize(t *testing.T) {
	if testing.Short() {
		t.Skip("sends 8 MiB bodies to every endpoint")
	}
	const size = 8<<20 - 1024
	e := newEnv(t, envOptions{maxBodyBytes: 8 << 20})
	endpoints := []struct{ method, path string }{
		{"PATCH", "/api/monsters/" + goblinID},
		{"PUT", "/api/monsters/" + goblinID},
		{"PATCH", "/api/combatants/" + heroCombatID},
		{"PATCH", "/api/tokens/" + tokenA},
		{"POST", "/api/messages"},
		{"POST", "/api/import"},
		{"PATCH", "/api/me/character"},
	}
	client := &http.Client{}
	for _, ep := range endpoints {
		for name, body := range hostileBodies(size) {
			runtime.GC()
			before := heapNow()
			peak := startHeapPeak()
			req, _ := http.NewRequest(ep.method, e.srv.URL+ep.path, bytes.NewReader(body))
			req.Header.Set("Content-Type", "application/json")
			resp, err := client.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			rise := int64(peak.end()) - int64(before)
			ratio := float64(rise) / float64(len(body))
			t.Logf("%-6s %-28s %-20s -> %d: heap peak +%5.1f MB, %.2fx the body", ep.method, ep.path, name, resp.StatusCode, float64(rise)/1e6, ratio)
			if rise > 5*int64(len(body))+4<<20 {
				t.Errorf("%s %s with %s: the heap rose by %.1f MB, over 5x the body's %.1f MB", ep.method, ep.path, name, float64(rise)/1e6, float64(len(body))/1e6)
			}
		}
	}

	// Sixteen at once (the connections one address may hold), the most
	// costly body within the bounds: the attack reached 2.8 GB.
	body := hostileBodies(size)["bounded, one string"]
	runtime.GC()
	before := heapNow()
	peak := startHeapPeak()
	var wg sync.WaitGroup
	for range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			req, _ := http.NewRequest("PATCH", e.srv.URL+"/api/monsters/"+goblinID, bytes.NewReader(body))
			req.Header.Set("Content-Type", "application/json")
			if resp, err := client.Do(req); err == nil {
				resp.Body.Close()
			}
		}()
	}
	wg.Wait()
	rise := int64(peak.end()) - int64(before)
	t.Logf("16 such PATCHes at once: heap peak +%.1f MB (%.2fx one body each)", float64(rise)/1e6, float64(rise)/16/float64(len(body)))
	if rise > 16*(5*int64(len(body))+4<<20) {
		t.Errorf("16 bodies at once: +%.1f MB", float64(rise)/1e6)
	}

	// The WebSocket: a frame of 1 MiB (its limit) as updateEntity.
	ws, _, err := websocket.DefaultDialer.Dial("ws"+strings.TrimPrefix(e.srv.URL, "http")+"/ws", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	// awaitAnswer reads frames until the answer to requestID.
	awaitAnswer := func(requestID string) string {
		for {
			ws.SetReadDeadline(time.Now().Add(30 * time.Second))
			_, b, err := ws.ReadMessage()
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(string(b), `"responseId":"`+requestID+`"`) {
				return string(b)
			}
		}
	}
	// measure sends frame once, after everything before it has settled,
	// and returns the server's answer and the heap's peak rise meanwhile.
	measure := func(frame []byte) (string, int64) {
		// The frame before may have been stored and broadcast: its
		// entityUpdated reaches this connection after its answer. A ping
		// answers once all of it has, so none of it is counted here.
		if err := ws.WriteMessage(websocket.TextMessage, []byte(`{"name":"ping","requestId":"settled"}`)); err != nil {
			t.Fatal(err)
		}
		awaitAnswer("settled")
		runtime.GC()
		before := heapNow()
		peak := startHeapPeak()
		if err := ws.WriteMessage(websocket.TextMessage, frame); err != nil {
			t.Fatal(err)
		}
		answer := awaitAnswer("m")
		return answer, int64(peak.end()) - int64(before)
	}
	// In a fixed order, the one frame the server accepts last: it stores
	// an entity of 1 MiB, which a refused frame measured after it would
	// merge with and copy too (16 MB, not 8, seen in CI when the map's
	// order put it first).
	bodies := hostileBodies(1<<20 - 256)
	names := slices.Sorted(maps.Keys(bodies))
	names = append(slices.DeleteFunc(names, func(n string) bool { return n == "bounded, strings" }), "bounded, strings")
	for _, name := range names {
		data := bodies[name]
		frame := []byte(`{"name":"updateEntity","requestId":"m","data":{"id":"` + goblinID + `",` + string(data[1:]) + `}`)
		answer, rise := measure(frame)
		// What a refused frame costs is bounded; one the server accepts
		// (an entity of 1 MiB, the most it stores) is stored, encoded for
		// the store, the event and the answer, and reported only. The
		// sample counts garbage not yet collected, so where the collector
		// ran decides the figure: about 1 run in 4, a refused frame that
		// costs 6 MB shows 14 (the same before and after the hub moved to
		// gorilla's writer). A cost is its least of three tries: noise
		// passes, a real rise shows in all three.
		refused := strings.Contains(answer, `"name":"error"`)
		limit := 5*int64(len(frame)) + 4<<20
		for try := 1; refused && rise > limit && try < 3; try++ {
			_, again := measure(frame)
			rise = min(rise, again)
		}
		t.Logf("WS     updateEntity                 %-20s -> %.60s: heap peak +%5.1f MB, %.2fx the frame", name, answer, float64(rise)/1e6, float64(rise)/float64(len(frame)))
		if refused && rise > limit {
			t.Errorf("updateEntity with %s: the heap rose by %.1f MB, over 5x the frame's %.1f MB", name, float64(rise)/1e6, float64(len(frame))/1e6)
		}
	}
}
