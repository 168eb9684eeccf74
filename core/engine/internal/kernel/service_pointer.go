package kernel

import (
	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/core/redact"
)

// CheckRemoteInteraction returns a KindConflict error naming what was
// refused when the host has remote interaction off, nil otherwise. The
// WebSocket hub calls it before acting on updateDoor.
func (s *Kernel) CheckRemoteInteraction(what string) error {
	if !s.LiveState.Settings().RemoteInteraction {
		return remoteInteractionOff(what)
	}
	return nil
}

// MovePointerOn is MovePointer on the map onMap, whose viewers alone
// receive it (a split party: seatmaps.go).
func (s *Kernel) MovePointerOn(from core.EventSource, p core.Pointer, onMap string) error {
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
