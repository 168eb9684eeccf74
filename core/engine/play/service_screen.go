package play

import (
	"context"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/core/engine/internal/kernel"
)

// FocusScreen tells player displays to look at a point (mapFocus).
func (s *PlayRoom) FocusScreen(f core.Focus) error {
	if !kernel.Finite(f.X, f.Y) {
		return core.Invalidf("mapFocus: 'x' and 'y' must be finite numbers")
	}
	if f.Color == "" {
		f.Color = "#ffcc00"
	}
	s.Publish(core.Event{Name: core.EventMapFocus, Data: &f})
	return nil
}

// FrameScreen sets the view player displays follow (mapFrameUpdated) on
// the map on the player screen.
func (s *PlayRoom) FrameScreen(ctx context.Context, f core.Frame) (*core.Frame, error) {
	if !kernel.Finite(f.X, f.Y, f.Zoom) || f.Zoom <= 0 {
		return nil, core.Invalidf("mapFrameUpdated: 'x' and 'y' must be finite numbers and 'zoom' greater than 0")
	}
	id, err := s.ScreenMapID(ctx)
	if err != nil {
		return nil, err
	}
	f.ID = id
	s.Publish(core.Event{Name: core.EventMapFrameUpdated, Data: &f})
	return &f, nil
}

// FitScreen tells player displays to fit the map on the player screen to
// their screen (mapFitScreen).
func (s *PlayRoom) FitScreen(ctx context.Context) error {
	id, err := s.ScreenMapID(ctx)
	if err != nil {
		return err
	}
	s.Publish(core.Event{Name: core.EventMapFitScreen, Data: &core.ScreenMap{ID: id}})
	return nil
}

// SetSharedVision chooses whose sight players see on the player screen
// (Screen.SharedVision): the whole party's (always), the acting one's
// (partial), or each seat's own token's (never). Clients get
// screenUpdated; the player pages read it (permissions.ts seesThrough).
func (s *PlayRoom) SetSharedVision(ctx context.Context, mode string) (*core.Screen, error) {
	switch mode {
	case core.SharedVisionNever, core.SharedVisionPartial, core.SharedVisionAlways:
	default:
		return nil, core.Invalidf("sharedVision must be never, partial or always, not '%s'", core.Clip(mode))
	}
	p := s.pin()
	var out *core.Screen
	err := p.Write(ctx, func(tx core.Tx) ([]core.Event, error) {
		c, err := p.PrimaryCampaign(tx)
		if err != nil {
			return nil, err
		}
		screen, err := tx.Screen(c.ID)
		if err != nil {
			return nil, err
		}
		screen.SharedVision = mode
		if err := tx.PutScreen(c.ID, screen); err != nil {
			return nil, err
		}
		p.LiveScreen(screen)
		out = screen
		return []core.Event{{Name: core.EventScreenUpdated, Data: screen}}, nil
	})
	return out, err
}
