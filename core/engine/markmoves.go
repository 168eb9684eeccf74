package engine

import (
	"context"
	"sync"

	"github.com/vttapp/companion/core/mapobjects"

	"github.com/vttapp/companion/core/redact"

	"github.com/vttapp/companion/core"
)

// markMoves follows who moves which mark, as Drags does for tokens, so
// that the game master can stop a move (VetoMarkMove): the mark goes back
// to where it is stored on every page, and the rest of that move (its
// control and end) is refused until the mover starts a new one.
type markMoves struct {
	mu     sync.Mutex
	active map[string]markMove // mark id -> its move in progress
	vetoed map[string]string   // mark id -> the client whose move was stopped
}

// markMove is a mark's move in progress: who moves it, and where it is.
type markMove struct {
	source, mapID, kind string
}

// refused reports whether a move's message from source belongs to a move
// the host stopped (then it is refused; its end or cancel also closes the
// stopped move). A start is never refused: it begins a new move.
func (m *markMoves) refused(id, source, state string) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	v, ok := m.vetoed[id]
	if state == core.DragStart || !ok || v != source {
		return false
	}
	if state == core.DragEnd || state == core.DragCancel {
		delete(m.vetoed, id)
	}
	return true
}

// record notes a move's message that went through: who moves the mark
// now, or that its move is over.
func (m *markMoves) record(id string, mv markMove, state string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	switch state {
	case core.DragStart:
		delete(m.vetoed, id)
		m.active[id] = mv
	case core.DragEnd, core.DragCancel:
		delete(m.active, id)
	default:
		m.active[id] = mv
	}
}

// stop ends the move of a mark in progress and remembers it as vetoed;
// ok is false when nobody moves it.
func (m *markMoves) stop(id string) (markMove, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	mv, ok := m.active[id]
	if !ok {
		return markMove{}, false
	}
	delete(m.active, id)
	m.vetoed[id] = mv.source
	return mv, true
}

// release ends every move of source and returns them by mark id.
func (m *markMoves) release(source string) map[string]markMove {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := map[string]markMove{}
	for id, mv := range m.active {
		if mv.source == source {
			out[id] = mv
			delete(m.active, id)
		}
	}
	for id, v := range m.vetoed {
		if v == source {
			delete(m.vetoed, id)
		}
	}
	return out
}

// MarkMoving reports whether someone moves the mark id now.
func (s *playRoom) MarkMoving(id string) bool {
	s.markMoves.mu.Lock()
	defer s.markMoves.mu.Unlock()
	_, ok := s.markMoves.active[id]
	return ok
}

// VetoMarkMove is the game master's veto of a mark's live move (as
// Drags.Veto is of a token's): every page gets the mark back where it is
// stored (its kind's Moved event, state cancel), and the mover's further
// control and end of that move are refused. It reports whether a move was
// stopped (false: nobody moves a mark with that id).
func (s *playRoom) VetoMarkMove(ctx context.Context, id string) (bool, error) {
	mv, ok := s.markMoves.stop(id)
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
func (s *playRoom) ReleaseMarkMoves(ctx context.Context, source string) {
	for id, mv := range s.markMoves.release(source) {
		var err error
		if mv.kind == "measurements" {
			err = s.DeleteMapObject(ctx, mv.mapID, mv.kind, id)
		} else {
			err = s.sendMarkBack(ctx, id, mv)
		}
		if err != nil && !core.IsNotFound(err) {
			s.log.Warn("ending a gone client's mark move", "mark", id, "error", err)
		}
	}
}

// sendMarkBack tells every page where a mark whose move was stopped is
// stored (its kind's Moved event, state cancel).
func (s *playRoom) sendMarkBack(ctx context.Context, id string, mv markMove) error {
	mapID := mv.mapID
	k, err := mapobjects.MapKindOf(mv.kind)
	if err != nil {
		return err
	}
	ps := s.pin()
	var (
		m        *core.Map
		stored   core.Object
		onScreen bool
	)
	err = s.store.View(ctx, func(tx core.Tx) error {
		if m, err = mapByID(tx, mapID); err != nil {
			return err
		}
		list, err := k.List.Get(m)
		if err != nil {
			return err
		}
		i, err := objectIndex(k, list, mapID, id)
		if err != nil {
			return err
		}
		if stored, err = copyObject(list[i]); err != nil {
			return err
		}
		onScreen, err = ps.playersSee(tx, mapID)
		return err
	})
	if err != nil {
		return err
	}
	payload, err := ps.movedPayload(ctx, k, m, stored, core.DragCancel, core.EventSource{ID: "host"})
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

// MoveMapObject acts on a move of the game master (who nil) or a player.
func (s *Service) MoveMapObject(ctx context.Context, from core.EventSource, mv core.MarkMove, who *core.Actor) (any, error) {
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
	if s.markMoves.refused(mv.ID, from.ID, mv.State) {
		return nil, core.Forbiddenf("the game master stopped this move of the %s: start it again", k.Noun)
	}
	ps := s.playRoom.pin()
	var guard func(core.Tx) error
	if who != nil {
		p := s.PlayerAs(*who)
		owner, err := p.markRights(k)
		if err != nil {
			return nil, err
		}
		guard = p.ownGuard(ps.pinned, k, mv.MapID, mv.ID, owner)
	}
	var (
		m        *core.Map
		moved    core.Object
		onScreen bool
	)
	err = s.store.View(ctx, func(tx core.Tx) error {
		if guard != nil {
			if err := guard(tx); err != nil {
				return err
			}
		}
		if m, err = mapByID(tx, mv.MapID); err != nil {
			return err
		}
		list, err := k.List.Get(m)
		if err != nil {
			return err
		}
		i, err := objectIndex(k, list, mv.MapID, mv.ID)
		if err != nil {
			return err
		}
		if moved, err = copyObject(list[i]); err != nil {
			return err
		}
		onScreen, err = ps.playersSee(tx, mv.MapID)
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
	if err := checkCommon(k, moved); err != nil {
		return nil, err
	}
	if mv.State == core.DragEnd && len(patch) > 0 {
		if moved, err = ps.patchMapObject(ctx, mv.MapID, k, mv.ID, patch, guard); err != nil {
			return nil, err
		}
	}
	payload, err := ps.movedPayload(ctx, k, m, moved, mv.State, from)
	if err != nil {
		return nil, err
	}
	views := redact.HostOnly(payload)
	if onScreen && !core.ObjectHidden(moved, k.HiddenByDefault) {
		views.Players = payload
	}
	s.markMoves.record(mv.ID, markMove{source: from.ID, mapID: mv.MapID, kind: k.Field}, mv.State)
	s.Publish(core.Event{Name: k.Moved, Data: views})
	return nil, nil
}

// movedPayload is the data of a kind's Moved event.
func (s playPinned) movedPayload(ctx context.Context, k *mapobjects.MapKind, m *core.Map, o core.Object, state string, from core.EventSource) (any, error) {
	src := from
	if k.Field != "measurements" {
		x, _ := o["x"].(float64)
		y, _ := o["y"].(float64)
		id, _ := o["id"].(string)
		return &core.Movement{ID: id, MapID: m.ID, X: x, Y: y, State: state, Source: &src}, nil
	}
	out, err := copyObject(o)
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
