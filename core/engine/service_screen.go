package engine

import (
	"cmp"
	"context"
	"strings"

	"github.com/vttapp/companion/core/engine/kernel"

	"github.com/vttapp/companion/core/pages"

	"github.com/vttapp/companion/core"
)

// SetOverlay shows (or takes down) an overlay on the primary campaign's
// player screen. Clients get screenUpdated.
func (s *libraryRoom) SetOverlay(ctx context.Context, o core.ScreenOverlay) (*core.Screen, error) {
	p := s.pin()
	if o.Text != nil && len(*o.Text) > pages.MaxHandoutText {
		return nil, core.TooLargef("a text handout has at most %d bytes", pages.MaxHandoutText)
	}
	if o.Image != nil && *o.Image != "" && !strings.HasPrefix(*o.Image, "/") && !strings.HasPrefix(*o.Image, "https://") && !strings.HasPrefix(*o.Image, "http://") {
		return nil, core.Invalidf("overlayImage must be a path on this server (/campaigns/...) or an http(s) URL")
	}
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
		if o.Image != nil {
			screen.OverlayImage = *o.Image
		}
		if o.Text != nil {
			screen.OverlayHandoutText = *o.Text
		}
		if o.Style != nil {
			screen.OverlayHandoutStyle = *o.Style
		}
		switch {
		case screen.OverlayImage != "":
			screen.OverlayType = core.OverlayImage
		case screen.OverlayHandoutText != "":
			screen.OverlayType = core.OverlayHandout
		default:
			screen.OverlayType = ""
		}
		if err := tx.PutScreen(c.ID, screen); err != nil {
			return nil, err
		}
		p.LiveScreen(screen)
		out = screen
		events := []core.Event{{Name: core.EventScreenUpdated, Data: screen}}
		// What this put on the screen goes into the journal (journal.go).
		var shown *core.JournalEntry
		switch {
		case o.Image != nil && *o.Image != "":
			shown = &core.JournalEntry{Kind: core.JournalImage, Title: pictureTitle(cmp.Or(o.Title, *o.Image)), URL: *o.Image}
		case o.Text != nil && strings.TrimSpace(*o.Text) != "":
			shown = &core.JournalEntry{Kind: core.JournalHandout, Title: handoutTitle(*o.Text), Text: *o.Text}
		}
		if shown != nil {
			ev, err := p.recordShown(tx, c.ID, shown)
			if err != nil {
				return nil, err
			}
			events = append([]core.Event{ev}, events...)
		}
		return events, nil
	})
	return out, err
}

// FocusScreen tells player displays to look at a point (mapFocus).
func (s *playRoom) FocusScreen(f core.Focus) error {
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
func (s *playRoom) FrameScreen(ctx context.Context, f core.Frame) (*core.Frame, error) {
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
func (s *playRoom) FitScreen(ctx context.Context) error {
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
func (s *playRoom) SetSharedVision(ctx context.Context, mode string) (*core.Screen, error) {
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
