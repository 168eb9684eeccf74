package play

import (
	"context"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/core/engine/internal/kernel"
	"github.com/vttapp/companion/core/mapobjects"
	"github.com/vttapp/companion/core/redact"
)

// MarkMoving reports whether someone moves the mark id now.
func (s *PlayRoom) MarkMoving(id string) bool {
	s.MarkMoves.Mu.Lock()
	defer s.MarkMoves.Mu.Unlock()
	_, ok := s.MarkMoves.Active[id]
	return ok
}

// VetoMarkMove is the game master's veto of a mark's live move (as
// Drags.Veto is of a token's): every page gets the mark back where it is
// stored (its kind's Moved event, state cancel), and the mover's further
// control and end of that move are refused. It reports whether a move was
// stopped (false: nobody moves a mark with that id).
func (s *PlayRoom) VetoMarkMove(ctx context.Context, id string) (bool, error) {
	mv, ok := s.MarkMoves.Stop(id)
	if !ok {
		return false, nil
	}
	return true, s.sendMarkBack(ctx, id, mv)
}

// ReleaseMarkMoves ends the live moves of a client that went away (as
// Drags.Release does for its token drags): a ruler it was stretching is
// removed, as letting it go would have, and a template or a pin it was
// dragging goes back to where it is stored on every page. Errors are
// logged: the client is gone, there is nobody to answer.
func (s *PlayRoom) ReleaseMarkMoves(ctx context.Context, source string) {
	for id, mv := range s.MarkMoves.Release(source) {
		var err error
		if mv.Kind == "measurements" {
			err = s.DeleteMapObject(ctx, mv.MapID, mv.Kind, id)
		} else {
			err = s.sendMarkBack(ctx, id, mv)
		}
		if err != nil && !core.IsNotFound(err) {
			s.Log.Warn("ending a gone client's mark move", "mark", id, "error", err)
		}
	}
}

// sendMarkBack tells every page where a mark whose move was stopped is
// stored (its kind's Moved event, state cancel).
func (s *PlayRoom) sendMarkBack(ctx context.Context, id string, mv kernel.MarkMove) error {
	mapID := mv.MapID
	k, err := mapobjects.MapKindOf(mv.Kind)
	if err != nil {
		return err
	}
	ps := s.pin()
	var (
		m        *core.Map
		stored   core.Object
		onScreen bool
	)
	err = s.Store.View(ctx, func(tx core.Tx) error {
		if m, err = kernel.MapByID(tx, mapID); err != nil {
			return err
		}
		list, err := k.List.Get(m)
		if err != nil {
			return err
		}
		i, err := kernel.ObjectIndex(k, list, mapID, id)
		if err != nil {
			return err
		}
		if stored, err = kernel.CopyObject(list[i]); err != nil {
			return err
		}
		onScreen, err = ps.PlayersSee(tx, mapID)
		return err
	})
	if err != nil {
		return err
	}
	payload, err := ps.MovedPayload(ctx, k, m, stored, core.DragCancel, core.EventSource{ID: "host"})
	if err != nil {
		return err
	}
	views := redact.HostOnly(payload)
	if onScreen && !core.ObjectHidden(stored, k.HiddenByDefault) {
		views.Players = payload
	}
	s.Publish(core.Event{Name: k.Moved, Data: views})
	return nil
}

// MovedPayload is the data of a kind's Moved event.
func (s playPinned) MovedPayload(ctx context.Context, k *mapobjects.MapKind, m *core.Map, o core.Object, state string, from core.EventSource) (any, error) {
	src := from
	if k.Field != "measurements" {
		x, _ := o["x"].(float64)
		y, _ := o["y"].(float64)
		id, _ := o["id"].(string)
		return &core.Movement{ID: id, MapID: m.ID, X: x, Y: y, State: state, Source: &src}, nil
	}
	out, err := kernel.CopyObject(o)
	if err != nil {
		return nil, err
	}
	var path []float64
	for _, v := range o["data"].([]any) {
		f, _ := v.(float64)
		path = append(path, f)
	}
	d, err := s.measurePath(ctx, m, path)
	if err != nil {
		return nil, err
	}
	out["mapId"], out["state"], out["source"], out["distance"] = m.ID, state, &src, d.Text
	return out, nil
}

// MoveMark acts on a live move of a mark (a ruler stretched, a template
// dragged) by the game master (guardFor nil) or a player, whose rights
// guardFor turns into a guard on the store.
func (s *PlayRoom) MoveMark(ctx context.Context, from core.EventSource, mv core.MarkMove, guardFor func(kernel.Pinned, *mapobjects.MapKind) (func(core.Tx) error, error)) (any, error) {
	k, err := mapobjects.MapKindOf(mv.Kind)
	if err != nil {
		return nil, err
	}
	if k.Moved == "" {
		return nil, core.Invalidf("a %s does not move live: change it with updateMapObject", k.Noun)
	}
	switch mv.State {
	case core.DragStart, core.DragControl, core.DragEnd, core.DragCancel:
	default:
		return nil, core.Invalidf("moveMapObject: 'state' must be start, control, end or cancel, not '%s'", core.Clip(mv.State))
	}
	if s.MarkMoves.Refused(mv.ID, from.ID, mv.State) {
		return nil, core.Forbiddenf("the game master stopped this move of the %s: start it again", k.Noun)
	}
	ps := s.pin()
	var guard func(core.Tx) error
	if guardFor != nil {
		if guard, err = guardFor(ps.Pinned, k); err != nil {
			return nil, err
		}
	}
	var (
		m        *core.Map
		moved    core.Object
		onScreen bool
	)
	err = s.Store.View(ctx, func(tx core.Tx) error {
		if guard != nil {
			if err := guard(tx); err != nil {
				return err
			}
		}
		if m, err = kernel.MapByID(tx, mv.MapID); err != nil {
			return err
		}
		list, err := k.List.Get(m)
		if err != nil {
			return err
		}
		i, err := kernel.ObjectIndex(k, list, mv.MapID, mv.ID)
		if err != nil {
			return err
		}
		if moved, err = kernel.CopyObject(list[i]); err != nil {
			return err
		}
		onScreen, err = ps.PlayersSee(tx, mv.MapID)
		return err
	})
	if err != nil {
		return nil, err
	}
	patch := core.Object{}
	if mv.X != nil {
		patch["x"] = *mv.X
	}
	if mv.Y != nil {
		patch["y"] = *mv.Y
	}
	if mv.Data != nil {
		data := make([]any, len(mv.Data))
		for i, v := range mv.Data {
			data[i] = v
		}
		patch["data"] = data
	}
	if mv.State != core.DragCancel {
		for key, v := range patch {
			moved[key] = v
		}
	}
	if err := kernel.CheckCommon(k, moved); err != nil {
		return nil, err
	}
	if mv.State == core.DragEnd && len(patch) > 0 {
		if moved, err = ps.PatchMapObject(ctx, mv.MapID, k, mv.ID, patch, guard); err != nil {
			return nil, err
		}
	}
	payload, err := ps.MovedPayload(ctx, k, m, moved, mv.State, from)
	if err != nil {
		return nil, err
	}
	views := redact.HostOnly(payload)
	if onScreen && !core.ObjectHidden(moved, k.HiddenByDefault) {
		views.Players = payload
	}
	s.MarkMoves.Record(mv.ID, kernel.MarkMove{Source: from.ID, MapID: mv.MapID, Kind: k.Field}, mv.State)
	s.Publish(core.Event{Name: k.Moved, Data: views})
	return nil, nil
}
