package engine_test

import (
	"context"
	"encoding/json"
	"math"
	"strings"
	"sync"
	"testing"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/core/engine"
	"github.com/vttapp/companion/core/engine/internal/kernel"
	"github.com/vttapp/companion/core/mapobjects"
	"github.com/vttapp/companion/core/redact"
	"github.com/vttapp/companion/internal/testkit"
)

// marksGame is the fixture game (its map on the player screen) with a
// seated player, Ann on the Hero, and an unseated one, Bo, on his device.
func marksGame(t *testing.T, mode string) (g *testkit.Game, ann, bo engine.PlayerAccess) {
	t.Helper()
	g = testkit.NewGame(t, testkit.GameOptions{})
	ctx := context.Background()
	taken, err := g.Service.TakeSeat(ctx, core.Actor{Name: "Ann"}, testkit.HeroID, "")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := g.Service.UpdateSettings(ctx, kernel.SettingsPatch{Interaction: &mode}); err != nil {
		t.Fatal(err)
	}
	ann = g.Service.PlayerAs(core.Actor{Role: core.ClientPlayer, Seat: core.SeatHash(taken.SeatToken), Device: "connection:1"})
	bo = g.Service.PlayerAs(core.Actor{Role: core.ClientPlayer, Device: "connection:2"})
	return g, ann, bo
}

func fireball() core.Object {
	return core.Object{"shape": "sphere", "x": 700.0, "y": 700.0, "radius": 280.0, "color": "#ff6600"}
}

func stroke() core.Object {
	return core.Object{"data": []any{10.0, 10.0, 50.0, 60.0, 90.0, 40.0}, "strokeColor": "#ff0000", "strokeWidth": 4.0}
}

// In mode all a player places a template, a drawing, a pin and a ruler;
// each is theirs (its id names them), each reaches players, and a pin they
// place is seen.
func TestPlayersMakeMarksInModeAll(t *testing.T) {
	g, ann, bo := marksGame(t, core.InteractionAll)
	ctx := context.Background()
	for kind, o := range map[string]core.Object{
		"areaEffects":  fireball(),
		"drawings":     stroke(),
		"markers":      {"x": 100.0, "y": 100.0, "label": "1", "name": "Trap", "reference": "/page/trap"},
		"measurements": {"data": []any{0.0, 0.0, 70.0, 70.0}, "type": "grid", "color": "#00ff00", "hidden": false},
	} {
		out, err := bo.AddMapObject(ctx, testkit.MapID, kind, o)
		if err != nil {
			t.Fatalf("%s: %v", kind, err)
		}
		id := out["id"].(string)
		if !strings.HasPrefix(mapobjects.MarkOwner(id), "dev-") {
			t.Errorf("%s: id %q names no device", kind, id)
		}
		k, _ := mapobjects.MapKindOf(kind)
		if !strings.Contains(g.Events.Take(), k.Event) {
			t.Errorf("%s: no %s", kind, k.Event)
		}
	}
	m, err := g.Service.Map(ctx, testkit.MapID)
	if err != nil {
		t.Fatal(err)
	}
	m = redact.PlayerMap(m)
	if len(m.AreaEffects) != 1 || len(m.Drawings) != 1 || len(m.Markers) != 1 || len(m.Measurements) != 1 {
		t.Fatalf("players see %d templates, %d drawings, %d pins, %d rulers", len(m.AreaEffects), len(m.Drawings), len(m.Markers), len(m.Measurements))
	}
	seated, err := ann.AddMapObject(ctx, testkit.MapID, "areaEffects", fireball())
	if err != nil || mapobjects.MarkOwner(seated["id"].(string)) != "seat-"+testkit.HeroID {
		t.Fatalf("a seated player's template: %v %v", seated, err)
	}
}

// Mode token: templates and rulers only, and only by a seated player;
// mode none: nothing. A spectator never marks.
func TestMarksFollowTheInteractionMode(t *testing.T) {
	g, ann, bo := marksGame(t, core.InteractionToken)
	ctx := context.Background()
	if _, err := ann.AddMapObject(ctx, testkit.MapID, "areaEffects", fireball()); err != nil {
		t.Fatalf("token mode, seated template: %v", err)
	}
	if _, err := ann.AddMapObject(ctx, testkit.MapID, "drawings", stroke()); core.KindOf(err) != core.KindConflict {
		t.Fatalf("token mode drawing: %v", err)
	}
	if _, err := bo.AddMapObject(ctx, testkit.MapID, "areaEffects", fireball()); core.KindOf(err) != core.KindForbidden {
		t.Fatalf("token mode, unseated template: %v", err)
	}
	none := core.InteractionNone
	if _, err := g.Service.UpdateSettings(ctx, kernel.SettingsPatch{Interaction: &none}); err != nil {
		t.Fatal(err)
	}
	if _, err := ann.AddMapObject(ctx, testkit.MapID, "areaEffects", fireball()); core.KindOf(err) != core.KindConflict {
		t.Fatalf("mode none: %v", err)
	}
	all := core.InteractionAll
	if _, err := g.Service.UpdateSettings(ctx, kernel.SettingsPatch{Interaction: &all}); err != nil {
		t.Fatal(err)
	}
	spectator := g.Service.PlayerAs(core.Actor{Role: core.ClientSpectator, Device: "connection:3"})
	if _, err := spectator.AddMapObject(ctx, testkit.MapID, "drawings", stroke()); core.KindOf(err) != core.KindForbidden {
		t.Fatalf("spectator: %v", err)
	}
	if _, err := bo.AddMapObject(ctx, testkit.MapID, "walls", core.Object{"data": []any{0.0, 0.0, 1.0, 1.0}}); core.KindOf(err) != core.KindForbidden {
		t.Fatalf("a player's wall: %v", err)
	}
	list, _ := g.Service.MapObjects(ctx, testkit.MapID, "areaEffects")
	if len(list) != 1 {
		t.Fatalf("%d templates stored, want the one allowed", len(list))
	}
}

// A player changes and removes only their own marks; the game master any.
// Clearing one's drawings leaves the others'.
func TestPlayersTouchOnlyTheirOwnMarks(t *testing.T) {
	g, ann, bo := marksGame(t, core.InteractionAll)
	ctx := context.Background()
	annsDrawing, err := ann.AddMapObject(ctx, testkit.MapID, "drawings", stroke())
	if err != nil {
		t.Fatal(err)
	}
	bosDrawing, err := bo.AddMapObject(ctx, testkit.MapID, "drawings", stroke())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := bo.AddMapObject(ctx, testkit.MapID, "drawings", stroke()); err != nil {
		t.Fatal(err)
	}
	annID, boID := annsDrawing["id"].(string), bosDrawing["id"].(string)
	if err := bo.DeleteMapObject(ctx, testkit.MapID, "drawings", annID); core.KindOf(err) != core.KindForbidden {
		t.Fatalf("Bo removing Ann's drawing: %v", err)
	}
	if _, err := bo.PatchMapObject(ctx, testkit.MapID, "drawings", annID, core.Object{"strokeColor": "#000000"}); core.KindOf(err) != core.KindForbidden {
		t.Fatalf("Bo recolouring Ann's drawing: %v", err)
	}
	if _, err := bo.PatchMapObject(ctx, testkit.MapID, "drawings", boID, core.Object{"hidden": true}); core.KindOf(err) != core.KindForbidden {
		t.Fatalf("Bo hiding his drawing: %v", err)
	}
	if out, err := bo.PatchMapObject(ctx, testkit.MapID, "drawings", boID, core.Object{"strokeColor": "#0000ff"}); err != nil || out["strokeColor"] != "#0000ff" {
		t.Fatalf("Bo recolouring his own: %v %v", out, err)
	}
	if err := bo.DeleteMapObject(ctx, testkit.MapID, "drawings", ""); err != nil {
		t.Fatal(err)
	}
	list, _ := g.Service.MapObjects(ctx, testkit.MapID, "drawings")
	if len(list) != 1 || list[0]["id"] != annID {
		t.Fatalf("after Bo cleared his: %v", list)
	}
	if err := g.Service.DeleteMapObject(ctx, testkit.MapID, "drawings", annID); err != nil {
		t.Fatalf("the game master removing Ann's drawing: %v", err)
	}
}

// Players mark only the map on the player screen, never hide a mark and
// never name it; what the game master hides stays out of their map.
func TestPlayersMarkOnlyWhatTheySee(t *testing.T) {
	g, _, bo := marksGame(t, core.InteractionAll)
	ctx := context.Background()
	if _, err := bo.AddMapObject(ctx, "no-such-map", "drawings", stroke()); !core.IsNotFound(err) {
		t.Fatalf("another map: %v", err)
	}
	hidden := stroke()
	hidden["layer"] = "dm"
	if _, err := bo.AddMapObject(ctx, testkit.MapID, "drawings", hidden); core.KindOf(err) != core.KindForbidden {
		t.Fatalf("a player's GM-layer drawing: %v", err)
	}
	named := stroke()
	named["id"] = "seat-x~1"
	if _, err := bo.AddMapObject(ctx, testkit.MapID, "drawings", named); core.KindOf(err) != core.KindInvalid {
		t.Fatalf("a player naming a mark: %v", err)
	}
	gm := stroke()
	gm["layer"] = "dm"
	gmDrawing, err := g.Service.AddMapObjects(ctx, testkit.MapID, "drawings", []core.Object{gm})
	if err != nil {
		t.Fatal(err)
	}
	m, err := g.Service.Map(ctx, testkit.MapID)
	if err != nil {
		t.Fatal(err)
	}
	m = redact.PlayerMap(m)
	raw, _ := json.Marshal(m)
	if strings.Contains(string(raw), gmDrawing[0]["id"].(string)) {
		t.Fatal("the GM-layer drawing reached players")
	}
	if err := bo.DeleteMapObject(ctx, testkit.MapID, "drawings", gmDrawing[0]["id"].(string)); !core.IsNotFound(err) {
		t.Fatalf("a player removing a hidden drawing: %v", err)
	}
}

// The bad input of the issue: each refused with a clear error, nothing
// stored.
func TestBadMarksAreRefused(t *testing.T) {
	g, _, bo := marksGame(t, core.InteractionAll)
	ctx := context.Background()
	points := make([]any, 2*200000)
	for i := range points {
		points[i] = float64(i % 1000)
	}
	for name, c := range map[string]struct {
		kind string
		o    core.Object
		want core.ErrorKind
	}{
		"radius 1e9":          {"areaEffects", core.Object{"shape": "sphere", "x": 0.0, "y": 0.0, "radius": 1e9}, core.KindInvalid},
		"cone of no length":   {"areaEffects", core.Object{"shape": "cone", "x": 0.0, "y": 0.0, "length": 0.0, "angle": 0.0}, core.KindInvalid},
		"unknown shape":       {"areaEffects", core.Object{"shape": "blob", "x": 0.0, "y": 0.0, "radius": 70.0}, core.KindInvalid},
		"200,000 points":      {"drawings", core.Object{"data": points}, core.KindTooLarge},
		"1 MB of text":        {"drawings", core.Object{"data": []any{0.0, 0.0, 1.0, 1.0}, "text": strings.Repeat("x", 1<<20)}, core.KindTooLarge},
		"javascript: link":    {"markers", core.Object{"x": 0.0, "y": 0.0, "reference": "javascript:alert(1)"}, core.KindInvalid},
		"another site":        {"markers", core.Object{"x": 0.0, "y": 0.0, "reference": "https://evil.example/"}, core.KindInvalid},
		"scheme-relative":     {"markers", core.Object{"x": 0.0, "y": 0.0, "reference": "//evil.example/x"}, core.KindInvalid},
		"ruler of one point":  {"measurements", core.Object{"data": []any{0.0, 0.0}}, core.KindInvalid},
		"stroke width 1e6":    {"drawings", core.Object{"data": []any{0.0, 0.0, 1.0, 1.0}, "strokeWidth": 1e6}, core.KindInvalid},
		"text that is a list": {"drawings", core.Object{"data": []any{0.0, 0.0, 1.0, 1.0}, "text": []any{"a"}}, core.KindInvalid},
	} {
		_, err := bo.AddMapObject(ctx, testkit.MapID, c.kind, c.o)
		if core.KindOf(err) != c.want {
			t.Errorf("%s: %v, want %v", name, err, c.want)
		}
		if _, err := g.Service.AddMapObjects(ctx, testkit.MapID, c.kind, []core.Object{c.o}); core.KindOf(err) != c.want {
			t.Errorf("%s from the game master: %v, want %v", name, err, c.want)
		}
	}
	for _, kind := range []string{"areaEffects", "drawings", "markers", "measurements"} {
		if list, _ := g.Service.MapObjects(ctx, testkit.MapID, kind); len(list) != 0 {
			t.Errorf("%s stored: %v", kind, list)
		}
	}
	if _, err := g.Service.AddMapObjects(ctx, testkit.MapID, "markers", []core.Object{{"x": 0.0, "y": 0.0, "reference": "/page/roost"}}); err != nil {
		t.Errorf("a link to a page: %v", err)
	}
}

// One player's marks of a kind on a map stop at MaxMarksPerPlayer, with a
// message; another player may still mark, and removing one makes room.
func TestAPlayersMarksAreBounded(t *testing.T) {
	g, ann, bo := marksGame(t, core.InteractionAll)
	ctx := context.Background()
	var first core.Object
	for i := 0; i < mapobjects.MaxMarksPerPlayer; i++ {
		o, err := bo.AddMapObject(ctx, testkit.MapID, "drawings", stroke())
		if err != nil {
			t.Fatalf("drawing %d: %v", i+1, err)
		}
		if first == nil {
			first = o
		}
	}
	_, err := bo.AddMapObject(ctx, testkit.MapID, "drawings", stroke())
	if core.KindOf(err) != core.KindConflict || !strings.Contains(err.Error(), "the most one player may") {
		t.Fatalf("drawing %d: %v, want a conflict saying the limit", mapobjects.MaxMarksPerPlayer+1, err)
	}
	if _, err := ann.AddMapObject(ctx, testkit.MapID, "drawings", stroke()); err != nil {
		t.Fatalf("another player's drawing: %v", err)
	}
	if err := bo.DeleteMapObject(ctx, testkit.MapID, "drawings", first["id"].(string)); err != nil {
		t.Fatal(err)
	}
	if _, err := bo.AddMapObject(ctx, testkit.MapID, "drawings", stroke()); err != nil {
		t.Fatalf("after removing one: %v", err)
	}
	_ = g
}

// The game master stops a player's move of a template, as a token's drag:
// every page gets it back where it is stored (areaEffectMoved, cancel),
// the rest of that move is refused and stores nothing, and a new move
// goes through.
func TestTheGameMasterStopsAMarksMove(t *testing.T) {
	g, _, _ := marksGame(t, core.InteractionAll)
	ctx := context.Background()
	boActor := core.Actor{Role: core.ClientPlayer, Device: "connection:2"}
	bo := g.Service.PlayerAs(boActor)
	tmpl, err := bo.AddMapObject(ctx, testkit.MapID, "areaEffects", fireball())
	if err != nil {
		t.Fatal(err)
	}
	id := tmpl["id"].(string)
	from := core.EventSource{ID: "bo-client"}
	at := func(x float64, state string) core.MarkMove {
		y := 700.0
		return core.MarkMove{MapID: testkit.MapID, Kind: "areaEffects", ID: id, X: &x, Y: &y, State: state}
	}
	if _, err := g.Service.MoveMapObject(ctx, from, at(750, core.DragStart), &boActor); err != nil {
		t.Fatal(err)
	}
	if !g.Service.MarkMoving(id) {
		t.Fatal("the template's move is not followed")
	}
	var moves []core.Event
	var mu sync.Mutex
	stop := g.Bus.Subscribe(func(evs []core.Event) {
		mu.Lock()
		defer mu.Unlock()
		for _, e := range evs {
			if e.Name == core.EventAreaEffectMoved {
				moves = append(moves, e)
			}
		}
	})
	defer stop()
	stopped, err := g.Service.VetoMarkMove(ctx, id)
	if err != nil || !stopped {
		t.Fatalf("veto: %v %v", stopped, err)
	}
	mu.Lock()
	if len(moves) != 1 {
		t.Fatalf("the veto published %d areaEffectMoved, want 1", len(moves))
	}
	raw, _ := json.Marshal(moves[0].Data.(redact.Views).Players)
	mu.Unlock()
	if !strings.Contains(string(raw), `"state":"cancel"`) || !strings.Contains(string(raw), `"x":700`) {
		t.Fatalf("after the veto every page gets %s, want the stored place and state cancel", raw)
	}
	if _, err := g.Service.MoveMapObject(ctx, from, at(900, core.DragEnd), &boActor); core.KindOf(err) != core.KindForbidden {
		t.Fatalf("the stopped move's end: %v, want forbidden", err)
	}
	list, _ := g.Service.MapObjects(ctx, testkit.MapID, "areaEffects")
	if list[0]["x"] != 700.0 {
		t.Fatalf("the stopped move stored the template at %v", list[0]["x"])
	}
	if again, _ := g.Service.VetoMarkMove(ctx, id); again {
		t.Error("a veto with no move in progress stopped something")
	}
	if _, err := g.Service.MoveMapObject(ctx, from, at(770, core.DragStart), &boActor); err != nil {
		t.Fatalf("a new move after the veto: %v", err)
	}
	if _, err := g.Service.MoveMapObject(ctx, from, at(770, core.DragEnd), &boActor); err != nil {
		t.Fatalf("its end: %v", err)
	}
	list, _ = g.Service.MapObjects(ctx, testkit.MapID, "areaEffects")
	if list[0]["x"] != 770.0 {
		t.Fatalf("the new move left the template at %v", list[0]["x"])
	}
}

// A client that goes away mid-move leaves nothing behind: the ruler it was
// stretching is removed (as letting it go would), the template it was
// dragging goes back where it is stored, a pinned ruler (its move ended)
// and another client's live ruler stay.
func TestAGoneClientsMarkMovesEnd(t *testing.T) {
	g, _, _ := marksGame(t, core.InteractionAll)
	ctx := context.Background()
	boActor := core.Actor{Role: core.ClientPlayer, Device: "connection:2"}
	bo := g.Service.PlayerAs(boActor)
	from, other := core.EventSource{ID: "bo-client"}, core.EventSource{ID: "ada-client"}
	ruler := func() string {
		m, err := bo.AddMapObject(ctx, testkit.MapID, "measurements", core.Object{"data": []any{100.0, 100.0, 100.0, 100.0}, "type": "grid"})
		if err != nil {
			t.Fatal(err)
		}
		return m["id"].(string)
	}
	stretch := func(src core.EventSource, id, state string) {
		mv := core.MarkMove{MapID: testkit.MapID, Kind: "measurements", ID: id, Data: []float64{100, 100, 310, 100}, State: state}
		if _, err := g.Service.MoveMapObject(ctx, src, mv, &boActor); err != nil {
			t.Fatalf("%s of ruler %s: %v", state, id, err)
		}
	}
	live, pinned, others := ruler(), ruler(), ruler()
	stretch(from, live, core.DragControl)
	stretch(from, pinned, core.DragControl)
	stretch(from, pinned, core.DragEnd)
	stretch(other, others, core.DragControl)
	tmpl, err := bo.AddMapObject(ctx, testkit.MapID, "areaEffects", fireball())
	if err != nil {
		t.Fatal(err)
	}
	tid := tmpl["id"].(string)
	x, y := 900.0, 700.0
	if _, err := g.Service.MoveMapObject(ctx, from, core.MarkMove{MapID: testkit.MapID, Kind: "areaEffects", ID: tid, X: &x, Y: &y, State: core.DragControl}, &boActor); err != nil {
		t.Fatal(err)
	}
	var back []string
	var mu sync.Mutex
	stop := g.Bus.Subscribe(func(evs []core.Event) {
		mu.Lock()
		defer mu.Unlock()
		for _, e := range evs {
			if e.Name == core.EventAreaEffectMoved {
				raw, _ := json.Marshal(e.Data.(redact.Views).Players)
				back = append(back, string(raw))
			}
		}
	})
	defer stop()

	g.Service.ReleaseMarkMoves(ctx, from.ID)

	list, _ := g.Service.MapObjects(ctx, testkit.MapID, "measurements")
	kept := map[string]bool{}
	for _, m := range list {
		kept[m["id"].(string)] = true
	}
	if kept[live] || !kept[pinned] || !kept[others] || len(list) != 2 {
		t.Fatalf("after bo left: rulers %v; want the pinned one and ada's live one, not bo's live one", kept)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(back) != 1 || !strings.Contains(back[0], `"state":"cancel"`) || !strings.Contains(back[0], `"x":700`) {
		t.Fatalf("the template bo was dragging: %v; want it sent back to x 700 (cancel)", back)
	}
	if g.Service.MarkMoving(tid) || g.Service.MarkMoving(live) || !g.Service.MarkMoving(others) {
		t.Error("the moves followed after bo left are wrong")
	}
}

// On a hex grid a template's measure lists hexes (the seven of a one-cell
// sphere on a hex centre) and a ruler counts hex steps, not the straight
// line.
func TestMeasureOnAHexGrid(t *testing.T) {
	g, _, _ := marksGame(t, core.InteractionAll)
	ctx := context.Background()
	if _, err := g.Service.SetGrid(ctx, testkit.MapID, mapobjects.GridChange{Type: strp("hexPointy"), Size: intp(70), OffsetX: intp(0), OffsetY: intp(0)}); err != nil {
		t.Fatal(err)
	}
	sphere := core.Object{"shape": "sphere", "x": 0.0, "y": 0.0, "radius": 70.0}
	m, err := g.Service.Measure(ctx, mapobjects.MeasureRequest{MapID: testkit.MapID, AreaEffect: sphere}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Squares) != 14 {
		t.Fatalf("a one-cell sphere on a hex covers %v, want seven hexes", m.Squares)
	}
	// Three hexes east along a row of pointy hexes (70 px apart), then to
	// the hex (q+1, r+1) from there: 3 + 2 steps of 5 ft, where the straight
	// line is 3 + 1.73 cells (23.7 ft).
	path := []float64{0, 0, 210, 0, 210 + 105, 70 * math.Sqrt(3) / 2}
	d, err := g.Service.Measure(ctx, mapobjects.MeasureRequest{MapID: testkit.MapID, Path: path}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if d.Text != "25 ft" {
		t.Fatalf("the hex path measures %q, want 25 ft", d.Text)
	}
}
