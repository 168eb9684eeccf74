package hub

import (
	"context"
	"encoding/json"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/core/mapobjects"
)

// The marks' requests (core/engine/marks.go): a player's act as the connection's
// actor, under the interaction mode and on their own marks only; the host
// console's socket acts as the game master on any mark of any map.

// markRequest is the data of addMapObject, updateMapObject and
// deleteMapObject.
type markRequest struct {
	MapID  string      `json:"mapId"`
	Kind   string      `json:"kind"`
	ID     string      `json:"id"`
	Object core.Object `json:"object"`
	Patch  core.Object `json:"patch"`
}

func decodeMark(event string, data json.RawMessage) (markRequest, error) {
	var in markRequest
	if err := decodeData(event, data, &in); err != nil {
		return in, err
	}
	if in.MapID == "" || in.Kind == "" {
		return in, core.Invalidf("%s: 'mapId' and 'kind' are required", event)
	}
	return in, nil
}

func onAddMapObject(ctx context.Context, c *conn, data json.RawMessage) (any, error) {
	in, err := decodeMark(core.RequestAddMapObject, data)
	if err != nil {
		return nil, err
	}
	return c.hub.svc.PlayerAs(c.actor()).AddMapObject(ctx, in.MapID, in.Kind, in.Object)
}

func onHostAddMapObject(ctx context.Context, c *conn, data json.RawMessage) (any, error) {
	in, err := decodeMark(core.RequestAddMapObject, data)
	if err != nil {
		return nil, err
	}
	if in.Object == nil {
		return nil, core.Invalidf("%s: 'object' is required", core.RequestAddMapObject)
	}
	out, err := c.hub.svc.AddMapObjects(ctx, in.MapID, in.Kind, []core.Object{in.Object})
	if err != nil {
		return nil, err
	}
	return out[0], nil
}

func onUpdateMapObject(ctx context.Context, c *conn, data json.RawMessage) (any, error) {
	in, err := decodeMark(core.RequestUpdateMapObject, data)
	if err != nil {
		return nil, err
	}
	return c.hub.svc.PlayerAs(c.actor()).PatchMapObject(ctx, in.MapID, in.Kind, in.ID, in.Patch)
}

func onHostUpdateMapObject(ctx context.Context, c *conn, data json.RawMessage) (any, error) {
	in, err := decodeMark(core.RequestUpdateMapObject, data)
	if err != nil {
		return nil, err
	}
	return c.hub.svc.PatchMapObject(ctx, in.MapID, in.Kind, in.ID, in.Patch)
}

func onDeleteMapObject(ctx context.Context, c *conn, data json.RawMessage) (any, error) {
	in, err := decodeMark(core.RequestDeleteMapObject, data)
	if err != nil {
		return nil, err
	}
	return nil, c.hub.svc.PlayerAs(c.actor()).DeleteMapObject(ctx, in.MapID, in.Kind, in.ID)
}

func onHostDeleteMapObject(ctx context.Context, c *conn, data json.RawMessage) (any, error) {
	in, err := decodeMark(core.RequestDeleteMapObject, data)
	if err != nil {
		return nil, err
	}
	if in.ID == "" {
		return nil, core.Invalidf("%s: 'id' is required", core.RequestDeleteMapObject)
	}
	return nil, c.hub.svc.DeleteMapObject(ctx, in.MapID, in.Kind, in.ID)
}

func onMoveMapObject(ctx context.Context, c *conn, data json.RawMessage) (any, error) {
	var mv core.MarkMove
	if err := decodeData(core.RequestMoveMapObject, data, &mv); err != nil {
		return nil, err
	}
	who := c.actor()
	return c.hub.svc.MoveMapObject(ctx, c.source(), mv, &who)
}

func onHostMoveMapObject(ctx context.Context, c *conn, data json.RawMessage) (any, error) {
	var mv core.MarkMove
	if err := decodeData(core.RequestMoveMapObject, data, &mv); err != nil {
		return nil, err
	}
	return c.hub.svc.MoveMapObject(ctx, c.source(), mv, nil)
}

func onMeasure(ctx context.Context, c *conn, data json.RawMessage) (any, error) {
	var req mapobjects.MeasureRequest
	if err := decodeData(core.RequestMeasure, data, &req); err != nil {
		return nil, err
	}
	var player *core.Actor
	if !c.host {
		who := c.actor()
		player = &who
	}
	return c.hub.svc.Measure(ctx, req, player)
}

// markStream: one stream per mark moved; control is a move, the other
// states go out in order.
func markStream(id, state string) (string, bool) { return id, state == core.DragControl }
