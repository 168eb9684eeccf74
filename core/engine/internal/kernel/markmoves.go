package kernel

import (
	"sync"

	"github.com/vttapp/companion/core"
)

// MarkMoves follows who moves which mark, as Drags does for tokens, so
// that the game master can stop a move (VetoMarkMove): the mark goes back
// to where it is stored on every page, and the rest of that move (its
// control and end) is refused until the mover starts a new one.
type MarkMoves struct {
	Mu     sync.Mutex
	Active map[string]MarkMove // mark id -> its move in progress
	Vetoed map[string]string   // mark id -> the client whose move was stopped
}

// MarkMove is a mark's move in progress: who moves it, and where it is.
type MarkMove struct {
	Source, MapID, Kind string
}

// Refused reports whether a move's message from source belongs to a move
// the host stopped (then it is refused; its end or cancel also closes the
// stopped move). A start is never refused: it begins a new move.
func (m *MarkMoves) Refused(id, source, state string) bool {
	m.Mu.Lock()
	defer m.Mu.Unlock()
	v, ok := m.Vetoed[id]
	if state == core.DragStart || !ok || v != source {
		return false
	}
	if state == core.DragEnd || state == core.DragCancel {
		delete(m.Vetoed, id)
	}
	return true
}

// Record notes a move's message that went through: who moves the mark
// now, or that its move is over.
func (m *MarkMoves) Record(id string, mv MarkMove, state string) {
	m.Mu.Lock()
	defer m.Mu.Unlock()
	switch state {
	case core.DragStart:
		delete(m.Vetoed, id)
		m.Active[id] = mv
	case core.DragEnd, core.DragCancel:
		delete(m.Active, id)
	default:
		m.Active[id] = mv
	}
}

// Stop ends the move of a mark in progress and remembers it as vetoed;
// ok is false when nobody moves it.
func (m *MarkMoves) Stop(id string) (MarkMove, bool) {
	m.Mu.Lock()
	defer m.Mu.Unlock()
	mv, ok := m.Active[id]
	if !ok {
		return MarkMove{}, false
	}
	delete(m.Active, id)
	m.Vetoed[id] = mv.Source
	return mv, true
}

// Release ends every move of source and returns them by mark id.
func (m *MarkMoves) Release(source string) map[string]MarkMove {
	m.Mu.Lock()
	defer m.Mu.Unlock()
	out := map[string]MarkMove{}
	for id, mv := range m.Active {
		if mv.Source == source {
			out[id] = mv
			delete(m.Active, id)
		}
	}
	for id, v := range m.Vetoed {
		if v == source {
			delete(m.Vetoed, id)
		}
	}
	return out
}
