package imports

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/vttapp/companion/core/mapobjects"

	"github.com/vttapp/companion/core"
)

// drawnRoom is a room as the GM map's tools draw it (issue 35), through
// the one map-object path (core.AddMapObjects): walls of every type and
// side, doors in every state and lights.
const drawnRoom = `{
 "walls": [
  {"id": "dw-wall", "data": [0, 0, 280, 0, 280, 280]},
  {"id": "dw-window", "data": [0, 280, 140, 280], "type": "window"},
  {"id": "dw-oneway", "data": [140, 280, 280, 280], "type": "normal", "side": "left"},
  {"id": "dw-terrain", "data": [0, 0, 0, 140], "type": "terrain"},
  {"id": "dw-invisible", "data": [0, 140, 0, 210], "type": "invisible"},
  {"id": "dw-ethereal", "data": [0, 210, 0, 280], "type": "ethereal"},
  {"id": "dw-door", "data": [280, 280, 350, 280], "type": "door", "door": "closed"},
  {"id": "dw-open", "data": [350, 280, 420, 280], "type": "door", "door": "open"},
  {"id": "dw-locked", "data": [420, 280, 490, 280], "type": "door", "door": "locked"},
  {"id": "dw-secret", "data": [490, 280, 560, 280], "type": "secretDoor", "door": "closed"}],
 "lights": [
  {"id": "dl-torch", "enabled": true, "x": 140, "y": 140, "radiusMin": 2, "radiusMax": 4, "color": "#ffcc66", "opacity": 0.8},
  {"id": "dl-glow", "enabled": false, "x": 70, "y": 70, "radiusMin": 0, "radiusMax": 1.5, "color": "#3366ff", "opacity": 0.25, "alwaysVisible": true}]
}`

// Walls, doors and lights drawn by the game master on a module's map and
// on a campaign's map come back whole from the module's and the
// campaign's export, and the map's line-of-sight settings with them.
func TestExportsKeepDrawnWallsAndLights(t *testing.T) {
	src := richEnv(t)
	ctx := context.Background()
	const moduleMap = "AAAA0000-0000-4000-8000-0000000000aa"
	err := src.store.Update(ctx, func(tx core.Tx) error {
		m := &core.Map{ID: moduleMap, Name: "Drawn Crypt", Owner: rtModule, Width: 700, Height: 700, GridSize: 70}
		m.Normalize()
		return tx.PutMap(m)
	})
	if err != nil {
		t.Fatal(err)
	}
	var room map[string][]core.Object
	if err := json.Unmarshal([]byte(drawnRoom), &room); err != nil {
		t.Fatal(err)
	}
	los, daylight, limit := true, 0.25, 6
	for _, mapID := range []string{moduleMap, rtCaveMap} {
		for _, kind := range []string{"walls", "lights"} {
			if _, err := src.svc.AddMapObjects(ctx, mapID, kind, room[kind]); err != nil {
				t.Fatalf("draw the %s on %s: %v", kind, mapID, err)
			}
		}
		if _, err := src.svc.ChangeMap(ctx, mapID, mapobjects.MapChange{LineOfSight: &los, LosDaylight: &daylight, LosVisionLimit: &limit}); err != nil {
			t.Fatal(err)
		}
	}
	drawn := func(env *testEnv, mapID string) *core.Map {
		t.Helper()
		var m *core.Map
		env.view(t, func(tx core.Tx) error {
			var err error
			m, err = tx.Map(mapID)
			return err
		})
		return m
	}
	_, module := exportZip(t, src, KindModule, rtModule)
	_, campaign := exportZip(t, src, KindCampaign, rtCampaign)
	dst := newTestEnv(t)
	for name, data := range map[string][]byte{"a.module": module, "b.campaign": campaign} {
		if _, err := installZip(t, dst, name, data, InstallOptions{}); err != nil {
			t.Fatalf("importing the export %s: %v", name, err)
		}
	}
	for _, mapID := range []string{moduleMap, rtCaveMap} {
		want, got := drawn(src, mapID), drawn(dst, mapID)
		if len(want.Walls) < len(room["walls"]) || len(want.Lights) < len(room["lights"]) {
			t.Fatalf("%s: only %d walls and %d lights were drawn", mapID, len(want.Walls), len(want.Lights))
		}
		for _, part := range []struct {
			what      string
			want, got any
		}{
			{"walls", want.Walls, got.Walls},
			{"lights", want.Lights, got.Lights},
			{"line of sight", []any{want.LineOfSight, want.LosDaylight, want.LosVisionLimit}, []any{got.LineOfSight, got.LosDaylight, got.LosVisionLimit}},
		} {
			a, _ := json.Marshal(part.want)
			b, _ := json.Marshal(part.got)
			if string(a) != string(b) {
				t.Errorf("%s: the %s after export and import:\n got %s\nwant %s", mapID, part.what, b, a)
			}
		}
	}
}
