package engine

import (
	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/core/redact"
)

// CheckRemoteInteraction returns a KindConflict error naming what was
// refused when the host has remote interaction off, nil otherwise. The
// WebSocket hub calls it before acting on updateDoor.
func (s *Kernel) CheckRemoteInteraction(what string) error {
	if !s.liveState.Settings().RemoteInteraction {
		return remoteInteractionOff(what)
	}
	return nil
}

// MovePointer re-broadcasts a client's shared pointer as pointerUpdated.
// The pointer is the client's own: its id and source are the client's id,
// its name is the client's registered one, and its colour defaults to the
// client's. Refused when remote interaction
// is off. The game master's pointer reaches the players looking at the
// player screen.
func (s *playRoom) MovePointer(from core.EventSource, p core.Pointer) error {
	return s.movePointerOn(from, p, s.screenMapNow())
}

// movePointerOn is MovePointer on the map onMap, whose viewers alone
// receive it (a split party: seatmaps.go).
func (s *Kernel) movePointerOn(from core.EventSource, p core.Pointer, onMap string) error {
	if err := s.CheckRemoteInteraction("pointerUpdated"); err != nil {
		return err
	}
	switch p.State {
	case "", core.DragStart, core.DragControl, core.DragEnd, core.DragCancel, core.DragBlock:
	default:
		return core.Invalidf("pointerUpdated: 'state' must be start, control, end, block or cancel, not '%s'", p.State)
	}
	if err := checkPointer(&p); err != nil {
		return err
	}
	if p.ID == "" {
		p.ID = from.ID
	}
	p.Source = from.ID
	p.Name = from.Name
	if p.Color == "" {
		p.Color = from.Color
	}
	s.Publish(core.Event{Name: core.EventPointerUpdated, Data: redact.Views{Players: &p, Map: onMap}})
	return nil
}
