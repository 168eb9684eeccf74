package routes

import (
	"context"
	"testing"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/core/engine"
)

// The host's drag veto (POST /host/api/drags/{id}/block) stops a mark's
// live move by the mark's id as it stops a token's drag; with no move in
// progress it is the token's 404.
func TestTheHostVetoStopsAMarksMove(t *testing.T) {
	e := newConsoleEnv(t)
	ctx := context.Background()
	mode := core.InteractionAll
	if _, err := e.svc.UpdateSettings(ctx, engine.SettingsPatch{Interaction: &mode}); err != nil {
		t.Fatal(err)
	}
	bo := core.Actor{Role: core.ClientPlayer, Device: "connection:7"}
	tmpl, err := e.svc.PlayerAs(bo).AddMapObject(ctx, mapID, "areaEffects", core.Object{"shape": "sphere", "x": 140.0, "y": 140.0, "radius": 70.0})
	if err != nil {
		t.Fatal(err)
	}
	id := tmpl["id"].(string)
	x, y := 210.0, 140.0
	if _, err := e.svc.MoveMapObject(ctx, core.EventSource{ID: "bo"}, core.MarkMove{MapID: mapID, Kind: "areaEffects", ID: id, X: &x, Y: &y, State: core.DragStart}, &bo); err != nil {
		t.Fatal(err)
	}
	var got struct{ Blocked bool }
	e.decode(t, e.call(t, "POST", "/host/api/drags/"+id+"/block", ""), 200, &got)
	if !got.Blocked {
		t.Fatal("the veto of a template being moved did not stop it")
	}
	if r := e.call(t, "POST", "/host/api/drags/"+id+"/block", ""); r.status != 404 {
		t.Errorf("a second veto, nothing moving: %d %s, want 404", r.status, r.body)
	}
}
