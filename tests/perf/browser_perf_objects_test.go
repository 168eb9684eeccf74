package perf

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/vttapp/companion/tests/e2e"
)

// objectsWhat names the objects floorObjects adds, in its rows.
const objectsWhat = ", +50 templates, 200 strokes, 40 lights, 2,000 walls"

// floorObjects (issue 39, item 4): the pan of floorPan and the drag of
// floorDrag on maps that also carry 50 area templates, 200 strokes, 40
// lights and 2,000 walls, all added through the host API as a game
// master's tool would. The floor page draws the templates, the strokes
// and the lights' tints from the same snapshot (web/client/floor); it has
// no line of sight, so the walls, the lights' polygons and the darkness
// are what the player client adds above it.
func floorObjects(t *testing.T, b *benchBrowser, rounds int) []floorRow {
	pan := e2e.StartServer(t, e2e.ServerOptions{Args: []string{"--system", e2e.CrowdedSystem(t, 500, 20, 400)}})
	var snap struct{ Map struct{ ID string } }
	e2e.HttpJSON(t, "GET", pan.URL+"/api", "", &snap)
	addObjects(t, pan, snap.Map.ID)
	rows := floorPanOn(t, b, rounds, pan, objectsWhat)
	drag := e2e.StartServer(t, e2e.ServerOptions{})
	addObjects(t, drag, e2e.DemoMapID)
	return append(rows, floorDragOn(t, b, rounds, drag, objectsWhat, false)...)
}

// addObjects adds addMarks' templates and strokes, 40 lights in an 8 x 5
// lattice (dim 20 ft, bright 10 ft, four colours) and 2,000 short walls
// (20-45 px, across or along, at places drawn from a fixed seed) to a
// 1400 x 980 map. The walls leave the band of rows 4 to 7 open (y 300 to
// 530): the demo party stands there and the drags cross it, and a token
// dragged into a wall would be stopped at it.
func addObjects(t *testing.T, srv *e2e.Server, mapID string) {
	t.Helper()
	addMarks(t, srv, mapID)
	colours := []string{"#ffcc66", "#ff9944", "#99ccff", "#ccff99"}
	var lights []string
	for i := range 40 {
		lights = append(lights, fmt.Sprintf(`{"enabled": true, "x": %d, "y": %d, "radiusMin": 10, "radiusMax": 20, "color": %q, "opacity": 0.45}`,
			90+(i%8)*175, 100+(i/8)*195, colours[i%4]))
	}
	postMapObjects(t, srv, mapID, "lights", lights)
	rng := rand.New(rand.NewPCG(39, 4))
	var walls []string
	for len(walls) < 2000 {
		x, y := 20+rng.Float64()*1340, 20+rng.Float64()*920
		n := 20 + rng.Float64()*25
		x1, y1 := x+n, y
		if rng.IntN(2) == 1 {
			x1, y1 = x, y+n
		}
		if max(y, y1) > 300 && min(y, y1) < 530 {
			continue
		}
		walls = append(walls, fmt.Sprintf(`{"data": [%.0f, %.0f, %.0f, %.0f], "type": "normal"}`, x, y, x1, y1))
	}
	postMapObjects(t, srv, mapID, "walls", walls)
}
