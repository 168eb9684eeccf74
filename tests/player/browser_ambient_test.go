package player

import (
	"encoding/json"
	"fmt"
	"math"
	"testing"
	"time"

	"github.com/vttapp/companion/tests/e2e"
)

type ambientMap struct {
	ID       string
	GridSize float64
	Width    float64
	Height   float64
	Walls    []struct {
		Data []float64
		Type string
		Door string
	}
	Tokens []struct {
		ID, Name, Role string
		Player         bool
		X, Y           float64
	}
}

// crossesWall: the segment meets a wall that blocks sight (the rule of
// docs/api.md, "Ambient sounds").
func crossesWall(m ambientMap, ax, ay, bx, by float64) bool {
	cross := func(ox, oy, px, py, qx, qy float64) float64 { return (px-ox)*(qy-oy) - (py-oy)*(qx-ox) }
	for _, w := range m.Walls {
		if w.Type == "invisible" || w.Type == "window" || w.Type == "terrain" || ((w.Type == "door" || w.Type == "secretDoor") && w.Door == "open") {
			continue
		}
		for i := 0; i+3 < len(w.Data); i += 2 {
			cx, cy, dx, dy := w.Data[i], w.Data[i+1], w.Data[i+2], w.Data[i+3]
			if cross(ax, ay, bx, by, cx, cy)*cross(ax, ay, bx, by, dx, dy) < 0 && cross(cx, cy, dx, dy, ax, ay)*cross(cx, cy, dx, dy, bx, by) < 0 {
				return true
			}
		}
	}
	return false
}

// TestAmbientSoundIsHeardByDistanceAndMuffledByAWall is the issue's
// acceptance of ambient sounds: on the demo map, a sound of radius 6
// squares 3 squares from the player's token plays at the level the
// documented curve gives ((1 - 3/6)² = a quarter, times the default
// ambience level 0.8); another as far, behind a wall the test puts
// between, at a quarter of that; a hidden one is not played at all.
func TestAmbientSoundIsHeardByDistanceAndMuffledByAWall(t *testing.T) {
	t.Parallel()
	srv := e2e.StartServer(t, e2e.ServerOptions{})
	host := e2e.NewAPIClient(t, srv.HostURL)
	var snap struct{ Map ambientMap }
	if r := e2e.NewAPIClient(t, srv.URL).Get("/api", &snap); r.Status != 200 || snap.Map.ID == "" || snap.Map.GridSize <= 0 {
		t.Fatalf("the demo map: %d %s", r.Status, r.Body)
	}
	m := snap.Map
	// The listener: a player token whose name is its own.
	tok := -1
	for i, tk := range m.Tokens {
		count := 0
		for _, o := range m.Tokens {
			if o.Name == tk.Name {
				count++
			}
		}
		if tk.Player && tk.Name != "" && count == 1 {
			tok = i
			break
		}
	}
	if tok < 0 {
		t.Fatalf("the demo map has no player token with a name of its own: %+v", m.Tokens)
	}
	me := m.Tokens[tok]
	// Two directions 3 squares away, inside the map, with no wall between.
	var clear [][2]float64
	for k := range 8 {
		a := float64(k) * math.Pi / 4
		x, y := me.X+3*m.GridSize*math.Cos(a), me.Y+3*m.GridSize*math.Sin(a)
		if x > 0 && y > 0 && x < m.Width && y < m.Height && !crossesWall(m, me.X, me.Y, x, y) {
			clear = append(clear, [2]float64{x, y})
		}
	}
	if len(clear) < 2 {
		t.Fatalf("no two clear directions around %s", me.Name)
	}
	open, walled := clear[0], clear[len(clear)-1]
	// A wall across the way to the second, at its middle.
	mx, my := (me.X+walled[0])/2, (me.Y+walled[1])/2
	dx, dy := walled[0]-me.X, walled[1]-me.Y
	wall := fmt.Sprintf(`{"data": [%f, %f, %f, %f], "type": "normal"}`, mx-dy/3, my+dx/3, mx+dy/3, my-dx/3)
	if r := host.Do("POST", "/host/api/maps/"+m.ID+"/walls", wall); r.Status != 201 {
		t.Fatalf("the wall: %d %s", r.Status, r.Body)
	}
	if r := host.Do("PATCH", "/host/api/maps/"+m.ID, `{"lineOfSight": true}`); r.Status != 200 {
		t.Fatalf("line of sight: %d %s", r.Status, r.Body)
	}
	track := uploadSound(t, srv, 30)
	var tr []struct{ ID, URL string }
	host.Get("/host/api/audio", &tr)
	if len(tr) != 1 || tr[0].ID != track {
		t.Fatalf("the library: %+v", tr)
	}
	ids := map[string]string{}
	for name, at := range map[string][2]float64{"open": open, "walled": walled, "hidden": open} {
		body := fmt.Sprintf(`{"x": %f, "y": %f, "radius": 6, "url": %q, "hidden": %v}`, at[0], at[1], tr[0].URL, name == "hidden")
		r := host.Do("POST", "/host/api/maps/"+m.ID+"/sounds", body)
		var o struct{ ID string }
		if json.Unmarshal(r.Body, &o); r.Status != 201 || o.ID == "" {
			t.Fatalf("sound %s: %d %s", name, r.Status, r.Body)
		}
		ids[name] = o.ID
	}

	p := e2e.OpenPlayerWith(t, srv, me.Name)
	level := func(id string) string {
		return fmt.Sprintf(`(() => { const a = (window.companionDebug.sound()?.ambient ?? []).find((v) => v.id === %q); return a ? a.volume : -1; })()`, id)
	}
	p.WaitFor("the open sound at a quarter of the ambience level", fmt.Sprintf(`Math.abs(%s - 0.25 * 0.8) < 0.001`, level(ids["open"])), 20*time.Second)
	p.WaitFor("the sound behind the wall at a quarter of that", fmt.Sprintf(`Math.abs(%s - 0.25 * 0.25 * 0.8) < 0.001`, level(ids["walled"])), 20*time.Second)
	p.WaitFor("both playing", `(window.companionDebug.sound()?.ambient ?? []).filter((a) => !a.paused).length === 2`, 20*time.Second)
	if v := p.Eval(level(ids["hidden"])); v != float64(-1) {
		t.Fatalf("a hidden sound plays at %v", v)
	}
	t.Logf("%s at (%.0f, %.0f), grid %.0f px: open sound %v, behind the wall %v", me.Name, me.X, me.Y, m.GridSize, p.Eval(level(ids["open"])), p.Eval(level(ids["walled"])))
}
