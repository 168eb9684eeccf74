package routes

import (
	"context"
	"testing"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/core/mapobjects"
)

const pendingMapID = "pending-0000-4000-8000-000000000001"

// A map made from a picture waits for its grid: the console reads the
// preview, tries grids without saving, sets one, and only then may the map
// go on the player screen.
func TestHostSetsTheGridOfAMapMadeFromAPicture(t *testing.T) {
	e := newConsoleEnv(t)
	err := e.store.Update(context.Background(), func(tx core.Tx) error {
		m := &core.Map{ID: pendingMapID, Name: "Marsh", Owner: campaignID, Width: 1000, Height: 600,
			Image: "/campaigns/" + campaignID + "/maps/marsh.png", GridPending: true}
		m.Normalize()
		return tx.PutMap(m)
	})
	if err != nil {
		t.Fatal(err)
	}
	player := e.playerSocket(t)
	player.waitFor("app")

	var campaign core.HostCampaign
	e.decode(t, e.call(t, "GET", "/host/api/campaign", ""), 200, &campaign)
	listed := false
	for _, m := range campaign.Maps {
		listed = listed || (m.ID == pendingMapID && m.GridPending)
	}
	if !listed {
		t.Fatalf("the campaign does not show the map waiting for its grid: %+v", campaign.Maps)
	}

	var p mapobjects.GridPreview
	e.decode(t, e.call(t, "GET", "/host/api/maps/"+pendingMapID+"/grid", ""), 200, &p)
	if !p.GridPending || p.Media.Kind != "image" || p.Media.URL != "/campaigns/"+campaignID+"/maps/marsh.png" ||
		p.Media.Width != 1000 || p.Grid.Size != 70 || p.Lines == nil {
		t.Fatalf("grid of a waiting map: %+v", p)
	}
	wantError(t, e.call(t, "POST", "/host/api/screen", `{"mapId": "`+pendingMapID+`"}`), 409, "waits for its grid")

	p = mapobjects.GridPreview{}
	e.decode(t, e.call(t, "POST", "/host/api/maps/"+pendingMapID+"/grid/preview", `{"gridSize": 100, "gridOffsetX": 25, "gridType": "hexPointy"}`), 200, &p)
	if p.Hex == nil || p.Lines != nil || p.Grid.Size != 100 || p.Cells.Across != 10 || !p.GridPending {
		t.Fatalf("preview: %+v", p)
	}
	wantError(t, e.call(t, "POST", "/host/api/maps/"+pendingMapID+"/grid/preview", `{"gridSize": 2}`), 400, "4 to 1000")
	wantError(t, e.call(t, "PUT", "/host/api/maps/"+pendingMapID+"/grid", `{"gridSize": 100, "gridOfsetX": 3}`), 400, "gridOfsetX")
	wantError(t, e.call(t, "PUT", "/host/api/maps/"+pendingMapID+"/grid", `{"gridOffsetX": 3}`), 400, "'gridSize' is required")
	wantError(t, e.call(t, "PUT", "/host/api/maps/nope/grid", `{"gridSize": 50}`), 404, "no map")
	p = mapobjects.GridPreview{}
	e.decode(t, e.call(t, "GET", "/host/api/maps/"+pendingMapID+"/grid", ""), 200, &p)
	if !p.GridPending || p.Grid.Size != 70 || p.Hex != nil {
		t.Fatalf("a preview or a refused change was stored: %+v", p)
	}

	e.decode(t, e.call(t, "PUT", "/host/api/maps/"+pendingMapID+"/grid", `{"gridSize": 100, "gridOffsetX": 25, "gridOffsetY": -10, "gridScale": 10, "gridUnits": "ft"}`), 200, &p)
	if p.GridPending || p.Grid.Size != 100 || p.Grid.OffsetX != 25 || p.Grid.OffsetY != -10 || p.Grid.Scale != 10 {
		t.Fatalf("set: %+v", p)
	}
	if r := e.call(t, "POST", "/host/api/screen", `{"mapId": "`+pendingMapID+`"}`); r.status != 200 {
		t.Fatalf("screen once the grid is set: %d %s", r.status, r.body)
	}
	player.waitFor("mapLoaded", pendingMapID, `"gridSize":100`, `"gridOffsetX":25`)
}
